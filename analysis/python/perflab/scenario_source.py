"""Where a scenario comes from: a file (a path, or a shipped name such as "prefetch/jgit-clone") or a dict
with the structure of a scenario file. A ScenarioSource is small and picklable, so a Dask worker can load
the very same scenario the client did; loading is deterministic, so both expand the same grid."""

import json
import math
import numbers
import os
from dataclasses import dataclass, field
from typing import Optional

import _perflab

DICT_ORIGIN = "<scenario dict>"
SET_ORIGIN = "set="


def whole_number(value) -> bool:
    """An int, or NumPy's (np.int64 from a DataFrame), but not a bool (np.bool_ is no Integral)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def plain(value):
    """NumPy's numbers and arrays (np.int64, np.bool_, np.ndarray) and ranges as Python's."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    return list(value) if isinstance(value, range) else value


def is_number(value) -> bool:
    """A real number that is not a bool, or a list of them (what a base unit would be added to)."""
    value = plain(value)
    if isinstance(value, (list, tuple)):
        return any(is_number(v) for v in value)
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


@dataclass(frozen=True)
class ScenarioSource:
    file: Optional[str] = None  # absolute path of a .toml file, or
    text: Optional[str] = None  # TOML text made from a dict (relative paths resolve against `dir`)
    dir: str = "."
    sets: tuple = field(default_factory=tuple)  # "KEY=VALUE" overrides, as perflab run --set

    def load(self) -> "_perflab.Scenario":
        if self.file is not None:
            return _perflab.load_scenario(self.file, list(self.sets))
        return _perflab.load_scenario_text(self.text, DICT_ORIGIN, self.dir, list(self.sets))


# A knob's value as perflab.run's DataFrame gives it (sizes in bytes, durations in seconds, rates in bytes/s)
# is taken back: a plain number for such a knob is written with its base unit, which the loader requires.
BASE_UNITS = {"size": "B", "duration": "s", "rate": "Bps"}


def knob_types(study) -> dict:
    """{knob name: its type name} of a study; {} for a name that is none (the loader then says so)."""
    try:
        return {p["name"]: p["type"] for p in dict(_perflab.describe(study))["params"]}
    except (ValueError, TypeError):
        return {}


def with_base_unit(value, type_name: str):
    unit = BASE_UNITS.get(type_name)
    if unit is None:
        return value
    value = plain(value)
    if isinstance(value, (list, tuple)):
        return [with_base_unit(v, type_name) for v in value]
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value):
        whole = float(value).is_integer() and abs(value) < 2 ** 53
        return f"{int(value)}{unit}" if whole else f"{float(value)!r}{unit}"
    return value


def study_of(scenario, set) -> Optional[str]:
    """The study a scenario (dict or file) runs, as far as can be told before loading it."""
    if set and isinstance(set.get("scenario.study"), str):
        return set["scenario.study"]
    if isinstance(scenario, dict):
        study = scenario.get("scenario", {}).get("study") if isinstance(scenario.get("scenario"), dict) else None
        return study if isinstance(study, str) else None
    try:
        path = os.path.expanduser(os.fspath(scenario))
        return _perflab.load_scenario(_perflab.find_scenario_file(path), []).study
    except (ValueError, TypeError):
        return None  # the load below reports what is wrong with it


def source_of(scenario, set=None, seeds=None, cases=None) -> ScenarioSource:
    """The ScenarioSource of a path, a shipped scenario's name or a dict, with --set style overrides."""
    sets = []
    if set is not None and not isinstance(set, dict):
        raise ValueError(f"set={set!r} is not valid, expected a dict of overrides, e.g. "
                         "{\"params.prune_threshold\": 2, \"sweep.prefetch_depth\": [0, 1, 500]}")
    # The knobs' types only when a number may need its unit: a file is loaded here just to name its study.
    numbers_given = any(is_number(v) for k, v in (set or {}).items() if k.startswith(("params.", "sweep.")))
    types = knob_types(study_of(scenario, set)) if numbers_given or isinstance(scenario, dict) else {}
    for key, value in (set or {}).items():
        section, _, name = key.partition(".")
        if section in ("params", "sweep"):
            value = with_base_unit(value, types.get(name, ""))
        sets.append(f"{key}={toml_value(value, key, SET_ORIGIN)}")
    if seeds is not None:
        if not whole_number(seeds) or seeds < 1:
            raise ValueError(f"seeds={seeds!r} is not valid, expected an integer >= 1")
        sets.append(f"scenario.seeds={int(seeds)}")
    if isinstance(cases, str):
        cases = [cases]
    if cases is not None and not isinstance(cases, (list, tuple)):
        raise ValueError(f"cases={cases!r} is not valid, expected a list of [[case]] names")
    for name in cases or []:
        if not isinstance(name, str):
            raise ValueError(f"cases: {name!r} is not a case name, expected a list of [[case]] names")
        sets.append(f"case={name}")  # the loader's --case NAME (sim/scenario/scenario.h kCaseKey)
    if isinstance(scenario, dict):
        return ScenarioSource(text=dict_to_toml(scenario, types), dir=os.getcwd(), sets=tuple(sets))
    if isinstance(scenario, (str, os.PathLike)):
        path = os.path.expanduser(os.fspath(scenario))
        return ScenarioSource(file=_perflab.find_scenario_file(path), sets=tuple(sets))
    raise ValueError(f"scenario must be a path, a shipped scenario's name or a dict, got {type(scenario).__name__}")


def toml_value(value, key: str, origin: str = DICT_ORIGIN) -> str:
    """One Python value as a TOML value (NumPy's numbers and arrays as Python's); ValueError naming `key` for
    what TOML cannot hold."""
    value = plain(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        value = float(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string: JSON's escapes are valid TOML
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v, key, origin) for v in value) + "]"
    raise ValueError(f"{origin}: \"{key}\" has a {type(value).__name__} value, "
                     f"expected a string, number, boolean or list")


def dict_to_toml(scenario: dict, types: Optional[dict] = None) -> str:
    """A scenario dict ({"scenario": {...}, "params": {...}, "sweep": {...}, "case": [{...}]}) as TOML text;
    the scenario loader then checks every key against the study's schema, as for a file. `types` (knob name:
    type) lets a size, duration or rate be a plain number in base units."""
    types = types or {}
    unit = lambda section, k, v: with_base_unit(v, types.get(k, "")) if section in ("params", "sweep", "case") else v
    lines = []
    for section, body in scenario.items():
        if section == "case" and isinstance(body, (list, tuple)):
            for case in body:
                if not isinstance(case, dict):
                    raise ValueError(f"{DICT_ORIGIN}: every [[case]] must be a dict, got {type(case).__name__}")
                lines.append("[[case]]")
                lines += [f"{json.dumps(k)} = {toml_value(unit('case', k, v), f'case.{k}')}" for k, v in case.items()]
            continue
        if not isinstance(body, dict):
            raise ValueError(f"{DICT_ORIGIN}: \"{section}\" must be a dict (a table of the scenario file), "
                             f"got {type(body).__name__}")
        lines.append(f"[{json.dumps(section)}]")
        lines += [f"{json.dumps(k)} = {toml_value(unit(section, k, v), f'{section}.{k}')}" for k, v in body.items()]
    return "\n".join(lines) + "\n"
