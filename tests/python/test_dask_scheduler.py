"""A Dask cluster reached by its scheduler's address (a LocalCluster on 127.0.0.1 started here): `perflab run
FILE --scheduler ADDRESS` writes the files a local run writes, byte for byte; perflab.run(client=ADDRESS)
takes the address as the CLI does; an address where no scheduler answers is a clear error (exit 2, or
ValueError), as is a client that is neither."""

import pandas as pd
import pytest

import perflab
from perflab.distributed import CONNECT_TIMEOUT_KEY
from perflab.scenario_source import dict_to_toml

distributed = pytest.importorskip("distributed")

SWEEP = {
    "scenario": {"name": "dask-cli", "study": "pingpong", "seeds": 3},
    "network": {"latency": "uniform(1ms, 9ms)", "bandwidth": "100MBps"},
    "sweep": {"requests": [10, 20, 30, 40], "reply_size": ["1KiB", "64KiB"], "fault": ["none", "abort"]},
}
NOBODY = "tcp://127.0.0.1:9"  # the discard port: no scheduler answers there
QUICK = {"DASK_PERFLAB__CONNECT_TIMEOUT": "1s"}  # how long perflab waits for NOBODY (not the default 10 s)


@pytest.fixture(scope="module")
def address():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None, silence_logs=50)
    yield cluster.scheduler_address
    cluster.close()


def test_cli_run_on_the_scheduler_writes_the_local_run_files(tmp_path, cli, address):
    file = tmp_path / "sweep.toml"
    file.write_text(dict_to_toml(SWEEP))
    local = cli("run", file, "--seeds", 2, "--out", tmp_path / "local", check=False)
    remote = cli("run", file, "--seeds", 2, "--scheduler", address, "--out", tmp_path / "dask", check=False)
    assert local.returncode == remote.returncode == 1, remote.stderr  # the abort rows fail, in both
    for name in ("dask-cli.csv", "dask-cli.summary.csv", "dask-cli.md"):
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "local" / name).read_bytes(), name
    assert remote.stdout == local.stdout
    rows = pd.read_csv(tmp_path / "dask" / "dask-cli.csv")
    assert len(rows) == 4 * 2 * 2 * 2


def test_cli_scheduler_that_does_not_answer_is_exit_2(tmp_path, cli, monkeypatch):
    for name, value in QUICK.items():
        monkeypatch.setenv(name, value)  # read by the Dask the CLI's Python imports
    done = cli("run", "pingpong/wan", "--scheduler", NOBODY, "--out", tmp_path / "out", check=False)
    assert done.returncode == 2, done.stderr
    assert "after 1 s)" in done.stderr, done.stderr  # Dask's own words: it waited the timeout set
    assert f"--scheduler {NOBODY}: no Dask scheduler answers at '{NOBODY}'" in done.stderr
    assert not (tmp_path / "out").exists()


def test_cli_scheduler_refuses_flags_it_cannot_honour(cli):
    done = cli("run", "pingpong/wan", "--scheduler", NOBODY, "--jobs", 2, check=False)
    assert done.returncode == 2
    assert "--scheduler runs the whole sweep on the Dask cluster: it does not go with" in done.stderr


def test_run_takes_a_scheduler_address_as_client(address):
    local = perflab.run(SWEEP, seeds=1, progress=False)
    remote = perflab.run(SWEEP, seeds=1, client=address, progress=False)
    pd.testing.assert_frame_equal(remote, local)


def test_run_with_a_client_that_is_not_one_raises_value_error():
    import dask

    with dask.config.set({CONNECT_TIMEOUT_KEY: QUICK["DASK_PERFLAB__CONNECT_TIMEOUT"]}), \
            pytest.raises(ValueError, match=f"no Dask scheduler answers at '{NOBODY}' .*after 1 s"):
        perflab.run(SWEEP, seeds=1, client=NOBODY, progress=False)
    with pytest.raises(ValueError, match="client=42 is not a dask.distributed Client"):
        perflab.run(SWEEP, seeds=1, client=42, progress=False)
