"""The package imports and exposes its documented surface: perflab.models and its study submodules import
like real modules (`import perflab.models.share`, `from perflab.models.pipe import ...`) and are the
extension's own."""

import importlib

import _perflab
import perflab


def test_models_and_their_study_submodules_import_as_modules():
    import perflab.models  # noqa: F401

    assert perflab.models is _perflab.models
    for study in ("dispatcher", "pipe", "prefetch", "share"):
        module = importlib.import_module(f"perflab.models.{study}")
        assert module is getattr(_perflab.models, study), study
        assert module.__doc__, study
    from perflab.models.pipe import run_pipeline  # noqa: F401 (the package docstring's example)
