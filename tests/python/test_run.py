"""perflab.run and friends against the CLI: the same rows for the same scenario and seeds, the same
summary, dict scenarios checked like files, typed columns, and the Eigen fits."""

import math
import os
import subprocess
import sys

import pandas as pd
import pytest

import perflab
from perflab.runs import read_csv_text

PINGPONG = {
    "scenario": {"name": "pp", "study": "pingpong", "seeds": 3},
    "network": {"latency": "uniform(1ms, 9ms)", "bandwidth": "100MBps"},
    "params": {"request_size": "2KiB"},
    "sweep": {"requests": [1, 10, 100], "reply_size": ["1KiB", "64KiB"]},
}


def write_toml(tmp_path, scenario: dict):
    from perflab.scenario_source import dict_to_toml

    file = tmp_path / "pp.toml"
    file.write_text(dict_to_toml(scenario))
    return file


def test_run_equals_the_cli_csv(tmp_path, cli):
    file = write_toml(tmp_path, PINGPONG)
    cli("run", file, "--out", tmp_path / "out")
    expected = read_csv_text((tmp_path / "out" / "pp.csv").read_text())
    for scenario in (file, PINGPONG):  # a path and the dict it was written from
        frame = perflab.run(scenario, jobs=2, progress=False)
        pd.testing.assert_frame_equal(frame, expected)
    assert frame.attrs["perflab"]["param_columns"][:3] == ["requests", "request_size", "reply_size"]  # study order
    # Every number is the double the CLI's text names, not one unit in the last place away (pandas' default
    # float parser is not exact, and a comparison through it would not see that).
    text = pd.read_csv(tmp_path / "out" / "pp.csv", dtype=str, keep_default_na=False)
    for column in ("duration_s", "rtt_mean_s"):
        assert [float(v) for v in text[column]] == frame[column].tolist(), column
    summary = pd.read_csv(tmp_path / "out" / "pp.summary.csv", dtype=str, keep_default_na=False)
    assert [float(v) for v in summary["duration_s_mean"]] == perflab.summarize(frame)["duration_s_mean"].tolist()


def test_a_plain_number_for_a_size_knob_is_bytes_as_the_dataframe_gives_it():
    first = perflab.run(PINGPONG, set={"sweep.reply_size": ["1KiB", "64KiB"]}, seeds=1, progress=False)
    again = perflab.run(PINGPONG, set={"sweep.reply_size": sorted(first["reply_size"].unique())}, seeds=1,
                        progress=False)  # the DataFrame's own values, in bytes, passed back
    pd.testing.assert_frame_equal(first, again)
    written = {**PINGPONG, "params": {"request_size": 2048}}  # a dict scenario too
    assert perflab.run(written, seeds=1, progress=False)["request_size"].unique().tolist() == [2048]


def test_numpy_values_are_taken_as_python_ones_and_a_selection_summarizes():
    import numpy as np
    frame = perflab.run(PINGPONG, set={"params.request_size": np.array("2KiB"), "sweep.requests": np.array([1, 10])},
                        seeds=np.int64(2), jobs=np.int64(2), progress=False)
    assert sorted(frame["requests"].unique()) == [1, 10] and frame["seed"].nunique() == 2
    picked = perflab.summarize(frame[["requests", "reply_size", "seed", "duration_s", "error"]])
    assert "duration_s_mean" in picked and "rtt_mean_s_mean" not in picked
    with pytest.raises(TypeError, match="expected the DataFrame"):
        perflab.summarize({"requests": [1]})


def test_read_results_drops_a_byte_order_mark(tmp_path, cli):
    file = write_toml(tmp_path, PINGPONG)
    cli("run", file, "--seeds", 1, "--out", tmp_path / "out")
    csv = (tmp_path / "out" / "pp.csv").read_bytes()
    (tmp_path / "excel.csv").write_bytes(b"\xef\xbb\xbf" + csv)  # as Excel's "CSV UTF-8" saves it
    pd.testing.assert_frame_equal(perflab.read_results(tmp_path / "excel.csv"),
                                  perflab.read_results(tmp_path / "out" / "pp.csv"))


def test_prefetch_headline_matches_the_cli_with_overrides(tmp_path, cli, root):
    sets = {"sweep.prefetch_depth": [0, 2], "params.prune_threshold": 1}
    cli("run", root / "scenarios" / "prefetch" / "jgit-clone.toml", "--seeds", 2, "--set",
        "sweep.prefetch_depth=[0, 2]", "--set", "params.prune_threshold=1", "--out", tmp_path)
    expected = read_csv_text((tmp_path / "prefetch-jgit-clone.csv").read_text())
    frame = perflab.run("prefetch/jgit-clone", set=sets, seeds=2, progress=False)
    pd.testing.assert_frame_equal(frame, expected)
    assert list(frame["rpcs"][frame["prefetch_depth"] == 0].unique()) == [704]


def test_summarize_equals_the_cli_summary(tmp_path, cli):
    file = write_toml(tmp_path, PINGPONG)
    cli("run", file, "--out", tmp_path / "out")
    expected = pd.read_csv(tmp_path / "out" / "pp.summary.csv")
    summary = perflab.summarize(perflab.run(file, progress=False))
    pd.testing.assert_frame_equal(summary, expected, check_dtype=False)


def test_columns_are_typed_in_base_units():
    frame = perflab.run(PINGPONG, seeds=1, progress=False)
    assert sorted(frame["reply_size"].unique()) == [1024, 65536]
    assert (frame["request_size"] == 2048).all()
    assert (frame["network.bandwidth"] == 100e6).all()
    assert pd.api.types.is_numeric_dtype(frame["reply_size"])
    assert frame["network.latency"].iloc[0].startswith("uniform(")  # distributions stay text
    assert frame[frame.error.notna()].empty  # every run succeeded: no row reads as failed


def test_failed_runs_are_rows_with_their_reason():
    scenario = dict(PINGPONG, sweep={"requests": [1], "fault": ["none", "abort"]})
    frame = perflab.run(scenario, seeds=1, progress=False)
    assert list(frame["error"].isna()) == [True, False]
    assert list(frame[frame.error.notna()]["fault"]) == ["abort"]  # the failed rows, and only them
    assert "crashed" in frame["error"].iloc[1]
    summary = perflab.summarize(frame)
    assert list(summary["failed"]) == [0, 1]


@pytest.mark.parametrize("bad, words", [
    ({**PINGPONG, "params": {"no_such_key": 1}}, ["no_such_key"]),
    ({**PINGPONG, "params": {"requests": "many"}}, ["requests"]),
    ({**PINGPONG, "sweep": {"requests": []}}, ["requests", "empty"]),
    ({**PINGPONG, "params": {"request_size": "-1KiB"}}, ["request_size"]),
    ({**PINGPONG, "bogus": {"x": 1}}, ["bogus"]),
    ({**PINGPONG, "params": 3}, ["params"]),
    ({**PINGPONG, "params": {"requests": {"nested": 1}}}, ["params.requests"]),
    ({"scenario": {"name": "x", "study": "nope"}}, ["nope"]),
])
def test_bad_scenario_dicts_raise_value_error_naming_the_key(bad, words):
    with pytest.raises(ValueError) as error:
        perflab.run(bad, progress=False)
    for word in words:
        assert word in str(error.value)


def test_bad_arguments_raise_value_error():
    with pytest.raises(ValueError, match="expected an integer >= 1"):
        perflab.run(PINGPONG, seeds=0)
    with pytest.raises(ValueError, match="expected an integer >= 1"):
        perflab.run(PINGPONG, jobs=0)
    with pytest.raises(ValueError, match="no such scenario"):
        perflab.run("no/such-scenario")
    with pytest.raises(ValueError, match='unknown parameter "nope"'):
        perflab.run(PINGPONG, set={"params.nope": 1})
    with pytest.raises(ValueError, match="expected a dict of overrides"):
        perflab.run(PINGPONG, set=["params.requests=2"])  # the CLI's spelling, not the dict run() takes
    with pytest.raises(ValueError, match="unknown study"):
        perflab.describe("nope")


def test_fits_recover_known_exponents_with_an_interval():
    x = [1, 2, 4, 8, 16, 32]
    frame = pd.DataFrame({"n": x, "seed": 1, "t": [3 * v ** 1.5 * (1.01 if i % 2 else 0.99) for i, v in enumerate(x)],
                          "error": ""})
    power = perflab.fit_power(frame, "n", "t")
    assert power.b == pytest.approx(1.5, abs=0.02)
    assert power.b_ci95_low < 1.5 < power.b_ci95_high
    assert power.r2 > 0.99 and power.n == 6
    log = perflab.fit_log(frame.assign(t=[2 + 5 * math.log(v) for v in x]), "n", "t")
    assert (log.a, log.b) == (pytest.approx(2), pytest.approx(5))
    with pytest.raises(ValueError, match="no column"):
        perflab.fit_log(frame, "n", "nope")


def test_describe_lists_parameters_and_metrics():
    info = perflab.describe("prefetch")
    assert "prefetch_depth" in set(info["params"]["name"])
    assert {"name", "type", "default", "meaning"} <= set(info["params"].columns)
    assert "rpcs" in set(info["metrics"]["name"])
    assert set(perflab.studies()) >= {"prefetch", "dispatcher", "share", "pipe"}
    assert "prefetch/jgit-clone" in set(perflab.scenarios()["file"])


def test_help_shows_the_docstrings():
    for function in (perflab.run, perflab.summarize, perflab.fit_log, perflab.fit_power, perflab.describe,
                     perflab.scenarios, perflab.studies):
        assert function.__doc__ and len(function.__doc__) > 40, function.__name__


def test_the_set_up_makes_perflab_importable_from_any_directory(tmp_path, root):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(["/usr/bin/python3", "-c", "import perflab; print(perflab.__file__)"], cwd=tmp_path,
                          env=env, capture_output=True, text=True)
    if done.returncode != 0 and "No module named" in done.stderr:
        pytest.skip("scripts/setup.sh (scripts/python-path) has not put a perflab .pth in place on this machine")
    assert done.returncode == 0, done.stderr


def test_a_file_knob_that_is_not_a_file_says_what_it_is(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    for path, what in ((tmp_path, "is a folder"), ("/dev/zero", "is a device"),
                       (tmp_path / "fifo", r"is a named pipe \(FIFO\)")):
        with pytest.raises(ValueError, match=f'"{path}" {what}, expected a readable file'):
            perflab.run("share/download-12mib", set={"params.file": str(path)}, seeds=1, progress=False)
