"""results/README.md: every study's headline results on one page a person reads without running anything.
Per scenario: its run record (<name>.meta), its report or summary (pages.StudySite.markdown: the same
markdown the site shows and `perflab reproduce` prints) and its figures, the SVG files the site draws."""
from pathlib import Path

INTRO = ("# perflab results\n\n"
         "Written by `perflab reproduce` (`scripts/reproduce`) through `analysis/python/render.py`; `perflab check` "
         "compares fresh runs with the CSV files here. Each study: what was run, the headline table beside the "
         "seed's published numbers (`scenarios/<study>/reference.csv`), the plots, the ratios and what matches "
         "and what does not. Intervals are written `mean [low, high]`: the 95% Student-t interval over seeds.\n\n")


def run_record(meta: dict) -> str:
    """The line saying what was run, how long it took, where and from which commit."""
    if not meta:
        return ("(No run record: these results come from a run made before `perflab reproduce` kept one; "
                "`perflab reproduce --full` rewrites them.)\n\n")
    host = meta.get("host", meta.get("machine", ""))
    commit = meta.get("commit", "")[:12]
    ran = f"interrupted: {meta['interrupted']}" if "interrupted" in meta else f"{meta.get('runs', '')} runs"
    changes = " with uncommitted changes" if meta.get("dirty") == "true" else ""
    return (f"Scenario `scenarios/{meta.get('file', '')}`, {meta.get('engine', '')} engine, {meta.get('seeds', '')} "
            f"seed(s), {ran} in {meta.get('wall_s', '')} s on {host} ({meta.get('date', '')})"
            + (f", commit `{commit}`{changes}" if commit else "") + ".\n\n")


def figures_of(name: str, svgs: list) -> list:
    """The file names of scenario `name`'s plots among the site's SVG files (not validate's scatters)."""
    return [f for f, _ in svgs if f.startswith(name + ".") and not f.endswith(".validate.svg")]


def write(results: Path, studies: list, svgs_of: dict) -> Path:
    """Writes results/README.md from the studies' sites; svgs_of: study -> [(svg file name, text)]."""
    out = [INTRO]
    for site in studies:
        out.append(f"## {site.study}\n\n" + (f"{site.description}\n\n" if site.description else ""))
        for s in site.scenarios:
            out.append(f"### {s.name}\n\n{run_record(s.meta)}{site.markdown(s)}\n")
            out += [f"![{f[:-len('.svg')]}]({site.study}/{f})\n\n" for f in figures_of(s.name, svgs_of[site.study])]
    path = results / "README.md"
    path.write_text("".join(out))
    return path


def terminal(studies: list, names: list) -> str:
    """What `perflab reproduce` prints for the scenarios it ran: each one's report or summary."""
    out = []
    for site in studies:
        for s in site.scenarios:
            if s.name in names:
                out.append(f"## {s.name}\n\n{site.markdown(s)}")
    return "\n".join(out)

