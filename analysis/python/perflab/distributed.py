"""A sweep on a Dask cluster: the runs of a scenario are cut into contiguous slices (a slice's runs share
grid points, so a point's inputs are prepared once per slice), each slice is one Dask task that runs in the
worker through the forked C++ runner, and the rows come back in the exact row form the CLI's writer takes.
A run that fails is a failed row, as in the forked runner; a worker that dies has its slices rescheduled by
Dask (its allowed-failures policy), and a slice that still cannot finish raises, never vanishes."""

import math
import sys
import uuid

from .rows import run_slice


# How long to wait for a scheduler at an address to answer: Dask's config key, so that a slow network can set
# it as any other Dask setting (dask.config.set, or DASK_PERFLAB__CONNECT_TIMEOUT=30s for the CLI).
CONNECT_TIMEOUT_KEY = "perflab.connect-timeout"
CONNECT_TIMEOUT_DEFAULT = "10s"


def client_of(client):
    """A dask.distributed Client: `client` itself, or a new one connected to the scheduler at an address
    ("tcp://host:8786", "host:8786"); ValueError naming the address when no scheduler answers there within
    the connect timeout (CONNECT_TIMEOUT_KEY)."""
    import dask
    from distributed import Client

    if not isinstance(client, str):
        if not hasattr(client, "scheduler_info"):
            raise ValueError(f"client={client!r} is not a dask.distributed Client, expected a Client or a "
                             f"scheduler address such as \"tcp://host:8786\"")
        return client
    try:
        return Client(client, timeout=dask.config.get(CONNECT_TIMEOUT_KEY, CONNECT_TIMEOUT_DEFAULT))
    except (OSError, TimeoutError, ValueError) as error:
        raise ValueError(f"no Dask scheduler answers at {client!r} ({error}), expected the address of a "
                         f"running scheduler, such as \"tcp://host:8786\"") from None


def slices_of(runs: int, workers: int) -> list:
    """Contiguous slices of run indices as (first, last), about four per worker so a slow slice does not
    hold the end up (never the indices themselves: a 10^7-run sweep is a few hundred pairs)."""
    size = max(1, math.ceil(runs / (max(1, workers) * 4)))
    return [(start, min(start + size, runs) - 1) for start in range(0, runs, size)]


def run_rows_on(client, source, scenario, progress: bool) -> list:
    from distributed import as_completed

    workers = len(client.scheduler_info().get("workers", {}))
    slices = slices_of(scenario.runs, workers)
    token = uuid.uuid4().hex[:8]
    keys = [f"perflab-{scenario.name}-{token}-runs-{first}-{last}" for first, last in slices]
    futures = client.map(run_slice, [source] * len(slices), [first for first, _ in slices],
                         [last for _, last in slices], key=keys)
    rows, done = [], 0
    for future in as_completed(futures):
        part = future.result()
        rows += part
        done += len(part)
        if progress:
            print(f"\rperflab: {scenario.name}: {done}/{scenario.runs} runs on {workers} Dask workers",
                  end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return rows
