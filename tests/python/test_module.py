"""The package imports and exposes its documented surface."""

import perflab


def test_models_submodule_is_importable():
    import perflab.models  # noqa: F401

    assert perflab.models is perflab.models
