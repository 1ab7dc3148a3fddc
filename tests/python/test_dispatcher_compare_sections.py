"""scenarios/dispatcher/compare_sections.py: a real section trace and a sim timeline of one point, summarised
alike, on small hand-made inputs."""
import gzip
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scenarios" / "dispatcher"))
import compare_sections  # noqa: E402

SCRIPT = ROOT / "scenarios" / "dispatcher" / "compare_sections.py"
HEADER = "i,section,ops,running,ready,thread,waited,asked_ns,acquired_ns,released_ns\n"


def write_real(path: Path, rows: list):
    text = HEADER + "".join(f"{i},{kind},{ops},{running},{ready},{thread},0,{t},{t},{t + 10}\n"
                            for i, (kind, ops, running, ready, thread, t) in enumerate(rows))
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)


def write_sim(path: Path, spans: list):
    events = [{"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "caller-0"}}]
    events += [{"ph": "X", "pid": 1, "tid": tid, "name": kind, "ts": ts, "dur": 1.0,
                "args": {"detail": f"{ops} ops, {running} running, {ready} ready"}}
               for kind, ops, running, ready, tid, ts in spans]
    events.append({"ph": "X", "pid": 1, "tid": 2, "name": "call-0 queued", "ts": 0.0, "dur": 1.0})
    path.write_text(json.dumps({"traceEvents": events}))


def test_both_engines_are_summarised_alike(tmp_path):
    # enqueue by thread a, its own promotion, then b's finished and a promotion by a after b's section
    rows = [("enqueue", 1, 0, 0, "a", 0), ("promote", 2000, 40, 50, "a", 2_000),
            ("finished", 3, 40, 49, "b", 5_000), ("promote", 1500, 30, 50, "a", 10_000)]
    write_real(tmp_path / "real.csv.gz", rows)
    write_sim(tmp_path / "sim.json", [(kind, ops, run, ready, 1 if thread == "a" else 2, t / 1000)
                                      for kind, ops, run, ready, thread, t in rows])
    real = compare_sections.real_sections(str(tmp_path / "real.csv.gz"))
    sim = compare_sections.sim_sections(str(tmp_path / "sim.json"))
    assert [(s.kind, s.ops, s.running, s.ready) for s in real] == [(s.kind, s.ops, s.running, s.ready) for s in sim]
    text = "\n".join(compare_sections.summary(real))
    assert "promote: 2 sections, 3500 elements" in text
    assert "promotions right after another thread's section: 1 of 2" in text
    # the first promotion is at a fifth of the run (2 of 10 us): the middle; the second ends the run
    assert "middle six tenths: 1 expensive promotions, 2000 elements, 40 running and 50 ready" in text
    assert "last three tenths: 1 expensive promotions, 1500 elements, 30 running and 50 ready" in text
    assert text == "\n".join(compare_sections.summary(sim))


def test_a_timeline_without_sections_is_a_clear_error(tmp_path):
    write_real(tmp_path / "real.csv", [("enqueue", 1, 0, 0, "a", 0)])
    (tmp_path / "sim.json").write_text(json.dumps({"traceEvents": []}))
    run = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "real.csv"), str(tmp_path / "sim.json")],
                         capture_output=True, text=True)
    assert run.returncode == 2
    assert "no locked section in the timeline" in run.stderr


def test_each_kind_says_how_long_it_held_and_how_much_of_that_was_stalls(tmp_path):
    text = HEADER + "".join(f"{i},enqueue,2,0,0,a,0,{i * 100_000},{i * 100_000},{i * 100_000 + held}\n"
                            for i, held in enumerate((1_000, 2_000, 3_000, 44_000)))  # ns
    (tmp_path / "real.csv").write_text(text)
    [line] = compare_sections.holds(compare_sections.real_sections(str(tmp_path / "real.csv")))
    assert line == "  enqueue held: 0.050 ms in all, median 2.50 us, 88% of it in sections over 10 us"
