"""perflab.models: every bound class, method, property and function says what it is (help() shows it), and
each study's submodule can be imported by its extension name."""

import importlib
import inspect
import types
from pathlib import Path

import pytest

import perflab.models

# Every study with bindings (analysis/module/models_<study>.cpp), found as CMake finds them: a new study's
# bindings are checked without being listed here.
STUDIES = sorted(path.stem.removeprefix("models_")
                 for path in (Path(__file__).resolve().parents[2] / "analysis" / "module").glob("models_*.cpp"))
assert STUDIES, "no analysis/module/models_*.cpp found"


def public_members(module):
    for name, member in vars(module).items():
        if name.startswith("_"):
            continue
        yield f"{module.__name__}.{name}", member
        if inspect.isclass(member):
            for attr, value in vars(member).items():
                # A result type (no constructor bound) keeps Python's slot __init__, which raises TypeError.
                bound_init = attr == "__init__" and not isinstance(value, types.WrapperDescriptorType)
                if not attr.startswith("_") or bound_init:
                    yield f"{module.__name__}.{name}.{attr}", value


@pytest.mark.parametrize("study", STUDIES)
def test_every_public_member_has_a_docstring(study):
    module = getattr(perflab.models, study)
    assert module.__doc__
    undocumented = []
    for name, member in public_members(module):
        doc = (getattr(member, "__doc__", None) or "").strip()
        # pybind11 puts a function's signature on the first line; its docstring comes after a blank line.
        is_function = callable(member) and not inspect.isclass(member)
        if len(doc.splitlines()) < (3 if is_function else 1):
            undocumented.append(name)
    assert undocumented == []


@pytest.mark.parametrize("study", STUDIES)
def test_each_submodule_imports_by_its_extension_name(study):
    assert importlib.import_module(f"_perflab.models.{study}") is getattr(perflab.models, study)
