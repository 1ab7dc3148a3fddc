"""perflab from Python: run the studies' scenarios into pandas DataFrames (locally or on a Dask cluster),
summarise and fit them, and poke at the bound C++ models (perflab.models).

    import perflab
    df = perflab.run("prefetch/jgit-clone", seeds=3)
    perflab.summarize(df)
    perflab.fit_power(df, "prefetch_depth", "rpcs")

The C++ core is the _perflab extension, built into build/python/ by the README's set-up; when PYTHONPATH
does not name a build, the package takes its own checkout's build/python."""

import os
import pathlib
import sys

import pandas as pd

try:
    import _perflab
except ModuleNotFoundError:  # not on the path (PYTHONPATH names a build): this checkout's own build's
    _BUILD = pathlib.Path(__file__).resolve().parents[3] / "build" / "python"
    sys.path.append(str(_BUILD))
    try:
        import _perflab
    except ModuleNotFoundError as _missing:
        raise ImportError(f"perflab ({pathlib.Path(__file__).parent}) needs its C++ extension _perflab, which "
                          f"is not built in {_BUILD}: run `cmake --build build --target _perflab` in "
                          f"{_BUILD.parents[1]} (or scripts/setup.sh there)") from _missing
import reference_table
from _perflab import models

from .analysis import Fit, fit_log, fit_power, summarize
from .runs import read_results, run

# `import perflab.models.share` and `from perflab.models.pipe import run_pipeline` work like real modules.
sys.modules[__name__ + ".models"] = models
for _name, _module in vars(models).items():
    if isinstance(_module, type(models)):
        sys.modules[f"{__name__}.models.{_name}"] = _module


def studies() -> list:
    """The names of the studies this build has, e.g. ["dispatcher", "pingpong", "pipe", "prefetch", "share"]."""
    return list(_perflab.studies())


def scenarios_dir() -> str:
    """The folder of the shipped scenarios and their data (scenarios/ of this source tree)."""
    return _perflab.scenarios_dir()


def scenarios() -> pd.DataFrame:
    """The shipped scenarios (scenarios/<study>/*.toml): file (what perflab.run takes), name, study, engine,
    points, seeds, headline (run by `perflab reproduce`), description."""
    from pathlib import Path

    root = Path(_perflab.scenarios_dir())
    records = []
    for file in sorted(root.glob("*/*.toml")):
        scenario = _perflab.load_scenario(str(file), [])
        records.append({"file": str(file.relative_to(root).with_suffix("")), "name": scenario.name,
                        "study": scenario.study, "engine": scenario.engine, "points": scenario.points,
                        "seeds": scenario.seeds, "headline": scenario.headline,
                        "description": scenario.description})
    return pd.DataFrame.from_records(records)


def reference(study: str) -> pd.DataFrame:
    """The numbers the study's seed published (scenarios/<study>/reference.csv): the table the headline
    reproduces, in the same units as perflab.run's columns."""
    return reference_table.read(_perflab.scenarios_dir(), study)[0]


def describe(name: str) -> dict:
    """A study's schema: {"name", "description", "engines", "params": DataFrame (name, type, default,
    meaning, choices, min, engine), "metrics": DataFrame (name, meaning, exact, unit: "s", "bytes", "MiB/s",
    … or "" for a count), "micro_metrics"}. For a scenario (a file, or a shipped name as `perflab list`
    prints it), its study's schema plus "scenario", "points", "seeds" and "cases" (what cases= narrows).
    Raises ValueError for a name that is neither."""
    scenario = None
    name = os.path.expanduser(os.fspath(name))  # a pathlib.Path or "~/…" names a file as run() takes it
    if name not in _perflab.studies():
        looks_like_a_file = "/" in name or name.endswith(".toml")
        try:
            file = _perflab.find_scenario_file(name)
        except ValueError:
            if looks_like_a_file:
                raise  # a missing file, not a misspelt study
            file = None  # neither: the error below names the studies there are
        if file is not None:
            scenario = _perflab.load_scenario(file, [])  # a malformed file raises its own error
    info = dict(_perflab.describe(scenario.study if scenario is not None else name))
    if scenario is not None:
        info.update(scenario=scenario.name, points=scenario.points, seeds=scenario.seeds,
                    cases=list(scenario.cases))
    for key in ("params", "metrics", "micro_metrics"):
        info[key] = pd.DataFrame.from_records(info[key])
    return info


__all__ = ["Fit", "describe", "reference", "fit_log", "fit_power", "models", "read_results", "run", "scenarios", "scenarios_dir", "studies",
           "summarize"]
