#!/usr/bin/python3
"""The one renderer of a results folder: every figure (SVG), the site (index.html, <study>.html) and
README.md, from the CSV files, summaries and run records the C++ harness wrote there; with --print, also
each named scenario's report (its table beside the seed's numbers) or summary on stdout. `perflab
reproduce`, `reproduce --readme-only` and `check --record` run it once; by hand:

    /usr/bin/python3 analysis/python/render.py [RESULTS_DIR [SCENARIOS_DIR]] [--print SCENARIO...]
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import perflab_site  # noqa: E402
from perflab_site import readme  # noqa: E402


def main(argv: list) -> int:
    folders, names = argv, []
    if "--print" in argv:
        at = argv.index("--print")
        folders, names = argv[:at], argv[at + 1:]
    if any(arg.startswith("-") for arg in folders) or len(folders) > 2:
        print(__doc__, file=sys.stderr)
        return 0 if folders in (["-h"], ["--help"]) else 2
    root = Path(__file__).resolve().parents[2]
    results = Path(folders[0]) if folders else root / "results"
    scenarios = Path(folders[1]) if len(folders) > 1 else root / "scenarios"
    if not results.is_dir():
        print(f"render.py: {results}: no such folder, expected a results folder", file=sys.stderr)
        return 2
    studies = perflab_site.studies_in(results, scenarios)
    files = perflab_site.build(results, scenarios, studies)
    if names:
        print(readme.terminal(studies, names))
    print(f"render: wrote {results / 'README.md'}, {results / 'index.html'} and {len(files) - 2} more files",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
