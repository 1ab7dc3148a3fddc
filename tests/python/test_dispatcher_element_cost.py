"""scenarios/dispatcher/element_cost.py: ns per element of the expensive promotions, per run and by running
calls, on hand-made section traces."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scenarios" / "dispatcher"))
import element_cost  # noqa: E402

SCRIPT = ROOT / "scenarios" / "dispatcher" / "element_cost.py"
HEADER = "i,section,ops,running,ready,thread,waited,asked_ns,acquired_ns,released_ns\n"


def write_trace(path: Path, sections: list):
    """sections: (kind, ops, running, hold_ns[, ready]), one after another (5 ready calls if not given)."""
    rows, t = [], 1_000
    for i, (kind, ops, running, hold_ns, *ready) in enumerate(sections):
        rows.append(f"{i},{kind},{ops},{running},{ready[0] if ready else 5},a,0,{t},{t},{t + hold_ns}\n")
        t += hold_ns + 100
    path.write_text(HEADER + "".join(rows))


def test_only_expensive_promotions_count_and_bins_follow_the_running_calls(tmp_path):
    # 4 ns an element at 150 running, 8 ns at 420; a cheap promotion and a long enqueue are left out
    write_trace(tmp_path / "a.csv", [("promote", 10_000, 150, 40_000), ("promote", 500, 150, 90_000),
                                     ("enqueue", 20_000, 150, 900_000), ("promote", 30_000, 420, 240_000)])
    c = element_cost.costs(element_cost.real_sections(str(tmp_path / "a.csv")))
    assert c == pytest.approx({"all": 7.0, 100: 4.0, 400: 8.0})


def test_the_table_has_a_column_per_bin_any_run_reached(tmp_path):
    write_trace(tmp_path / "a.csv", [("promote", 10_000, 150, 40_000)])
    write_trace(tmp_path / "b.csv", [("promote", 10_000, 620, 70_000)])
    out = subprocess.run([sys.executable, SCRIPT, "--csv", f"23:00={tmp_path / 'a.csv'}", f"23:05={tmp_path / 'b.csv'}"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == ["run,all,100-199,600-699", "23:00,4.00,4.00,", "23:05,7.00,,7.00"]


def test_a_trace_without_an_expensive_promotion_or_a_label_is_refused(tmp_path):
    write_trace(tmp_path / "a.csv", [("promote", 10, 150, 40)])
    run = subprocess.run([sys.executable, SCRIPT, f"x={tmp_path / 'a.csv'}"], capture_output=True, text=True)
    assert run.returncode == 2 and "no promotion of more than 1000 elements" in run.stderr
    run = subprocess.run([sys.executable, SCRIPT, str(tmp_path / "a.csv")], capture_output=True, text=True)
    assert run.returncode == 2 and "LABEL=TRACE" in run.stderr


def test_by_ready_splits_each_run_by_the_ready_calls_its_walks_met(tmp_path):
    # At 500 running calls: 9 ns an element over 150 ready calls, 7 ns over 1,500
    write_trace(tmp_path / "a.csv", [("promote", 75_000, 500, 675_000, 150),
                                     ("promote", 750_000, 500, 5_250_000, 1_500)])
    out = subprocess.run([sys.executable, SCRIPT, "--csv", "--by-ready", f"x={tmp_path / 'a.csv'}"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == ["run,all,500-599", "x, ready 100-299,9.00,9.00", "x, ready 1000+,7.00,7.00"]


def test_by_time_splits_each_run_by_the_half_second_its_walks_started_in(tmp_path):
    # The same walk at 500 running calls: 10 ns an element at the start, 7 ns 0.6 s later
    write_trace(tmp_path / "a.csv", [("promote", 60_000, 500, 600_000), ("promote", 2_000, 500, 599_000_000),
                                     ("promote", 60_000, 500, 420_000)])
    out = subprocess.run([sys.executable, SCRIPT, "--csv", "--by-time", f"x={tmp_path / 'a.csv'}"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == "run,all,500-599"
    assert out[1].startswith("x, 0.0-0.5 s,") and out[2] == "x, 0.5-1.0 s,7.00,7.00"


def test_one_split_at_a_time(tmp_path):
    write_trace(tmp_path / "a.csv", [("promote", 10_000, 150, 40_000)])
    run = subprocess.run([sys.executable, SCRIPT, "--by-ready", "--by-time", f"x={tmp_path / 'a.csv'}"],
                         capture_output=True, text=True)
    assert run.returncode == 2
