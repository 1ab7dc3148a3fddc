"""Sweeps on a Dask cluster (a LocalCluster of two worker processes): the same DataFrame as a local run,
failed runs as rows, and a worker killed mid-sweep has its runs retried, never dropped."""

import os
import signal
import threading
import time

import pandas as pd
import pytest

import perflab

distributed = pytest.importorskip("distributed")

SWEEP = {
    "scenario": {"name": "dask-pp", "study": "pingpong", "seeds": 3},
    "network": {"latency": "uniform(1ms, 9ms)", "bandwidth": "100MBps"},
    "sweep": {"requests": [100 + 10 * i for i in range(12)], "reply_size": ["1KiB", "64KiB"]},
}


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=50)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_dask_run_equals_the_local_run(client):
    local = perflab.run(SWEEP, progress=False)
    remote = perflab.run(SWEEP, client=client, progress=False)
    pd.testing.assert_frame_equal(remote, local)
    assert len(remote) == 12 * 2 * 3


def test_failed_runs_on_workers_are_rows(client):
    scenario = dict(SWEEP, sweep={"requests": [1, 2], "fault": ["none", "abort"]})
    remote = perflab.run(scenario, client=client, progress=False)
    pd.testing.assert_frame_equal(remote, perflab.run(scenario, progress=False))
    assert remote["error"].notna().sum() == 2 * 3
    assert remote.loc[remote["fault"] == "abort", "error"].str.contains("crashed").all()


def rescheduled_slices(client) -> set:
    """The perflab slices (Dask keys "perflab-…-runs-FIRST-LAST") the scheduler took back from a worker while
    they were processing (its transition log: processing -> released/waiting), i.e. retried elsewhere."""
    def on_scheduler(dask_scheduler):
        return {entry[0] for entry in dask_scheduler.transition_log
                if str(entry[0]).startswith("perflab-") and entry[1] == "processing"
                and entry[2] in ("released", "waiting", "no-worker")}

    return client.run_on_scheduler(on_scheduler)


def test_a_worker_killed_mid_sweep_is_retried(client):
    scenario = dict(SWEEP, sweep={"requests": [5000 + i for i in range(30)]})
    expected = perflab.run(scenario, progress=False)
    retried_before = rescheduled_slices(client)
    pids = client.run(os.getpid)
    result = {}
    sweep = threading.Thread(target=lambda: result.update(df=perflab.run(scenario, client=client, progress=False)))
    sweep.start()
    deadline = time.time() + 30
    while time.time() < deadline and not any(client.processing().values()):
        time.sleep(0.05)
    time.sleep(0.3)  # let the victim get into a slice
    victim = next(address for address, tasks in client.processing().items() if tasks)
    os.kill(pids[victim], signal.SIGKILL)
    sweep.join(timeout=120)
    assert not sweep.is_alive()
    pd.testing.assert_frame_equal(result["df"], expected)
    retried = rescheduled_slices(client) - retried_before
    assert retried, "no slice was taken back from the killed worker: nothing was retried"
    assert all(key.startswith("perflab-dask-pp-") for key in retried), retried
    client.wait_for_workers(2, timeout=30)  # the nanny restarted the killed worker


def test_a_ten_million_run_sweep_is_cut_into_a_few_ranges_never_listed():
    from perflab.distributed import slices_of

    slices = slices_of(10**7, 2)
    assert len(slices) == 8
    assert slices[0] == (0, 1249999) and slices[-1] == (8750000, 9999999)
    assert all(b[0] == a[1] + 1 for a, b in zip(slices, slices[1:]))
