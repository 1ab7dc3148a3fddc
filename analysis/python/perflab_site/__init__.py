"""The results site (results/index.html, results/<study>.html, results/<study>/*.svg), built from the
committed CSV files. `perflab reproduce` (and `reproduce --readme-only`) runs build_site.py, which calls
build(); see pages.py for what a page shows."""
import shutil
from pathlib import Path

from . import data, pages

ASSETS = Path(__file__).resolve().parent / "assets"


def build(results: Path, scenarios_dir: Path) -> list:
    """Writes the site under `results`; returns the files written."""
    studies = [pages.StudySite(results, scenarios_dir, d.name) for d in sorted(results.iterdir())
               if d.is_dir() and any(d.glob("*.summary.csv"))]
    history = (results / "history.html").exists()  # written by `perflab history`
    nav = " ".join(["<a href=\"index.html\">index</a>"] +
                   [f"<a href=\"{s.study}.html\">{s.study}</a>" for s in studies] +
                   (["<a href=\"history.html\">history</a>"] if history else []))
    written = []
    for asset in sorted(ASSETS.iterdir()):
        shutil.copyfile(asset, results / asset.name)
        written.append(results / asset.name)
    for site in studies:
        html, svgs = site.html(nav)
        for old in (results / site.study).glob("*.svg"):
            old.unlink()
        for name, picture in svgs:
            path = results / site.study / name
            path.write_text(picture)
            written.append(path)
        (results / f"{site.study}.html").write_text(html)
        written.append(results / f"{site.study}.html")
    check = data.read_key_values(results / "check.txt")
    (results / "index.html").write_text(pages.index_html(studies, check, nav, history))
    written.append(results / "index.html")
    return written
