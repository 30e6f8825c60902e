"""The type stubs (sgf_grove/_native.pyi) name exactly what the extension
module has, for the classes and functions of games, replay and editing."""

import ast
import inspect
from pathlib import Path

import sgf_grove
from sgf_grove import _native

STUB = Path(sgf_grove.__file__).with_name("_native.pyi")
CLASSES = ["Collection", "Game", "Node", "ParseWarning", "SgfError", "Board", "Cursor", "IllegalMove", "MillBoard"]
FUNCTIONS = ["parse", "read", "serialise", "_library_replay", "_mill_plays"]
# Dunder methods the runtime has on every object, or that the stubs leave out.
SKIP = {"__new__", "__init__", "__doc__", "__module__", "__dict__", "__weakref__", "__repr__",
        "__str__", "__lt__", "__le__", "__gt__", "__ge__", "__getattribute__", "__setattr__",
        "__delattr__", "__reduce__", "__reduce_ex__", "__sizeof__", "__format__", "__dir__",
        "__init_subclass__", "__subclasshook__", "__class__", "__getstate__", "__traceback__",
        "__cause__", "__context__", "__suppress_context__", "__setstate__", "args", "with_traceback",
        "add_note", "__next__", "__class_getitem__", "__reversed__", "count", "__abstractmethods__",
        "__slots__", "__orig_bases__", "__parameters__", "__type_params__"}


def stub_tree():
    return ast.parse(STUB.read_text())


def stub_members():
    out = {}
    for node in stub_tree().body:
        if isinstance(node, ast.ClassDef):
            names = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(item.target.id)
            out[node.name] = names
    return out


def test_stub_functions_exist_and_have_the_same_parameters():
    tree = stub_tree()
    stubbed = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    for name in FUNCTIONS:
        assert name in stubbed, name
        runtime = inspect.signature(getattr(_native, name))
        stub_params = [a.arg for a in stubbed[name].args.args + stubbed[name].args.kwonlyargs]
        assert stub_params == list(runtime.parameters), name


def test_stub_classes_have_the_runtime_members():
    members = stub_members()
    for name in CLASSES:
        cls = getattr(_native, name)
        runtime = {m for m in vars(cls) if m not in SKIP}
        if name == "SgfError":
            runtime = set()  # attributes set on instances, declared in the stub
        stubbed = members[name] - SKIP
        if name == "SgfError":
            assert stubbed == {"kind", "offset", "line", "column"}
            continue
        assert runtime - stubbed == set(), f"{name}: missing from the stub"
        assert stubbed - runtime == set(), f"{name}: in the stub only"


def test_stub_method_parameters_match():
    tree = stub_tree()
    for node in tree.body:
        if not isinstance(node, ast.ClassDef) or node.name not in CLASSES:
            continue
        cls = getattr(_native, node.name)
        for item in node.body:
            if not isinstance(item, ast.FunctionDef) or item.name.startswith("__"):
                continue
            if any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list):
                continue
            if any(isinstance(d, ast.Name) and d.id == "overload" for d in item.decorator_list):
                continue
            runtime = inspect.signature(getattr(cls, item.name))
            stub_params = [a.arg for a in item.args.args + item.args.kwonlyargs]
            assert stub_params == list(runtime.parameters), f"{node.name}.{item.name}"


def test_the_package_is_marked_typed():
    assert Path(sgf_grove.__file__).with_name("py.typed").exists()
