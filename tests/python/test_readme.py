"""The README's examples run as written: every ```sh block (in a scratch folder whose build/ and scenarios/
are this tree's, with PERFLAB_RESULTS on a copy of results/) and every ```python block (one script under a __main__
guard, in a fresh /usr/bin/python3) must exit 0. A block is skipped only when the line before it is an HTML comment
saying `not run by tests/python/test_readme.py` and why (the Quick start, which is the test command
itself, and the cluster example)."""
import os
import re
import shutil
import subprocess

import pytest

from browser import ROOT

SKIP = "not run by tests/python/test_readme.py"


def blocks(language: str) -> list:
    text = (ROOT / "README.md").read_text()
    found = []
    for match in re.finditer(r"(?m)^```" + language + r"\n(.*?)^```", text, re.S):
        before = text[: match.start()].rstrip().splitlines()[-1]
        if SKIP not in before:
            found.append(match.group(1))
    return found


@pytest.fixture
def workdir(tmp_path):
    build = ROOT / "build"
    (tmp_path / "build").symlink_to(build)
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    shutil.copytree(ROOT / "results", tmp_path / "results")
    return tmp_path


def test_the_readme_has_examples_of_both_kinds():
    assert len(blocks("sh")) >= 1 and len(blocks("python")) >= 1
    text = (ROOT / "README.md").read_text()
    assert text.count("```sh") == len(blocks("sh")) + text.count(SKIP)


@pytest.mark.parametrize("index", range(len(blocks("sh"))))
def test_shell_block_runs(workdir, index):
    env = dict(os.environ, PERFLAB_RESULTS=str(workdir / "results"))
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", blocks("sh")[index]], cwd=workdir, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"README sh block {index} failed:\n{blocks('sh')[index]}\n{done.stderr[-3000:]}"


@pytest.mark.parametrize("index", range(len(blocks("python"))))
def test_python_block_runs(workdir, index):
    # as a script, under the __main__ guard the README asks for (Dask's worker processes import the script)
    script = workdir / f"readme_{index}.py"
    script.write_text("if __name__ == '__main__':\n" + "".join(
        f"    {line}\n" for line in blocks("python")[index].splitlines()))
    done = subprocess.run(["/usr/bin/python3", str(script)], cwd=workdir, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, f"README python block {index} failed:\n{done.stderr[-3000:]}"
