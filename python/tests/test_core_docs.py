"""Every example in the public docstrings runs and gives what it shows."""

import doctest
import inspect

import pytest

import sgf_grove
import sgf_grove.info
import sgf_grove.sgfmill

pytest.importorskip("numpy")  # a few examples show NumPy arrays


def _documented():
    """(name, object) for the package, its public names and their members."""
    seen = set()
    out = [("sgf_grove", sgf_grove), ("sgf_grove.info", sgf_grove.info), ("sgf_grove.sgfmill", sgf_grove.sgfmill)]
    public = [("sgf_grove", sgf_grove, name) for name in sgf_grove.__all__]
    public += [("sgf_grove.sgfmill", sgf_grove.sgfmill, name) for name in sgf_grove.sgfmill.__all__]
    for module_name, module, name in public:
        obj = getattr(module, name)
        name = f"{module_name}.{name}"[len("sgf_grove.") :]
        out.append((f"sgf_grove.{name}", obj))
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_") and attr not in ("__init__", "__new__"):
                    continue
                out.append((f"sgf_grove.{name}.{attr}", member))
    unique = []
    for name, obj in out:
        doc = getattr(obj, "__doc__", None)
        if not isinstance(doc, str) or id(obj) in seen or ">>>" not in doc:
            continue
        seen.add(id(obj))
        unique.append((name, doc))
    return unique


DOCUMENTED = _documented()


def test_there_are_examples():
    # The package documents its API with examples: losing them fails here.
    assert len(DOCUMENTED) >= 30


@pytest.mark.parametrize("name,doc", DOCUMENTED, ids=[n for n, _ in DOCUMENTED])
def test_docstring_examples(name, doc):
    parser = doctest.DocTestParser()
    # sgf_grove.sgfmill's examples run in its namespace, as its doctests do.
    globs = dict(vars(sgf_grove.sgfmill)) if name.startswith("sgf_grove.sgfmill") else {}
    test = parser.get_doctest(doc, globs, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
