"""What a new user types from Python: a scenario by the name `perflab list` prints (with or without .toml,
from any directory), its [[case]]s narrowed with cases=, bad input files named with their parameter, and
progress lines only where a person sees them (a terminal or a notebook, never a log file)."""

import subprocess
import sys

import pytest

import perflab

ONE_RUN = {"sweep.reply_size": ["1KiB"]}


@pytest.mark.parametrize("name", ["pingpong/wan", "pingpong/wan.toml"])
def test_the_names_list_prints_run_from_any_directory(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    listed = subprocess.run([perflab._perflab.perflab_binary(), "list"], capture_output=True, text=True)
    assert "pingpong/wan.toml" in listed.stdout
    frame = perflab.run(name, set=ONE_RUN, seeds=1, progress=False)
    assert list(frame.reply_size) == [1024]


def test_an_unknown_name_says_what_a_name_is():
    with pytest.raises(ValueError, match=r"pingpong/nope: no such scenario file, expected a \.toml file or a "
                                         r"shipped scenario's name as `perflab list` prints it"):
        perflab.run("pingpong/nope")


def test_cases_narrow_a_scenario():
    frame = perflab.run("pipe/git-clone", cases=["linux", "jdk"], seeds=1,
                        set={"sweep.mechanism": ["none"]}, progress=False)
    assert list(frame["case"]) == ["jdk", "linux"]
    with pytest.raises(ValueError, match="--case nope: .*git-clone.toml has no such case, expected one of: jdk, "):
        perflab.run("pipe/git-clone", cases="nope")


def test_a_bad_input_file_names_itself_and_its_parameter(tmp_path):
    garbage = tmp_path / "random.classpath"
    garbage.write_bytes(bytes(range(256)) * 2)
    with pytest.raises(ValueError) as error:
        perflab.run("prefetch/jgit-clone", seeds=1, progress=False,
                    set={"sweep.prefetch_depth": [1], "params.classpath": [str(garbage)]})
    message = str(error.value)
    assert message.startswith(f"params.classpath: {garbage}:1: ")
    assert all(c == "\n" or " " <= c < "\x7f" or ord(c) > 0x9f for c in message), repr(message)


def test_progress_goes_to_a_terminal_or_notebook_only(tmp_path):
    # A script whose stderr is a log file: no progress line (and no \r) in it.
    script = tmp_path / "run.py"
    script.write_text("import perflab\n"
                      "perflab.run('pingpong/wan', seeds=2)\n")
    log = tmp_path / "log.txt"
    with open(log, "w") as stderr:
        subprocess.run([sys.executable, str(script)], stderr=stderr, stdout=subprocess.DEVNULL, check=True)
    assert "\r" not in log.read_text()
    assert "runs" not in log.read_text()
    from perflab.rows import progress_shown

    assert not progress_shown()  # pytest captures stderr: not a terminal


def test_describe_takes_a_scenario_name_and_lists_its_cases():
    info = perflab.describe("pipe/git-clone")
    assert info["name"] == "pipe" and info["scenario"] == "pipe-git-clone"
    assert info["cases"] == ["jdk", "nuprocess-2.0.1", "nuprocess-2.0.2", "linux", "jdk-64k"]
    assert "pipe_buffer" in set(info["params"]["name"])
    with pytest.raises(ValueError, match='unknown study "nope"'):
        perflab.describe("nope")
