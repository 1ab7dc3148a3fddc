"""`perflab history`'s Python half (sim/cli/history_command.cpp runs analysis/python/history.py):

- figures(): each study's headline figure at every commit that changed the summary its headline reads
  (page.py's HEADLINE), computed by the same headline() the front page uses (pages.study_headline) on
  that commit's file, read with `git cat-file --batch` (one git process per study);
- page(): results/history.html from the CSV the C++ command wrote (results/history.csv, with the steps
  and change points marked): one chart per headline, every commit's subject on hover and in a table.
"""
import csv
import subprocess
import sys
import tempfile
import tomllib
from html import escape
from pathlib import Path

import pandas as pd

from study_scripts import load_study_script

from . import data, pages, svg

FIGURE_COLUMNS = ["study", "scenario", "engine", "figure", "seed", "commit", "date", "subject", "value", "note"]


def git(cwd: Path, *args, stdin: bytes = None) -> bytes:
    return subprocess.run(["git", *args], cwd=cwd, input=stdin, stdout=subprocess.PIPE, check=True).stdout


def engine(scenarios_dir: Path, study: str, scenario: str) -> str:
    """The engine ("sim", "micro", "real") of the shipped scenario named `scenario`."""
    for path in sorted((scenarios_dir / study).glob("*.toml")):
        table = tomllib.loads(path.read_text()).get("scenario", {})
        if table.get("name") == scenario:
            return table.get("engine", "sim")
    return "sim"


def blobs(top: Path, specs: list) -> list:
    """The contents of `commit:path` for each spec (None where the commit has no such file)."""
    out = git(top, "cat-file", "--batch", stdin="".join(f"{s}\n" for s in specs).encode())
    contents, at = [], 0
    for _ in specs:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        if len(header) == 3 and header[1] == b"blob":
            size = int(header[2])
            contents.append(out[end + 1:end + 1 + size])
            at = end + 1 + size + 1
        else:  # "<spec> missing" (a deleted file) or not a blob
            contents.append(None)
            at = end + 1
    return contents


def one_line(text: str) -> str:
    return " ".join(text.split())


def figures(results: Path, scenarios_dir: Path, studies: list) -> list:
    """Rows (FIGURE_COLUMNS) of each study's headline figure, oldest commit first."""
    top = Path(git(results, "rev-parse", "--show-toplevel").decode().strip())
    prefix = git(results, "rev-parse", "--show-prefix").decode().strip()
    rows = []
    for study in studies:
        module = load_study_script(scenarios_dir, study, "page.py")
        scenario = getattr(module, "HEADLINE", None)
        if scenario is None:
            print(f"history: {study}: scenarios/{study}/page.py names no HEADLINE scenario, skipped",
                  file=sys.stderr)
            continue
        path = f"{prefix}{study}/{scenario}.summary.csv"
        log = git(top, "log", "--reverse", "--format=%H%x1f%cI%x1f%s", "--", path).decode().splitlines()
        commits = [line.split("\x1f", 2) for line in log]
        reference = data.reference(scenarios_dir, study)[0]
        study_rows = []
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / study
            folder.mkdir()
            for (commit, date, subject), content in zip(commits, blobs(top, [f"{c[0]}:{path}" for c in commits])):
                row = {"study": study, "scenario": scenario, "engine": engine(scenarios_dir, study, scenario),
                       "commit": commit, "date": date, "subject": one_line(subject), "value": "", "note": ""}
                if content is None:
                    row["note"] = f"{path} deleted in this commit"
                else:
                    (folder / f"{scenario}.summary.csv").write_bytes(content)
                    head = pages.study_headline(module, folder, reference)
                    if "ours" in head:
                        row.update(value=repr(float(head["ours"])), figure=head.get("ratio", ""),
                                   seed=repr(float(head["seed"])) if "seed" in head else "")
                    else:
                        row["note"] = one_line(head.get("finding", "no headline figure"))
                study_rows.append(row)
        named = [r for r in study_rows if r.get("figure")]
        for r in study_rows:  # a skipped commit still names the figure it could not compute
            r.setdefault("figure", named[-1]["figure"] if named else "")
            r.setdefault("seed", named[-1]["seed"] if named else "")
        rows += study_rows
    return rows


def write_figures(rows: list, out: Path) -> None:
    with open(out, "w", newline="") as f:
        writer = csv.DictWriter(f, FIGURE_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


# --- results/history.html -------------------------------------------------------------------------------

def chart(title: str, frame: pd.DataFrame) -> str:
    """The figure per commit (x: the commits in order), a step line between them, the seed's value dashed,
    change points and steps as red marks; every point's tooltip names its commit."""
    valued = frame[frame["value"].notna()].reset_index(drop=True)
    seed = frame["seed"].dropna()
    ys = list(valued["value"]) + ([seed.iloc[0]] if len(seed) else [])
    xa = svg.Axis([], svg.ML, svg.W - svg.MR, categories=list(range(len(valued))) or [0])
    ya = svg.Axis(ys or [0, 1], svg.H - svg.MB, svg.MT, log=svg.wants_log(ys) and all(v > 0 for v in ys))
    out = svg.frame(title, ya)
    out.append(f'<text x="{svg.ML}" y="20" font-size="13" font-weight="bold">{escape(title)}</text>')
    if len(seed):
        y = ya.pos(seed.iloc[0])
        out.append(f'<path d="M{svg.ML},{y:.1f}H{svg.W - svg.MR}" stroke="#000" stroke-dasharray="4 3"/>'
                   f'<text x="{svg.W - svg.MR + 6}" y="{y + 4:.1f}">the seed\'s {svg.fmt(seed.iloc[0])}</text>')
    points = [(xa.pos(i), ya.pos(r["value"]), r) for i, r in valued.iterrows()]
    if len(points) > 1:
        path = "M" + " H".join(f"{x:.1f},{y:.1f}" if k == 0 else f"{x:.1f} V{y:.1f}"
                               for k, (x, y, _) in enumerate(points))
        out.append(f'<path d="{path}" fill="none" stroke="{svg.COLORS[0]}" stroke-width="1.5"/>')
    for x, y, r in points:
        marked = isinstance(r["change"], str) and r["change"] != ""
        if marked:
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{svg.MT}" y2="{svg.H - svg.MB}" stroke="#d62728" '
                       f'stroke-dasharray="3 2"/>')
        tip = f"{r['commit'][:12]} {r['date'][:10]}: {svg.fmt(r['value'])}" + (
            f" ({r['change']})" if marked else "") + f" — {r['subject']}"
        out.append(f'<circle class="point" cx="{x:.1f}" cy="{y:.1f}" r="4.5" '
                   f'fill="{"#d62728" if marked else svg.COLORS[0]}" stroke="#fff"><title>{escape(tip)}</title></circle>')
    every = max(1, len(points) // 16)  # label at most ~16 commits with their date
    for k, (x, _, r) in enumerate(points):
        if k % every == 0 or k == len(points) - 1:
            y = svg.H - svg.MB + 12
            out.append(f'<text x="{x:.1f}" y="{y}" text-anchor="end" font-size="10" '
                       f'transform="rotate(-40 {x:.1f} {y})">{escape(r["commit"][:7])} {escape(r["date"][5:10])}</text>')
    out.append(f'<text x="{svg.W - svg.MR + 6}" y="{svg.H - svg.MB}" fill="#d62728" font-size="10">red: '
               f'{"a change point" if frame["engine"].iloc[0] == "micro" else "the figure moved"}</text>')
    out.append("</svg>")
    return "\n".join(out)


def change_text(row) -> str:
    if not isinstance(row["change"], str) or not row["change"]:
        return ""
    text = f"{row['change']}: {svg.fmt(row['before'])} → {svg.fmt(row['after'])}"
    if row["pvalue"] == row["pvalue"]:
        text += f" (p = {row['pvalue']:.2g})"
    return text


def page(history_csv: Path, out: Path) -> None:
    frame = pd.read_csv(history_csv, dtype={"commit": str, "note": str, "change": str, "subject": str})
    studies = list(dict.fromkeys(frame["study"]))
    nav = " ".join(["<a href=\"index.html\">index</a>"] + [f"<a href=\"{s}.html\">{s}</a>" for s in studies] +
                   ["<a href=\"history.html\">history</a>"])
    body = ["<h1>perflab results: history</h1>",
            "<p>Each study's headline figure (the front page's ratio) at every commit that changed the summary it "
            "is computed from, read from git by <code>perflab history</code>. A simulated figure is "
            "deterministic: every move is a step, marked. A micro-engine figure is a timing on whatever machine "
            "ran it, so only change points are marked: E-divisive means with a t-test, as Hunter and Apache "
            "Otava find them (p ≤ 0.001 after a correction for the choice of the split, at least 3 commits on "
            "each side; <code>sim/stats/change_points.h</code>). "
            "Data: <a href=\"history.csv\">history.csv</a>.</p>"]
    for study, rows in frame.groupby("study", sort=False):
        rows = rows.reset_index(drop=True)
        title = f"{study}: {rows['figure'].dropna().iloc[-1] if rows['figure'].notna().any() else 'headline'}"
        body.append(f"<h2 id=\"{escape(study)}\"><a href=\"{escape(study)}.html\">{escape(study)}</a>: "
                    f"{escape(title[len(study) + 2:])} ({escape(rows['engine'].iloc[0])} engine)</h2>")
        body.append(f"<figure>{chart(title, rows)}<figcaption>x: the commits that changed "
                    f"results/{escape(study)}/{escape(rows['scenario'].iloc[0])}.summary.csv, oldest first "
                    "(hover a point for its commit)</figcaption></figure>")
        table_rows = [[f"<code>{escape(r['commit'][:12])}</code>", escape(str(r["date"])[:10]),
                       escape(svg.fmt(r["value"])) if r["value"] == r["value"] else "—",
                       escape(change_text(r)), escape(r["subject"]) +
                       (f" <span class=\"note\">({escape(r['note'])})</span>" if isinstance(r["note"], str) else "")]
                      for _, r in rows.iloc[::-1].iterrows()]
        body.append("<details><summary>every commit, newest first</summary>" +
                    pages.table(["commit", "date", "figure", "moved", "subject"], table_rows, 2) + "</details>")
    out.write_text(pages.page("perflab results: history", "\n".join(body), nav))
