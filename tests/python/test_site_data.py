"""The results site's data says things once: its units come from the studies' knob and metric bindings
(perflab.describe), and the package and the renderer read reference.csv through one reader."""
from pathlib import Path

import pandas.testing

import perflab
from perflab_site import data

SCENARIOS = Path(perflab.scenarios_dir())


def test_units_come_from_the_bindings():
    units = data.units("pipe")
    assert units["pipe_buffer"] == "bytes" and units["pack_rate"] == "bytes/s"  # knob types
    assert units["handler_c0"] == "s"
    assert units["duration_s"] == "s" and units["throughput_mib_s"] == "MiB/s"  # metric bindings
    assert "reads" not in units, "a count has no unit"
    metrics = perflab.describe("dispatcher")["metrics"]
    assert dict(zip(metrics.name, metrics.unit))["latency_p99_s"] == data.units("dispatcher")["latency_p99_s"]


def test_the_package_and_the_renderer_read_the_same_reference_table():
    for study in ("prefetch", "pipe", "share", "dispatcher"):
        table, notes = data.reference(SCENARIOS, study)
        pandas.testing.assert_frame_equal(table, perflab.reference(study))
        assert notes and not any("../" in note for note in notes), "cites upstream, not a path outside the tree"
    assert data.reference(SCENARIOS, "pingpong") == (None, [])
