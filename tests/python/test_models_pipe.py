"""perflab.models.pipe: one transfer through the bound C++ pipeline gives the figures that
tests/pipe/pipeline_test.cpp checks (the 'none' control at 16 MiB/s, the poll-tick headline shape,
conservation), and the real pump reads exactly what a real child wrote (tests/pipe/real_pump_test.cpp)."""

import concurrent.futures
import shutil

import pytest

from perflab.models import pipe

MIB = 1024 * 1024
TRANSFER = 3 * MIB + 12345  # not a multiple of any buffer, as in pipeline_test.cpp


def git(pump, pipe_buffer, platform, mechanism, **options):
    """The git writer of pipeline_test.cpp: 1 ms completion delay, tick grid starting at 7 ms."""
    options = {"completion_delay": 0.001, "timer_phase": 0.007, **options}
    return pipe.run_pipeline(platform=platform, mechanism=mechanism, pump=pump, pipe_buffer=pipe_buffer,
                             writer="git", transfer_bytes=TRANSFER, **options)


def test_with_mechanism_none_the_pipe_size_does_not_matter():
    small = git("nuprocess-iocp", 4120, "windows", "none", pack_rate=16 * MIB)
    large = git("nuprocess-iocp", 65536, "windows", "none", pack_rate=16 * MIB)
    assert small.throughput / MIB == pytest.approx(16.0, abs=0.2)
    assert small.throughput == pytest.approx(large.throughput, rel=0.01)


def test_under_poll_tick_the_64kib_pipe_sleeps_and_the_4120_pipe_does_not():
    slow = git("nuprocess-iocp", 65536, "windows", "poll-tick")
    fast = git("nuprocess-iocp", 4120, "windows", "poll-tick")
    assert slow.poll_sleeps > 100 and slow.throughput / MIB < 3.0
    assert fast.poll_sleeps <= 2 and fast.throughput / MIB > 20.0
    assert fast.writer_blocked_s > 0 and slow.writer_blocked_s == 0
    assert slow.conserved and fast.conserved
    assert slow.payload_bytes == TRANSFER and slow.bytes > TRANSFER + 4, "side-band framing"


def test_a_replayed_trace_is_conserved_whatever_the_pump():
    writes = [(0, 5), (0, 8192), (0.0001, 5), (0.0001, 70000), (0.02, 1)]
    for pump, platform in [("nuprocess-iocp", "windows"), ("jdk-blocking", "windows"),
                           ("nuprocess-epoll", "linux")]:
        result = pipe.run_pipeline(platform=platform, pump=pump, pipe_buffer=4120, writer="trace",
                                   trace=writes, completion_delay=0.001)
        assert result.conserved and result.payload_bytes == 78203


def test_a_completion_delay_can_be_drawn_by_a_python_callable():
    draws = []

    def draw():
        draws.append(0.002)
        return 0.002

    result = git("nuprocess-iocp", 65536, "windows", "completion-delay", completion_delay=draw)
    assert result.delayed_completions == len(draws) > 0
    assert result.conserved


def test_a_linux_reader_that_wakes_late_takes_a_header_and_its_payload_in_one_read():
    # upload-pack's pattern: a 5-byte side-band header, then its payload 0.07 us later, every millisecond.
    writes = [w for i in range(50) for w in ((i * 1e-3, 5), (i * 1e-3 + 7e-8, 8192))]
    kwargs = dict(platform="linux", pump="nuprocess-epoll", pipe_buffer=65536, writer="trace", trace=writes)
    at_once = pipe.run_pipeline(wake_latency=0, **kwargs)
    late = pipe.run_pipeline(wake_latency=10e-6, **kwargs)
    assert at_once.bytes == late.bytes == 50 * 8197
    assert at_once.reads == 100
    assert late.reads == 50
    assert 'wake_latency (default "0ms"): linux: from a wake' in pipe.run_pipeline.__doc__


def test_bad_parameters_are_value_errors_with_the_models_message():
    with pytest.raises(ValueError, match="nuprocess-epoll"):
        git("nuprocess-epoll", 65536, "windows", "poll-tick")
    with pytest.raises(ValueError, match="pipe_buffer"):
        git("nuprocess-iocp", 0, "windows", "poll-tick")
    with pytest.raises(ValueError, match="transfer_bytes"):
        pipe.run_pipeline(transfer_bytes=0)
    with pytest.raises(ValueError, match="trace"):
        pipe.run_pipeline(writer="trace")
    with pytest.raises(ValueError, match="trace:2"):
        pipe.run_pipeline(writer="trace", trace=[(0, 0)])
    with pytest.raises(ValueError, match="poll-tick"):
        pipe.run_pipeline(mechanism="tick", transfer_bytes=1)
    with pytest.raises(ValueError, match="cannot read"):
        pipe.run_pipeline(writer="trace", trace="/nonexistent/trace.csv")
    with pytest.raises(ValueError, match="timer_phase must be in"):  # NaN is not in the range either
        pipe.run_pipeline(timer_phase=float("nan"), transfer_bytes="1MiB")


def test_an_exception_in_the_delay_callable_is_raised_by_run_pipeline():
    def broken():
        raise ZeroDivisionError("no delay today")

    with pytest.raises(ZeroDivisionError, match="no delay today"):
        git("nuprocess-iocp", 65536, "windows", "completion-delay", completion_delay=broken)


def test_a_delay_callable_must_return_a_non_negative_number():
    with pytest.raises(TypeError, match="'soon'"):
        git("nuprocess-iocp", 65536, "windows", "completion-delay", completion_delay=lambda: "soon")
    with pytest.raises(ValueError, match="expected >= 0"):
        git("nuprocess-iocp", 65536, "windows", "completion-delay", completion_delay=lambda: -1.0)


def test_transfers_run_in_python_threads_give_the_sequential_results():
    """run_pipeline lets go of the GIL while the event loop runs; a callable's error stays in its thread."""
    sizes = [4120, 8192, 65536, 4120]
    sequential = [git("nuprocess-iocp", size, "windows", "poll-tick").duration_s for size in sizes]

    def broken():
        raise ZeroDivisionError("only in this thread")

    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        failing = pool.submit(git, "nuprocess-iocp", 65536, "windows", "completion-delay",
                              completion_delay=broken)
        threaded = list(pool.map(lambda size: git("nuprocess-iocp", size, "windows", "poll-tick").duration_s,
                                 sizes))
        with pytest.raises(ZeroDivisionError):
            failing.result()
    assert threaded == sequential


@pytest.mark.skipif(shutil.which("cat") is None, reason="needs cat")
def test_the_real_pump_reads_exactly_what_the_child_wrote(tmp_path):
    data = pipe.content(7, 0, 3 * MIB + 17)
    (tmp_path / "data.bin").write_bytes(data)
    result = pipe.run_real_pump(["cat", str(tmp_path / "data.bin")], pipe_size=4120, timeout_s=20)
    assert result.bytes == len(data)
    assert result.checksum == pipe.checksum(data)
    assert result.pipe_size == 8192, "4,120 rounded up to two pages"
    assert result.exited and result.exit_status == 0
    assert result.head == data[:16]


def test_the_real_pump_reports_exit_status_and_missing_programs():
    result = pipe.run_real_pump(["sh", "-c", "printf abc; exit 3"], timeout_s=20)
    assert (result.bytes, result.exited, result.exit_status) == (3, True, 3)
    with pytest.raises(ValueError):
        pipe.run_real_pump(["/nonexistent/program"], timeout_s=20)
    with pytest.raises(ValueError, match="argv is empty"):
        pipe.run_real_pump([])


# run_pipeline's options are the study's knobs (scenarios/pipe/pipe_study.cpp): keywords only, checked as in
# a scenario file, numbers in base units or strings with a unit.
def test_a_size_is_a_number_of_bytes_or_a_string_with_a_unit():
    as_number = pipe.run_pipeline(pipe_buffer=65536, transfer_bytes=MIB, completion_delay=0.001)
    as_text = pipe.run_pipeline(pipe_buffer="64KiB", transfer_bytes="1MiB", completion_delay=0.001)
    assert as_number.duration_s == as_text.duration_s and as_number.reads == as_text.reads


def test_options_are_checked_as_in_a_scenario_file():
    with pytest.raises(ValueError, match='run_pipeline\\(pipe_buffer=-1\\): "pipe_buffer"'):
        pipe.run_pipeline(pipe_buffer=-1)
    with pytest.raises(ValueError, match='"handler_c0": .*unit'):
        pipe.run_pipeline(handler_c0="5 parsecs")
    with pytest.raises(ValueError, match='"pump" = "iocp" is not a valid choice'):
        pipe.run_pipeline(pump="iocp")
    with pytest.raises(TypeError, match="unexpected keyword argument 'pipe_bufer'"):
        pipe.run_pipeline(pipe_bufer=4120)
    with pytest.raises(TypeError):
        pipe.run_pipeline("windows")
