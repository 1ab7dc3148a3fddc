"""The README's and every docs/ page's examples run as written: every ```sh block (in a scratch folder whose
build/ and scenarios/ are this tree's, with PERFLAB_RESULTS on a copy of results/) and every ```python block
(one script under a __main__ guard, in a fresh /usr/bin/python3) must exit 0. A block is skipped only when
the line before it is an HTML comment saying `not run by tests/python/test_readme.py` and why (the Quick
start, which is the test command itself, a cluster, placeholders for the user's own program)."""
import os
import re
import shutil
import subprocess

import pytest

from browser import ROOT

SKIP = "not run by tests/python/test_readme.py"
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def blocks(language: str) -> list:
    """(page, index on that page, code) of every block of the language that runs."""
    found = []
    for page in PAGES:
        text = page.read_text()
        for match in re.finditer(r"(?m)^```" + language + r"\n(.*?)^```", text, re.S):
            before = text[: match.start()].rstrip().splitlines()[-1]
            if SKIP not in before:
                found.append((page.relative_to(ROOT).as_posix(), len(found), match.group(1)))
    return found


def ids(found: list) -> list:
    return [f"{page}#{index}" for page, index, _ in found]


@pytest.fixture
def workdir(tmp_path):
    build = ROOT / "build"
    (tmp_path / "build").symlink_to(build)
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    shutil.copytree(ROOT / "results", tmp_path / "results")
    return tmp_path


def test_the_readme_has_examples_of_both_kinds_and_every_skip_says_why():
    assert all(any(page == "README.md" for page, _, _ in blocks(lang)) for lang in ("sh", "python"))
    for page in PAGES:
        for comment in re.findall(r"<!--((?:(?!-->).)*?" + SKIP + r".*?)-->", page.read_text(), re.S):
            reason = comment.replace(SKIP, "").strip(" :;,-\n")
            assert reason, f"{page.name}: a skipped block must say why it is not run"


@pytest.mark.parametrize("page,index,code", blocks("sh"), ids=ids(blocks("sh")))
def test_shell_block_runs(workdir, page, index, code):
    env = dict(os.environ, PERFLAB_RESULTS=str(workdir / "results"))
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", code], cwd=workdir, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{page}: sh block failed:\n{code}\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("page,index,code", blocks("python"), ids=ids(blocks("python")))
def test_python_block_runs(workdir, page, index, code):
    # as a script, under the __main__ guard the docs ask for (Dask's worker processes import the script)
    script = workdir / f"block_{index}.py"
    script.write_text("if __name__ == '__main__':\n" + "".join(f"    {line}\n" for line in code.splitlines()))
    done = subprocess.run(["/usr/bin/python3", str(script)], cwd=workdir, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, f"{page}: python block failed:\n{done.stderr[-3000:]}"
