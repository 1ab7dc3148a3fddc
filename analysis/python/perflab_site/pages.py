"""What the renderer knows of one study (StudySite: its scenarios, its page.py, its plots and reports) and
the results site's HTML: results/index.html (every study's finding, headline ratio beside the seed's,
provenance, the last `perflab check`) and results/<study>.html (each scenario's tables, plots, parameters,
run record and files). What is study-specific (the headline, each scenario's report tables, which plots,
how reference.csv maps onto a scenario's columns) comes from scenarios/<study>/page.py when the study has
one; everything else is read from the committed files, so a new study gets a page with no change here."""
import math
import os
import re
from html import escape
from pathlib import Path

import markdown
import pandas as pd

from study_scripts import load_study_script

from . import data, svg, text, validation

PROVENANCE = ["commit", "dirty", "date", "host", "machine", "compiler", "simgrid", "perflab", "command"]


def page(title: str, body: str, nav: str) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><link rel=\"icon\" href=\"data:,\">"
            "<link rel=\"stylesheet\" href=\"site.css\"></head>\n<body>\n"
            f"<nav>{nav}</nav>\n<main>\n{body}\n</main>\n<div id=\"tip\" role=\"tooltip\"></div>\n"
            "<script src=\"site.js\"></script>\n</body></html>\n")


NUMBER = re.compile(r"^[-+]?[\d.,]+(e[-+]?\d+)?( \S{1,4})?( <span.*)?$")


def table(header: list, rows: list, numeric_from: int = 1) -> str:
    """An HTML table; cells at or after column `numeric_from` that read as numbers are right-aligned."""
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(
        ("<td class=\"num\">" if i >= numeric_from and NUMBER.match(str(cell)) else "<td>") + f"{cell}</td>"
        for i, cell in enumerate(row)) + "</tr>\n" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>\n{body}</tbody></table>"


def md(text: str) -> str:
    return markdown.markdown(text, extensions=["tables"])


def value_text(value) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return svg.fmt(value) if isinstance(value, float) else str(value)


def interval(row, metric) -> str:
    mean = row.get(f"{metric}_mean")
    low, high = row.get(f"{metric}_ci95_low"), row.get(f"{metric}_ci95_high")
    if mean is None or (isinstance(mean, float) and math.isnan(mean)):
        return "n/a"
    if low is None or math.isnan(low) or low == high:
        return escape(svg.fmt(mean))
    return f"{escape(svg.fmt(mean))} <span class=\"ci\">[{escape(svg.fmt(low))}, {escape(svg.fmt(high))}]</span>"


def python_value(value):
    if hasattr(value, "item"):
        value = value.item()
    return value


def study_headline(module, study_dir: Path, reference) -> dict:
    """What scenarios/<study>/page.py's headline() makes of a folder of the study's results: the finding,
    the headline ratio's name, ours and the seed's; {} for a study without one. The index and
    `perflab history` (history.py, on each commit's results) both read it here."""
    if module is None or not hasattr(module, "headline"):
        return {}
    try:
        return module.headline(study_dir, reference) or {}
    except (KeyError, IndexError, ValueError, TypeError, FileNotFoundError) as e:  # results reshaped: say so
        return {"finding": f"(headline not computable from the committed results: {type(e).__name__} {e})"}


class StudySite:
    def __init__(self, results: Path, scenarios_dir: Path, study: str):
        self.results, self.study = results, study
        # links to scenario files: "../scenarios" beside the committed results/, further from out/reproduce/
        self.scenarios_href = os.path.relpath(scenarios_dir, results).replace(os.sep, "/")
        self.scenarios = data.load_study(results / study)
        self.reference, self.reference_notes = data.reference(scenarios_dir, study)
        self.module = load_study_script(scenarios_dir, study, "page.py")
        self.plots_spec = getattr(self.module, "PLOTS", {})
        self.reference_spec = getattr(self.module, "REFERENCE", {})
        self.units = data.units(study)
        self.description = data.description(study)
        self._reports = {}

    # --- the index's line -------------------------------------------------------------------------
    def headline(self) -> dict:
        return study_headline(self.module, self.results / self.study, self.reference)

    def provenance(self) -> dict:
        values = {}
        for s in self.scenarios:
            for key in PROVENANCE:
                if key in s.meta:
                    values.setdefault(key, set()).add(s.meta[key])
        return {k: sorted(v) for k, v in values.items()}

    # --- each scenario's markdown: its report, or its summary -----------------------------------------
    def report(self, s: data.Scenario) -> str:
        """The markdown page.py's report(scenario, reference) makes of scenario s: its tables beside the
        seed's numbers, ratios and fits; "" when the study has none for it."""
        if s.name not in self._reports:
            made = ""
            if self.module is not None and hasattr(self.module, "report"):
                made = self.module.report(s, self.reference) or ""
            self._reports[s.name] = made
        return self._reports[s.name]

    def summary(self, s: data.Scenario) -> str:
        """Scenario s's summary as markdown: each grid point's varying columns and every metric's mean
        with its 95% interval (text.auto_interval)."""
        table = text.Table(s.varying + s.metrics, "l" * len(s.varying) + "r" * len(s.metrics))
        for point in s.points():
            cells = [self.show(c, point[c]) for c in s.varying]
            for metric in s.metrics:
                values = s.values(point, metric) if not s.seeds.empty else []
                if not values and not pd.isna(point.get(f"{metric}_mean")):
                    values = [float(point[f"{metric}_mean"])]
                cells.append(text.auto_interval(text.summary_of(values)) if values else "—")
            table.add(cells)
        note = "Values are mean [95% Student-t interval] over seeds.\n\n" if int(s.meta.get("seeds", 1)) > 1 else ""
        return note + str(table)

    def markdown(self, s: data.Scenario) -> str:
        return self.report(s) or self.summary(s)

    # --- plots --------------------------------------------------------------------------------------
    def default_plots(self, s: data.Scenario) -> list:
        varying = s.varying
        if not varying:
            return []
        numeric = [c for c in varying if c != "case" and pd.api.types.is_numeric_dtype(s.summary[c])]
        x = max(numeric, key=lambda c: s.summary[c].nunique()) if numeric else (
            "case" if "case" in varying else varying[0])
        moving = [m for m in s.metrics if s.summary[f"{m}_mean"].nunique() > 1]
        return [{"x": x, "metrics": moving[:2]}]

    def seed_values(self, s: data.Scenario, metric: str) -> dict:
        """grid point (its varying columns as text) -> [(which, value)]: every seed's value, or for a
        one-seed micro-engine point every timed repetition's."""
        out = {}
        for rows, which in ((s.seeds, "seed"), (s.repetitions, "repetition")):
            if rows.empty or metric not in rows or which not in rows:
                continue
            if "error" in rows:
                rows = rows[rows["error"].isna() | (rows["error"].astype(str) == "")]
            cols = [c for c in s.varying if c in rows]
            found = {}
            for _, row in rows.iterrows():
                if not pd.isna(row[metric]):
                    key = tuple(str(row[c]) for c in cols)
                    found.setdefault(key, []).append((f"{which} {int(row[which])}", float(row[metric])))
            out = {k: v for k, v in found.items() if len(v) > 1} or out
        return out

    def reference_rows(self, spec: dict) -> pd.DataFrame:
        """The reference rows a scenario's spec draws on: all, or those its "rows" filter keeps."""
        ref = self.reference
        for column, value in spec.get("rows", {}).items():
            ref = ref[ref[column].astype(str) == str(value)]
        return ref

    def reference_points(self, s: data.Scenario, metric: str, x: str, where: dict) -> list:
        spec = self.reference_spec.get(s.name)
        if spec is None or self.reference is None or x not in spec["match"]:
            return []
        mapped = spec["metrics"].get(metric, [])
        mapped = [(mapped, {})] if isinstance(mapped, str) else mapped
        points = []
        for ref_col, ours in mapped:
            if any(where.get(k, v) != v for k, v in ours.items()):
                continue
            for _, r in self.reference_rows(spec).iterrows():
                value = pd.to_numeric(r.get(ref_col), errors="coerce")
                if pd.isna(value):
                    continue
                if any(c in where and str(where[c]) != str(r[rc]) for c, rc in spec["match"].items()):
                    continue
                which = ", ".join(f"{k} = {v}" for k, v in ours.items())
                points.append({"x": python_value(r[spec["match"][x]]), "y": float(value),
                               "tip": f"seed's published {ref_col} at {x} = {r[spec['match'][x]]}"
                                      f"{' (' + which + ')' if which else ''}: {svg.fmt(float(value))}"})
        return points

    def show(self, column, value) -> str:
        value = python_value(value)
        return svg.human(value, self.units[column]) if column in self.units else value_text(value)

    def draw(self, s: data.Scenario) -> list:
        """(file name, SVG text) of every plot of scenario s: page.py's PLOTS (or a default plot), then
        what page.py's figures(scenario) draws itself with svg.plot (file names starting "<name>.")."""
        out = []
        for spec in self.plots_spec.get(s.name, self.default_plots(s)):
            x, facet_cols = spec["x"], spec.get("facet", [])
            frame = s.summary
            for col, value in spec.get("where", {}).items():
                frame = frame[frame[col].astype(str) == str(value)]
            facets = [()] if not facet_cols else list(
                dict.fromkeys(tuple(r) for r in frame[facet_cols].itertuples(index=False)))
            series_cols = [c for c in s.series_columns(x, facet_cols) if c not in spec.get("where", {})]
            for metric in spec["metrics"]:
                seeds = self.seed_values(s, metric)
                for facet in facets:
                    part = frame
                    for col, value in zip(facet_cols, facet):
                        part = part[part[col] == value]
                    where = dict(spec.get("where", {}), **dict(zip(facet_cols, facet)))
                    series = []
                    by = series_cols[0] if len(series_cols) == 1 else series_cols
                    groups = part.groupby(by, sort=False) if series_cols else [((), part)]
                    for key, rows in groups:
                        key = key if isinstance(key, tuple) else (key,)
                        label = ", ".join(self.show(c, k) if len(series_cols) == 1 else
                                          f"{c}={self.show(c, k)}" for c, k in zip(series_cols, key))
                        if numeric_x := pd.api.types.is_numeric_dtype(rows[x]):
                            rows = rows.sort_values(x)
                        points = []
                        for _, r in rows.iterrows():
                            seed_key = tuple(str(r[c]) for c in s.varying)
                            xv = python_value(r[x]) if numeric_x else str(r[x])
                            h = lambda v: svg.human(v, self.units.get(metric))  # noqa: E731
                            tip = (f"{label + ' · ' if label else ''}{x} = {svg.human(xv, self.units.get(x))}: "
                                   f"{metric} mean {h(r[f'{metric}_mean'])}, 95% CI [{h(r[f'{metric}_ci95_low'])}, "
                                   f"{h(r[f'{metric}_ci95_high'])}], min {h(r[f'{metric}_min'])}, "
                                   f"max {h(r[f'{metric}_max'])}, {int(r['runs'])} run(s)")
                            points.append({"x": xv, "mean": float(r[f"{metric}_mean"]),
                                           "low": float(r[f"{metric}_ci95_low"]),
                                           "high": float(r[f"{metric}_ci95_high"]), "tip": tip,
                                           "seeds": seeds.get(seed_key, [])})
                        series.append({"label": label or s.name, "points": points})
                    facet_text = ", ".join(f"{c} = {self.show(c, v)}" for c, v in zip(facet_cols, facet))
                    title = metric + (f" — {facet_text}" if facet_text else "")
                    picture = svg.plot(title, x, metric, series,
                                       self.reference_points(s, metric, x, where),
                                       spec.get("logx"), spec.get("logy"), self.units.get(x),
                                       self.units.get(metric))
                    suffix = "-".join(re.sub(r"[^A-Za-z0-9.]+", "_", self.show(c, v))
                                      for c, v in zip(facet_cols, facet))
                    out.append((f"{s.name}.{metric}{'.' + suffix if suffix else ''}.svg", picture))
        if self.module is not None and hasattr(self.module, "figures"):  # a study's own figures (svg.plot)
            out += self.module.figures(s)
        return out

    # --- tables -------------------------------------------------------------------------------------
    def beside_table(self, s: data.Scenario) -> str:
        spec = self.reference_spec.get(s.name)
        if spec is None or self.reference is None or not spec.get("table", True):
            return ""
        cols = [c for c in s.varying if c in spec["match"]] + [
            c for c in s.series_columns(next(iter(spec["match"])), []) if c not in spec["match"]]
        header, rows = list(cols), []
        mapped = {m: ([(v, {})] if isinstance(v, str) else v) for m, v in spec["metrics"].items()
                  if f"{m}_mean" in s.summary}
        for metric in mapped:
            header += [f"{metric} (perflab)", f"{metric} (seed)"]
        for _, r in s.summary.iterrows():
            row = [escape(value_text(python_value(r[c]))) for c in cols]
            ref = self.reference_rows(spec)
            for ours, theirs in spec["match"].items():
                ref = ref[ref[theirs].astype(str) == str(r[ours])]
            for metric, choices in mapped.items():
                seed = ""
                for ref_col, filt in choices:
                    if all(str(r[k]) == str(v) for k, v in filt.items()) and not ref.empty:
                        value = ref.iloc[0].get(ref_col)
                        seed = "" if pd.isna(value) else escape(value_text(python_value(value)))
                row += [interval(r, metric), seed]
            rows.append(row)
        return ("<h3>Beside the seed's published numbers</h3>\n<p class=\"note\">mean [95% interval over "
                "seeds]; the seed's number where it published one for that point.</p>\n" +
                table(header, rows, numeric_from=len(cols)))

    def scenario_section(self, s: data.Scenario, svgs: list) -> str:
        meta = s.meta
        out = [f"<section id=\"{escape(s.name)}\"><h2>{escape(s.name)}</h2>"]
        if meta.get("description"):
            out.append(f"<p class=\"description\">{escape(meta['description'])}</p>")
        if meta:
            out.append("<p class=\"runinfo\">" + escape(
                f"scenarios/{meta.get('file', '?')}, {meta.get('engine', '?')} engine, {meta.get('seeds', '?')} "
                f"seed(s), " + (f"interrupted: {meta['interrupted']}" if meta.get("interrupted")
                                else f"{meta.get('runs', '?')} runs") + f" in {meta.get('wall_s', '?')} s") + "</p>")
        else:
            out.append("<p class=\"runinfo\">No run record (these results predate <code>perflab reproduce</code> "
                       "keeping one; <code>perflab reproduce --full</code> rewrites them).</p>")
        out.append(self.beside_table(s))
        out.append(f"<h3>{'Report' if self.report(s) else 'Summary'}</h3>\n"
                   f"<div class=\"report\">{md(self.markdown(s))}</div>")
        if svgs:
            out.append("<h3>Plots</h3>\n<div class=\"plots\">")
            for name, picture in svgs:
                body = picture.split("\n", 1)[1] if picture.startswith("<?xml") else picture
                out.append(f"<figure>{body}<figcaption><a href=\"{self.study}/{name}\">{escape(name)}</a>"
                           "</figcaption></figure>")
            out.append("</div>")
        fixed = s.fixed
        if fixed:
            def shown(v):  # -1 or empty: a knob left to the study's own default (is_unset_label, params.h)
                text = value_text(python_value(v))
                return "(the study's default)" if text in ("", "-1", "nan") else text
            out.append("<details><summary>Parameters of the run (the same at every point)</summary>" +
                       table(["parameter", "value"], [[escape(k), escape(shown(v))] for k, v in fixed.items()], 2) +
                       "</details>")
        if s.varying:
            out.append("<p class=\"note\">Swept: " + ", ".join(
                f"<code>{escape(c)}</code> ({s.summary[c].nunique()} values)" for c in s.varying) + "</p>")
        if meta:
            out.append("<details><summary>Run record (<code>" + escape(s.name) + ".meta</code>)</summary>" +
                       table(["key", "value"], [[escape(k), escape(v)] for k, v in meta.items()], 2) +
                       "</details>")
        links = [f"<a href=\"{escape(path)}\">{escape(label)}</a>" for label, path in s.files()]
        if meta.get("file"):
            links.append(f"<a href=\"{self.scenarios_href}/{escape(meta['file'])}\">scenario file</a>")
        out.append("<p class=\"files\">Files: " + " · ".join(links) + "</p>")
        for timeline in s.timelines():
            out.append(f"<p class=\"files\">Timeline: <a href=\"{escape(timeline)}\">{escape(timeline)}</a> "
                       "(a Chrome trace: open <code>https://ui.perfetto.dev</code>, choose “Open trace "
                       "file” and pick this file; Perfetto reads it in the browser, nothing is uploaded).</p>")
        out.append("</section>")
        return "\n".join(out)

    def validation_section(self, path: Path) -> tuple:
        """`perflab validate`'s result for one scenario (<name>.validate.csv and .md): per metric a scatter
        of the real median against the sim with the diagonal, then the error table and verdict."""
        name = path.name[: -len(".validate.csv")]
        frame = pd.read_csv(path)
        keys = list(frame.columns[: list(frame.columns).index("metric")])
        varying = [k for k in keys if frame[k].nunique(dropna=False) > 1]
        out = [f"<section id=\"{escape(name)}-validate\"><h2>Sim against real: {escape(name)}</h2>"]
        svgs = []
        for metric, rows in frame.groupby("metric", sort=False):
            points = [{"x": r["sim"], "y": r["real_median"], "low": r["real_low"], "high": r["real_high"],
                       "tip": ", ".join(f"{k} = {r[k]}" for k in varying) +
                              f": sim {svg.fmt(r['sim'])}, real {svg.fmt(r['real_median'])} "
                              f"(ln {r['log_error']:+.3f})"} for _, r in rows.iterrows()]
            file = f"{name}.{metric}.validate.svg"
            picture = svg.scatter_diagonal(f"{name}: {metric}", f"sim {metric}", f"real {metric} (median)", points)
            svgs.append((file, picture))
            out.append(f"<div class=\"plots\"><figure>{picture}<figcaption><a href=\"{self.study}/{file}\">"
                       f"{escape(file)}</a></figcaption></figure></div>")
        report = path.with_name(name + ".validate.md")
        if report.exists():
            pairs = validation.judged_pairs(validation.read_run(report))
            if pairs:
                out.append("<p>The ratios this report judges, per group: the sim's, the real medians', and the "
                           "range the two points' real 95% intervals allow.</p>")
            for top, bottom, metric in pairs:
                out.append(f"<h3>{escape(top)} ÷ {escape(bottom)} ({escape(metric)})</h3>")
                out.append(md(validation.pair_ratios([report], top, bottom, "", metric)))
            out.append(f"<div class=\"report\">{md(report.read_text())}</div>")
        out.append(f"<p class=\"note\"><a href=\"{escape(self.study)}/{escape(path.name)}\">every point (CSV)</a>"
                   " · regenerate with <code>perflab validate " + escape(self.study) + " --out results/" +
                   escape(self.study) + "</code></p></section>")
        return "\n".join(out), svgs

    def conditions_section(self) -> str:
        """The study's validation runs under stated conditions (results/<study>/validate-conditions/NAME/: one
        busy core, real-time priority...): each run's verdict and worst |ln(real/sim)|, linked to its report."""
        folder = self.results / self.study / "validate-conditions"
        rows = []
        for report in sorted(folder.glob("*/*.validate.md")):
            run = validation.read_run(report)
            href = report.relative_to(self.results).as_posix()
            rows.append([escape(report.parent.name), f"<a href=\"{escape(href)}\">{escape(run.name)}</a>",
                         "held" if run.held else "<b>failed</b>", f"{run.worst_abs_log:.3f}"])
        if not rows:
            return ""
        return ("<section id=\"validate-conditions\"><h2>Sim against real under stated conditions</h2>\n"
                + table(["condition", "run", "verdict", "worst |ln(real/sim)|"], rows, 3) + "</section>")

    def html(self, nav: str) -> tuple:
        """(page HTML, [(svg file name, svg text)])."""
        head = self.headline()
        body = [f"<h1>{escape(self.study)}</h1>"]
        if head.get("finding"):
            body.append(f"<p class=\"finding\">{escape(head['finding'])}</p>")
        if head.get("ratio"):
            body.append(f"<p class=\"ratio\">{escape(head['ratio'])}: perflab <b>{ratio(head['ours'])}</b>"
                        f", the seed <b>{ratio(head['seed'])}</b></p>")
        if self.reference is not None:
            body.append("<h2>The seed's published numbers</h2>\n<p class=\"note\">" + escape(
                " ".join(self.reference_notes)) + f" (<a href=\"{self.scenarios_href}/{self.study}/reference.csv\">"
                "reference.csv</a>)</p>\n" + table(
                list(self.reference.columns),
                [[escape(value_text(python_value(v))) if not pd.isna(v) else "" for v in r]
                 for r in self.reference.itertuples(index=False)], 0))
        toc = " · ".join(f"<a href=\"#{escape(s.name)}\">{escape(s.name)}</a>" for s in self.scenarios)
        body.append(f"<p class=\"toc\">Scenarios: {toc}</p>")
        all_svgs = []
        for s in self.scenarios:
            svgs = self.draw(s)
            all_svgs += svgs
            body.append(self.scenario_section(s, svgs))
        for path in sorted((self.results / self.study).glob("*.validate.csv")):
            section, svgs = self.validation_section(path)
            all_svgs += svgs
            body.append(section)
        conditions = self.conditions_section()
        if conditions:
            body.append(conditions)
        return page(f"perflab: {self.study}", "\n".join(body), nav), all_svgs


def ratio(value) -> str:
    return f"{value:.3g}×" if value < 1000 else f"{value:,.0f}×"


def provenance_text(values: dict) -> str:
    parts = []
    for key in PROVENANCE:
        if key in values and key != "command":
            shown = ", ".join(values[key][-3:])
            parts.append(f"<span class=\"prov\"><b>{key}</b> {escape(shown)}</span>")
    return " ".join(parts) or "no run record"


def ran_cell(values: dict) -> str:
    """The index's provenance: commit and date in sight, the rest (host, compiler, executable's hash) folded."""
    if not values:
        return "no run record"
    commits = ", ".join(c[:12] for c in values.get("commit", []))
    dates = values.get("date", [])
    when = dates[0][:10] if len(dates) == 1 else f"{dates[0][:10]} to {dates[-1][:10]}" if dates else "?"
    dirty = " + changes" if "true" in values.get("dirty", []) else ""
    rest = {k: v for k, v in values.items() if k not in ("commit", "date")}
    return (f"<code>{escape(commits or '?')}</code>{dirty} · {escape(when)}"
            f"<details><summary>record</summary>{provenance_text(rest)}</details>")


def machine_state(meta: dict) -> str:
    """Quiet or loaded, from the load average and probe loop a micro-engine run records before and after
    its repetitions (sim/engines/machine_load.h): loaded when more tasks were runnable than the host has cores."""
    if "load_before" not in meta:
        return "machine load not recorded"
    cores = re.search(r"(\d+) cores", meta.get("host", ""))
    cores = int(cores.group(1)) if cores else 1
    before, after = float(meta["load_before"]), float(meta.get("load_after", meta["load_before"]))
    state = "loaded" if max(before, after) > cores else "quiet"
    return (f"machine {state}: load {before:.1f} → {after:.1f} on {cores} cores, probe loop "
            f"{meta.get('probe_before_ms', '?')} → {meta.get('probe_after_ms', '?')} ms")


def timing_notes(site) -> list:
    """For each micro-engine scenario: how far its timed repetitions spread ((max − min) / median per
    point) and whether the machine was quiet or loaded while they ran."""
    notes = []
    for s in site.scenarios:
        if s.meta.get("engine") != "micro" or s.repetitions.empty:
            continue
        keys = [c for c in s.repetitions.columns if c not in ("repetition", "seconds")]
        seconds = s.repetitions.groupby(keys, dropna=False)["seconds"]
        spread = ((seconds.max() - seconds.min()) / seconds.median()).dropna()
        notes.append(f"{s.name}: repetitions spread {spread.median():.0%} (median of {len(spread)} points, "
                     f"worst {spread.max():.0%}); {machine_state(s.meta)}")
    return notes


def verdict_cell(site) -> str:
    """The study's sim-against-real verdict from its committed reports, linked to its page's validation
    section (the first failed run's, else the first run's)."""
    runs = validation.runs_in(site.results / site.study)
    if not runs:
        return "not validated"
    shown = next((r for r in runs if not r.held), runs[0])
    repeated = [f"; {grid} repeated: {escape(windows)}"
                for grid, _, windows in validation.repeated_verdicts(site.results / site.study)]
    return (f"<a href=\"{escape(site.study)}.html#{escape(shown.name)}-validate\">"
            f"{escape(validation.study_verdict(runs))}</a>" + "".join(repeated))


def quick_summary_note(results: Path) -> str:
    """A link to the all-study --quick summary, with each of its runs' verdicts, when it is committed."""
    folder = results / "validate-quick"
    if not (folder / "validate-summary.md").exists():
        return ""
    runs = "; ".join(f"{r.name} {'held' if r.held else 'failed'}" for r in validation.runs_in(folder))
    return ("<p>Every study's <code>perflab validate --quick</code> in one table: <a href=\"validate-quick/"
            f"validate-summary.md\">validate-quick/validate-summary.md</a> ({escape(runs)}).</p>")


def index_html(studies: list, check: dict, nav: str, history: bool = False, newest_results: str = "") -> str:
    """newest_results: the latest run date among the results' .meta records (ISO 8601, UTC), to tell a
    check recorded before them from one that saw them."""
    body = ["<h1>perflab results</h1>",
            "<p>Each study reruns a famous performance fix on its real implementation, against simulated "
            "networks and the real CPU, beside the numbers its pull request or ticket published. Written by "
            "<code>perflab reproduce</code> from the CSV files in this folder; rebuild with "
            "<code>build/perflab reproduce --readme-only</code> (<code>--update</code> for "
            "<code>results/</code>).</p>"]
    if check:
        passed = check.get("result") == "passed"
        stale = newest_results > check.get("date", "")  # both "YYYY-MM-DDTHH:MM:SSZ"
        scope = check.get("scope", "")
        body.append(f"<p class=\"check {'stale' if stale else 'pass' if passed else 'fail'}\">Last "
                    f"<code>perflab check</code>: <b>{escape(check.get('result', '?'))}</b>" + escape(
                        f" ({scope}) on {check.get('date', '?')}, commit {check.get('commit', '?')[:12]}"
                        f"{' with uncommitted changes' if check.get('dirty') == 'true' else ''}, "
                        f"{check.get('host', check.get('machine', '?'))}") +
                    (escape(f"; results written since (the newest on {newest_results}) were not checked: "
                            "rerun perflab check --record") if stale else "") + "</p>")
    else:
        body.append("<p class=\"check\">No <code>perflab check</code> recorded here "
                    "(<code>perflab check --record</code> writes results/check.txt).</p>")
    rows = []
    for site in studies:
        head = site.headline()
        ours = ratio(head["ours"]) if "ours" in head else "—"
        seed = ratio(head["seed"]) if "seed" in head else "—"
        timing = "".join(f"<p class=\"timing\">{escape(note)}</p>" for note in timing_notes(site))
        rows.append([f"<a href=\"{site.study}.html\">{escape(site.study)}</a>",
                     escape(head.get("finding", "")) + timing,
                     escape(head.get("ratio", "")), ours, seed, verdict_cell(site), ran_cell(site.provenance())])
    body.append(table(["study", "finding", "headline ratio", "perflab", "seed", "sim against real", "ran"], rows, 3)
                .replace("<table>", "<table class=\"index\">", 1))
    if studies:
        body.append(quick_summary_note(studies[0].results))
    if history:
        body.append("<p>When and why each headline ratio moved, commit by commit: <a href=\"history.html\">"
                    "history</a> (<code>build/perflab history</code>).</p>")
    body.append("<p class=\"note\">Hover a point on a study's plots for its value, its 95% interval and "
                "every seed's value. Timelines open in Perfetto (see each study page).</p>")
    return page("perflab results", "\n".join(body), nav)
