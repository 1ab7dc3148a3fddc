"""The one renderer (analysis/python/render.py) on the committed results: what it makes of the committed CSV
files is what is committed (README.md, the site's HTML and every SVG figure, byte for byte: a report's
wording, a number's format or a plot cannot change without the committed output changing too, as the C++
report golden test used to check), and how it behaves: the reports' numbers are the summaries' numbers,
every interval is written `mean [low, high]`, every figure is an SVG file drawn once and shown by README.md,
`--print` prints the named scenarios' reports, bad input is an error."""
import re
import shutil
import subprocess

import pandas as pd
import pytest

from conftest import ROOT

RENDER = ROOT / "analysis" / "python" / "render.py"
RENDERED = ("README.md", "*.html", "*/*.svg")


def render(*args, check=True):
    return subprocess.run(["/usr/bin/python3", str(RENDER), *map(str, args)], capture_output=True, text=True,
                          check=check)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """The committed results/ without what the renderer writes, then rendered (history.html stays: `perflab
    history` writes it, and the index links it)."""
    top = tmp_path_factory.mktemp("render")
    results = top / "results"
    shutil.copytree(ROOT / "results", results,
                    ignore=lambda d, names: [n for n in names if n == "README.md" or n.endswith(".svg") or
                                             (n.endswith(".html") and n != "history.html")])
    (top / "scenarios").symlink_to(ROOT / "scenarios")  # the pages link ../scenarios/<study>/...
    done = render(results, top / "scenarios", "--print", "prefetch-jgit-clone", "share-download-12mib")
    return results, done


def committed_outputs():
    return sorted(str(p.relative_to(ROOT / "results")) for pattern in RENDERED
                  for p in (ROOT / "results").glob(pattern) if p.name != "history.html")


@pytest.mark.parametrize("name", committed_outputs())
def test_the_committed_output_is_what_the_renderer_makes_of_the_committed_csvs(rendered, name):
    results, _ = rendered
    assert (results / name).exists(), f"{name} is committed but the renderer no longer writes it"
    assert (results / name).read_text() == (ROOT / "results" / name).read_text(), (
        f"{name} differs from what render.py makes of the committed results: "
        "`perflab reproduce --readme-only --update` rewrites it")


def test_it_writes_nothing_that_is_not_committed(rendered):
    results, _ = rendered
    made = sorted(str(p.relative_to(results)) for pattern in RENDERED for p in results.glob(pattern)
                  if p.name != "history.html")
    assert made == committed_outputs()


def test_the_prefetch_report_shows_the_summary_means_and_intervals_beside_the_prs_numbers(rendered):
    results, _ = rendered
    summary = pd.read_csv(results / "prefetch" / "prefetch-jgit-clone.summary.csv").set_index("prefetch_depth")
    pr = pd.read_csv(ROOT / "scenarios" / "prefetch" / "reference.csv", comment="#").set_index("prefetch_depth")
    readme = (results / "README.md").read_text()
    row = re.search(r"^\| 1 \| (\S+) \[(\S+), (\S+)\] \| (\d+) \|", readme, re.M)
    assert row, "the depth sweep's row for depth 1"
    mean, low, high, published = (float(v) for v in row.groups())
    at = summary.loc[1]
    assert (mean, low, high) == tuple(round(at[f"duration_s_{k}"], 1) for k in ("mean", "ci95_low", "ci95_high"))
    assert published == pr.loc[1, "duration_s"]


def test_every_interval_is_written_one_way(rendered):
    results, _ = rendered
    for page in [results / "README.md", *results.glob("*.html")]:
        text = page.read_text()
        assert "±" not in text, f"{page.name} writes an interval with ±"
    readme = (results / "README.md").read_text()
    intervals = re.findall(r"(-?[\d.]+) \[(-?[\d.]+), (-?[\d.]+)\]", readme)
    assert len(intervals) > 100
    for mean, low, high in intervals:
        assert float(low) <= float(mean) <= float(high), (mean, low, high)


def test_every_figure_is_one_svg_file_that_readme_shows(rendered):
    results, _ = rendered
    readme = (results / "README.md").read_text()
    shown = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme)
    assert shown and all(f.endswith(".svg") and (results / f).exists() for f in shown)
    assert len(shown) == len(set(shown)), "a figure shown twice"
    drawn = {str(p.relative_to(results)) for p in results.glob("*/*.svg") if not p.name.endswith(".validate.svg")}
    assert drawn == set(shown)
    assert not list(results.glob("*/*.png")), "no matplotlib picture is left"


def test_print_gives_the_named_scenarios_reports_and_only_those(rendered):
    _, done = rendered
    assert "## prefetch-jgit-clone\n" in done.stdout and "## share-download-12mib\n" in done.stdout
    assert "### prefetch: depth sweep beside PR #721's table" in done.stdout
    assert "### share: ticket #1268" in done.stdout
    assert "## pipe-git-clone" not in done.stdout


def test_bad_input_is_an_error(tmp_path):
    missing = render(tmp_path / "absent", check=False)
    assert missing.returncode == 2 and "no such folder" in missing.stderr
    assert render("--bogus", check=False).returncode == 2
    assert render("--help", check=False).returncode == 0


def test_the_index_says_when_results_are_newer_than_the_recorded_check():
    from perflab_site import pages
    check = {"result": "passed", "scope": "quick, every study", "date": "2026-12-02T11:37:53Z",
             "commit": "b0ee5123b216a503", "host": "a host"}
    later = pages.index_html([], check, "", newest_results="2026-12-05T02:10:00Z")
    assert 'class="check stale"' in later and "were not checked" in later
    earlier = pages.index_html([], check, "", newest_results="2026-12-01T00:00:00Z")
    assert 'class="check pass"' in earlier and "were not checked" not in earlier
