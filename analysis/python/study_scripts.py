"""A study's own optional script beside its scenarios (scenarios/<study>/plot.py, page.py), loaded as a
module, so the plot driver and the site find what is particular to a study without naming it."""
import importlib.util
from pathlib import Path


def load_study_script(scenarios_dir: Path, study: str, script: str):
    """The module of scenarios_dir/<study>/<script>, or None when the study has no such script."""
    path = Path(scenarios_dir) / study / script
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"perflab_{path.stem}_{study}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
