"""`perflab run --scheduler ADDRESS`'s worker side: `python3 -m perflab.cluster_rows ADDRESS FILE [--set
KEY=VALUE]...` runs a scenario's runs on the Dask cluster at ADDRESS (as perflab.run(..., client=ADDRESS)
does) and prints every run's row on stdout in the row codec's form; the CLI turns them into the same files
a local run writes. Exit 2 with the reason on stderr when the scenario or the scheduler is not usable."""

import argparse
import sys

from .distributed import client_of, run_rows_on
from .scenario_source import ScenarioSource


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="perflab run --scheduler")
    parser.add_argument("address")
    parser.add_argument("file")
    parser.add_argument("--set", action="append", default=[], dest="sets")
    args = parser.parse_args(argv)
    source = ScenarioSource(file=args.file, sets=tuple(args.sets))
    try:
        scenario = source.load()
        client = client_of(args.address)
    except ImportError as error:
        print(f"{error}: the Dask client needs python3-distributed (scripts/setup.sh installs it)", file=sys.stderr)
        return 2
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    try:
        rows = run_rows_on(client, source, scenario, progress=False)
    finally:
        client.close()
    sys.stdout.writelines(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
