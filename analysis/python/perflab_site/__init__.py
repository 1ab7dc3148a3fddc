"""The one renderer of perflab's results: from a results folder's CSV files, summaries and `.meta` records
(written by the C++ harness, which writes data only) it draws every figure (svg.py, one SVG file per
plot), writes the site (results/index.html, results/<study>.html) and results/README.md, and gives the
text `perflab reproduce` prints. What is particular to a study is its scenarios/<study>/page.py (its
headline, report tables and plots; pages.py says what it may define). Entry point:
analysis/python/render.py."""
import shutil
from pathlib import Path

from . import data, pages, readme

ASSETS = Path(__file__).resolve().parent / "assets"


def studies_in(results: Path, scenarios_dir: Path) -> list:
    return [pages.StudySite(results, scenarios_dir, d.name) for d in sorted(results.iterdir())
            if d.is_dir() and any(d.glob("*.summary.csv"))]


def build(results: Path, scenarios_dir: Path, studies: list = None) -> list:
    """Writes the figures, the site and README.md under `results`; returns the files written."""
    studies = studies_in(results, scenarios_dir) if studies is None else studies
    history = (results / "history.html").exists()  # written by `perflab history`
    nav = " ".join(["<a href=\"index.html\">index</a>"] +
                   [f"<a href=\"{s.study}.html\">{s.study}</a>" for s in studies] +
                   (["<a href=\"history.html\">history</a>"] if history else []))
    written = []
    for asset in sorted(ASSETS.iterdir()):
        shutil.copyfile(asset, results / asset.name)
        written.append(results / asset.name)
    svgs_of = {}
    for site in studies:
        html, svgs = site.html(nav)
        for old in (results / site.study).glob("*.svg"):
            old.unlink()
        for old in (results / site.study).glob("*.png"):  # matplotlib's, before the figures were SVG only
            old.unlink()
        for name, picture in svgs:
            path = results / site.study / name
            path.write_text(picture)
            written.append(path)
        svgs_of[site.study] = svgs
        (results / f"{site.study}.html").write_text(html)
        written.append(results / f"{site.study}.html")
    check = data.read_key_values(results / "check.txt")
    newest = max((s.meta.get("date", "") for site in studies for s in site.scenarios), default="")
    (results / "index.html").write_text(pages.index_html(studies, check, nav, history, newest))
    written.append(results / "index.html")
    written.append(readme.write(results, studies, svgs_of))
    return written
