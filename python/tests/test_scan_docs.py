"""The examples in the scan, Arrow and cluster docs run, and the stubs of
the scan functions and classes name what the extension module has."""

import ast
import doctest
import inspect
from pathlib import Path

import pytest

import sgf_grove
from sgf_grove import _native, _scan, cluster

STUB = Path(sgf_grove.__file__).with_name("_native.pyi")
FUNCTIONS = ["scan", "tables", "batches", "export_parquet", "sources"]
CLASSES = {
    "Rejected": {"source", "game", "offset", "reason", "message"},
    "ScanReport": {"games", "rejected", "rejected_total", "errors", "errors_dropped",
                   "skipped", "finished", "to_dict"},
    "Scan": {"__iter__", "__next__", "report", "close", "__enter__", "__exit__"},
    "ArrowStream": {"__arrow_c_stream__", "column_names"},
}


@pytest.mark.parametrize(
    "obj",
    [_scan, cluster, _native.Rejected, _native.ScanReport],
    ids=lambda o: getattr(o, "__name__", str(o)),
)
def test_doc_examples_run(obj):
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs = dict(vars(obj)) if inspect.ismodule(obj) else {}
    globs["sgf_grove"] = sgf_grove
    tests = finder.find(obj, globs=globs)
    assert sum(len(t.examples) for t in tests) > 0
    for test in tests:
        runner.run(test)
    assert runner.failures == 0


def test_stubs_name_the_scan_functions_with_their_parameters():
    tree = ast.parse(STUB.read_text())
    stubbed = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    for name in FUNCTIONS:
        params = [a.arg for a in stubbed[name].args.args + stubbed[name].args.kwonlyargs]
        assert params == list(inspect.signature(getattr(_native, name)).parameters), name


def test_stubs_name_the_scan_classes_members():
    tree = ast.parse(STUB.read_text())
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    for name, members in CLASSES.items():
        stubbed = {i.name for i in classes[name].body if isinstance(i, ast.FunctionDef)}
        assert stubbed == members, name
        runtime = set(dir(getattr(_native, name)))
        assert members <= runtime, name
