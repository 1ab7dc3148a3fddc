"""sim/ is in wings, each its own library linked downward only (sim/CMakeLists.txt): every #include of a
sim/ header from a wing names its own wing or one its LINKS reach, no wing includes a study (scenarios/,
models/<study>/), and sim/'s top level holds only the build file and the map (sim/README.md)."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
SIM = ROOT / "sim"
# The wings below sim/CMakeLists.txt's, with their own CMakeLists.txt.
BASE = {"sampling": set(), "stats": set()}


def wing_links():
    text = (SIM / "CMakeLists.txt").read_text()
    links = dict(BASE)
    for name, body in re.findall(r"^perflab_wing\((\w+)(.*?)\)\s*$", text, flags=re.M | re.S):
        named = re.search(r"LINKS(.*)", body, flags=re.S).group(1).split()
        links[name] = {n[len("perflab_"):] for n in named if n.startswith("perflab_")}
    return links


def reach(links, wing):
    seen, todo = set(), [wing]
    while todo:
        for below in links[todo.pop()]:
            if below not in seen:
                seen.add(below)
                todo.append(below)
    return seen | {wing}


def sources():
    for path in sorted(SIM.rglob("*")):
        if path.suffix in (".h", ".cpp"):
            yield path


def test_every_wing_is_a_library_in_order():
    links = wing_links()
    folders = {p.name for p in SIM.iterdir() if p.is_dir()}
    assert folders == set(links), "each sim/ folder is one wing of sim/CMakeLists.txt (or sampling/, stats/)"
    order = list(links)
    for wing, below in links.items():
        for b in below:
            assert order.index(b) < order.index(wing), f"{wing} links {b}, which is added after it"


def test_includes_point_downward_only():
    links = wing_links()
    upward = []
    for path in sources():
        wing = path.relative_to(SIM).parts[0]
        allowed = reach(links, wing)
        for target in re.findall(r'#include "sim/(\w+)/', path.read_text()):
            if target not in allowed:
                upward.append(f"{path.relative_to(ROOT)} includes sim/{target}/ (allowed: {sorted(allowed)})")
    assert not upward, "\n".join(upward)


def test_the_harness_names_no_study():
    studies = {p.name for p in (ROOT / "scenarios").iterdir() if p.is_dir()}
    found = []
    for path in sources():
        for target in re.findall(r'#include "((?:scenarios|models)/\w+)/', path.read_text()):
            if target.startswith("scenarios/") or target.split("/")[1] in studies:
                found.append(f"{path.relative_to(ROOT)} includes {target}/")
    assert not found, "\n".join(found)


def test_top_level_is_a_map():
    assert sorted(p.name for p in SIM.iterdir() if p.is_file()) == ["CMakeLists.txt", "README.md"]
    readme = (SIM / "README.md").read_text()
    for wing in wing_links():
        assert f"`{wing}/`" in readme, f"sim/README.md says what {wing}/ is for"
