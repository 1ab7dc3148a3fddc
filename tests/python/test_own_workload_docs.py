"""docs/your-own-workload.md's awk line, run as written on the shipped example access log, makes the shipped
example request log byte for byte (so the log the dispatcher's request-log.toml replays is what the page
says it is), and each of its lines is the access log line's host and second."""
import re
import subprocess

from browser import ROOT

DATA = ROOT / "scenarios" / "dispatcher" / "data"


def awk_block() -> str:
    text = (ROOT / "docs" / "your-own-workload.md").read_text()
    found = [b for b in re.findall(r"(?ms)^```sh\n(.*?)^```", text) if "awk" in b]
    assert len(found) == 1, "expected one sh block with the awk line"
    return found[0]


def test_awk_line_makes_the_example_log(tmp_path):
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    done = subprocess.run(["sh", "-eu", "-c", awk_block()], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    made = (tmp_path / "requests.csv").read_text()
    assert made == (DATA / "example-requests.csv").read_text()


def test_each_request_is_its_access_log_line():
    access = (DATA / "example-access.log").read_text().splitlines()
    requests = (DATA / "example-requests.csv").read_text().splitlines()
    assert requests[0] == "time_s,host"
    assert len(requests) - 1 == len(access) == 781
    first = None
    for line, row in zip(access, requests[1:]):
        second = int(re.search(r"\[\d+/\w+/\d+:\d+:\d+:(\d+) ", line).group(1))
        minute = int(re.search(r"\[\d+/\w+/\d+:\d+:(\d+):", line).group(1))
        at = minute * 60 + second
        first = at if first is None else first
        host = re.search(r'"[A-Z]+ https?://([^/:?]+)', line).group(1)
        assert row == f"{at - first},{host}"
