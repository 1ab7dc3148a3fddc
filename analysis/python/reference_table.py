"""The one Python reader of a study's reference table, scenarios/<study>/reference.csv: the seed's published
numbers, in columns named after the study's parameters and metrics, with `#` lines saying where they come
from. The perflab package (perflab.reference) and the renderer (perflab_site, the studies' page.py) read
it through here; sim/gate/reference.cpp is the C++ reader."""
from pathlib import Path

import pandas as pd


def path(scenarios_dir, study: str) -> Path:
    return Path(scenarios_dir) / study / "reference.csv"


def read(scenarios_dir, study: str) -> tuple:
    """(the table as a DataFrame, its comment lines without the leading "# "). ValueError naming the
    studies that have one when `study` has none."""
    file = path(scenarios_dir, study)
    if not file.is_file():
        known = ", ".join(sorted(p.parent.name for p in Path(scenarios_dir).glob("*/reference.csv")))
        raise ValueError(f"no reference table for study \"{study}\" ({file}), expected one of {known}")
    notes = [line.lstrip("# ").rstrip() for line in file.read_text().splitlines() if line.startswith("#")]
    return pd.read_csv(file, comment="#", skipinitialspace=True), notes
