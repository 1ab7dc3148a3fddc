"""The batch-scheduler path: `perflab run --shard I/3` three times, then `perflab merge`, gives the files of
one unsharded run byte for byte; the shards' rows are also what perflab.run returns."""

import pandas as pd

import perflab
from perflab.runs import read_results
from perflab.scenario_source import dict_to_toml

SWEEP = {
    "scenario": {"name": "sharded", "study": "pingpong", "seeds": 4},
    "network": {"latency": "uniform(1ms, 9ms)", "bandwidth": "100MBps"},
    "sweep": {"requests": [1, 5, 25, 125], "reply_size": ["1KiB", "1MiB"]},
}


def test_three_shards_merged_equal_the_unsharded_run(tmp_path, cli):
    file = tmp_path / "sharded.toml"
    file.write_text(dict_to_toml(SWEEP))
    cli("run", file, "--out", tmp_path / "whole")
    for i in (1, 2, 3):
        cli("run", file, "--shard", f"{i}/3", "--out", tmp_path / f"shard{i}")
    cli("merge", tmp_path / "shard1", tmp_path / "shard2", tmp_path / "shard3", "--out", tmp_path / "merged")
    for name in ("sharded.csv", "sharded.summary.csv", "sharded.md"):
        assert (tmp_path / "merged" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name
    shard_rows = sum(len(read_results(tmp_path / f"shard{i}" / "sharded.csv")) for i in (1, 2, 3))
    assert shard_rows == 4 * 2 * 4
    pd.testing.assert_frame_equal(perflab.run(file, progress=False), read_results(tmp_path / "merged" / "sharded.csv"))
