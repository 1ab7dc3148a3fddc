"""perflab.models.dispatcher: the bound C++ Dispatcher reproduces behaviour cases of
tests/dispatcher/behaviour_test.cpp (numbered as there), under every strategy, with the same set-up:
max_requests 20, max_requests_per_host 10, a RecordingExecutor that never runs anything."""

import gc

import pytest

from perflab.models import dispatcher as d

STRATEGIES = d.strategies()


class Harness:
    """The fixture of behaviour_test.cpp: a dispatcher, its recording executor, and the failures seen."""

    def __init__(self, strategy):
        self.executor = d.RecordingExecutor()
        self.dispatcher = d.Dispatcher(self.executor, strategy)
        self.dispatcher.set_max_requests(20)
        self.dispatcher.set_max_requests_per_host(10)
        self.failed = []

    def enqueue(self, host, path, web_socket=False):
        call = d.Call(host, f"{host}/{path}", web_socket=web_socket, on_failure=self.record_failure)
        self.dispatcher.enqueue(call)
        return call

    def record_failure(self, call, message):
        self.failed.append((call.name, message))

    def running(self):
        return [call.name for call in self.dispatcher.running_async_calls()]

    def ready(self):
        return [call.name for call in self.dispatcher.ready_async_calls()]

    def handed_to_executor(self):
        return [call.name for call in self.executor.calls()]


@pytest.fixture(params=STRATEGIES)
def h(request):
    return Harness(request.param)


def test_the_strategies_are_the_models_three():
    assert STRATEGIES == ["scan", "counter", "indexed"]


def test_an_unknown_strategy_is_a_value_error_listing_the_choices():
    with pytest.raises(ValueError, match=r'"fifo".*scan, counter, indexed'):
        d.Dispatcher(d.RecordingExecutor(), "fifo")


# 1.
def test_limits_below_one_are_rejected(h):
    with pytest.raises(ValueError, match="at least 1"):
        h.dispatcher.set_max_requests(0)
    with pytest.raises(ValueError, match="at least 1"):
        h.dispatcher.set_max_requests_per_host(0)
    assert (h.dispatcher.max_requests, h.dispatcher.max_requests_per_host) == (20, 10)


# 2.
def test_enqueued_jobs_run_immediately(h):
    call = h.enqueue("a", 1)
    assert h.handed_to_executor() == ["a/1"]
    assert h.running() == ["a/1"]
    assert h.executor.calls()[0] is call, "the bound executor hands back the same Python object"


# 3.
def test_max_requests_enforced(h):
    h.dispatcher.set_max_requests(3)
    for host, path in [("a", 1), ("a", 2), ("b", 1), ("b", 2)]:
        h.enqueue(host, path)
    assert h.handed_to_executor() == ["a/1", "a/2", "b/1"]
    assert h.ready() == ["b/2"]


# 4. and 5.
def test_max_per_host_enforced_except_for_web_sockets(h):
    h.dispatcher.set_max_requests_per_host(2)
    for path in (1, 2, 3):
        h.enqueue("a", path)
    for path in (1, 2, 3):
        h.enqueue("w", path, web_socket=True)
    assert h.handed_to_executor() == ["a/1", "a/2", "w/1", "w/2", "w/3"]
    assert h.ready() == ["a/3"]


# 6.
def test_increasing_max_requests_promotes_jobs_immediately(h):
    h.dispatcher.set_max_requests(2)
    for host, path in [("a", 1), ("b", 1), ("c", 1), ("a", 2), ("b", 2)]:
        h.enqueue(host, path)
    h.dispatcher.set_max_requests(4)
    assert h.handed_to_executor() == ["a/1", "b/1", "c/1", "a/2"]


# 9.
def test_old_job_finishes_new_job_with_same_host_starts(h):
    h.dispatcher.set_max_requests(2)
    h.dispatcher.set_max_requests_per_host(1)
    a1 = h.enqueue("a", 1)
    for host, path in [("b", 1), ("b", 2), ("a", 2)]:
        h.enqueue(host, path)
    h.dispatcher.finished(a1)
    assert h.running() == ["b/1", "a/2"]
    assert h.ready() == ["b/2"]


# 11.
def test_enqueued_calls_still_respect_max_calls_per_host(h):
    h.dispatcher.set_max_requests(1)
    h.dispatcher.set_max_requests_per_host(1)
    a1 = h.enqueue("a", 1)
    for path in (1, 2, 3):
        h.enqueue("b", path)
    h.dispatcher.set_max_requests(3)
    h.dispatcher.finished(a1)
    assert h.running() == ["b/1"]
    assert h.ready() == ["b/2", "b/3"]


# 12.
def test_canceling_a_running_job_takes_no_effect_until_it_finishes(h):
    h.dispatcher.set_max_requests(1)
    a1 = h.enqueue("a", 1)
    h.enqueue("a", 2)
    a1.cancel()
    assert a1.is_canceled
    assert h.running() == ["a/1"]
    h.dispatcher.finished(a1)
    assert h.running() == ["a/2"]


# 13. and 14.
def test_async_and_sync_accessors(h):
    h.dispatcher.set_max_requests(3)
    for path in range(1, 6):
        h.enqueue("a", path)
    s1 = d.Call("a", "a/s1")
    h.dispatcher.executed(s1)
    assert h.dispatcher.running_calls_count() == 4
    assert h.dispatcher.queued_calls_count() == 2
    assert h.running() == ["a/1", "a/2", "a/3"]
    assert h.ready() == ["a/4", "a/5"]
    assert [c.name for c in h.dispatcher.running_sync_calls()] == ["a/s1"]

    h.dispatcher.cancel_all()
    assert s1.is_canceled and all(c.is_canceled for c in h.dispatcher.ready_async_calls())
    assert h.dispatcher.running_calls_count() == 4, "cancelling changes no list"
    h.dispatcher.finished_sync(s1)
    assert h.dispatcher.running_sync_calls() == []


# 15.
def test_idle_callback_invoked_when_all_calls_finish(h):
    idle = []
    # A callable nothing else refers to: the dispatcher keeps it alive.
    h.dispatcher.set_idle_callback(lambda: idle.append(h.dispatcher.running_calls_count()))
    gc.collect()
    a1 = h.enqueue("a", 1)
    a2 = h.enqueue("a", 2)
    sync = d.Call("b", "b/sync")
    h.dispatcher.executed(sync)
    h.dispatcher.finished(a1)
    h.dispatcher.finished(a2)
    assert idle == []
    h.dispatcher.finished_sync(sync)
    assert idle == [0], "called once, outside the lock (it could read the dispatcher)"


def test_an_exception_in_the_idle_callback_is_raised_by_finished(h):
    def fail():
        raise RuntimeError("idle callback failed")

    h.dispatcher.set_idle_callback(fail)
    a1 = h.enqueue("a", 1)
    with pytest.raises(RuntimeError, match="idle callback failed"):
        h.dispatcher.finished(a1)
    assert h.dispatcher.running_calls_count() == 0, "the call was finished all the same"
    h.dispatcher.set_idle_callback(None)
    h.dispatcher.finished(h.enqueue("a", 2))


# 16.
def test_execution_rejected_after_preceding_call_finishes(h):
    h.dispatcher.set_max_requests(1)
    a1 = h.enqueue("a", 1)
    h.enqueue("b", 1)
    h.executor.shutdown()
    h.dispatcher.finished(a1)
    assert [name for name, _ in h.failed] == ["b/1"]
    assert h.failed[0][1].startswith("interrupted I/O")
    assert (h.dispatcher.running_calls_count(), h.dispatcher.queued_calls_count()) == (0, 0)


def test_a_failed_call_handed_to_python_stays_valid_after_the_dispatcher_lets_go():
    failed = []
    executor = d.RecordingExecutor()
    executor.shutdown()
    dispatcher = d.Dispatcher(executor, "scan")
    dispatcher.enqueue(d.Call("a", "a/1", on_failure=lambda call, message: failed.append(call)))
    del dispatcher, executor
    gc.collect()
    assert failed[0].name == "a/1" and failed[0].is_executed


def test_errors_users_can_cause_are_value_errors(h):
    h.dispatcher.set_max_requests(1)
    a1 = h.enqueue("a", 1)
    a2 = h.enqueue("a", 2)
    with pytest.raises(ValueError, match="wasn't in flight"):
        h.dispatcher.finished(a2)
    with pytest.raises(ValueError, match="already"):
        h.dispatcher.enqueue(a1)
    with pytest.raises(ValueError, match="null"):
        h.dispatcher.enqueue(None)
    assert h.running() == ["a/1"] and h.ready() == ["a/2"]


@pytest.mark.parametrize("strategy, ops", [
    ("scan", [1, 2, 1, 3, 1, 4]),  # the scan of running calls grows with each call to the host
    ("counter", [2, 2, 2, 2, 2, 2]),
    ("indexed", [3, 3, 3, 3, 3, 3]),
])
def test_ops_under_the_lock_of_three_enqueues(strategy, ops):
    """lock_sections_test.cpp's exact counts: one host, max_requests = max_requests_per_host = 3."""
    dispatcher = d.Dispatcher(d.RecordingExecutor(), strategy)
    dispatcher.set_max_requests(3)
    dispatcher.set_max_requests_per_host(3)
    reports = []
    dispatcher.set_lock_observer(lambda section, count: reports.append((section, count)))
    before = dispatcher.ops_under_lock
    for _ in range(3):
        dispatcher.enqueue(d.Call("a"))
    assert reports == list(zip(["enqueue", "promote"] * 3, ops))
    assert dispatcher.ops_under_lock - before == sum(ops)


def test_the_recording_executor_hands_calls_over_in_order(h):
    h.dispatcher.set_max_requests(2)
    calls = [h.enqueue("a", path) for path in (1, 2, 3)]
    assert len(h.executor) == 2
    assert h.executor.call_at(1) is calls[1]
    with pytest.raises(IndexError):
        h.executor.call_at(2)
    taken = h.executor.take_calls()
    assert [c.name for c in taken] == ["a/1", "a/2"] and len(h.executor) == 0
    h.dispatcher.finished(taken[0])
    assert h.handed_to_executor() == ["a/3"]


def test_the_executor_outlives_a_dispatcher_made_from_a_temporary():
    dispatcher = d.Dispatcher(d.RecordingExecutor(), "counter")
    gc.collect()
    dispatcher.enqueue(d.Call("a"))
    assert [c.name for c in dispatcher.running_async_calls()] == ["a"]


class ScriptedExecutor(d.Executor):
    """reentrancy_test.cpp's executor, in Python: record each call, run it inline, or reject it."""

    def __init__(self):
        super().__init__()
        self.dispatcher = None
        self.mode = "record"
        self.handed = []

    def execute(self, call):
        self.handed.append(call.name)
        if self.mode == "inline":  # AsyncCall.execute(): run, then finished(this), before returning
            self.dispatcher.finished(call)
        return self.mode != "reject"


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_python_executor_may_call_back_into_the_dispatcher(strategy):
    executor = ScriptedExecutor()
    dispatcher = d.Dispatcher(executor, strategy)
    executor.dispatcher = dispatcher
    idle = []
    dispatcher.set_idle_callback(lambda: idle.append(dispatcher.running_calls_count()))
    executor.mode = "inline"
    for path in (1, 2, 3):
        dispatcher.enqueue(d.Call("a", f"a/{path}"))
    assert executor.handed == ["a/1", "a/2", "a/3"]
    assert idle == [0, 0, 0], "each enqueue ran its call to completion and left the dispatcher idle"


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_failure_callback_enqueues_a_retry_that_waits_for_the_failed_calls_slot(strategy):
    """reentrancy_test.cpp: the failed call keeps its slot until finished, so the retry waits."""
    executor = ScriptedExecutor()
    dispatcher = d.Dispatcher(executor, strategy)
    dispatcher.set_max_requests(1)
    running = lambda: [c.name for c in dispatcher.running_async_calls()]  # noqa: E731
    seen = []

    def retry(failed, message):
        seen.append((failed.name, running()))
        dispatcher.enqueue(d.Call(failed.host, failed.host + "/retry"))
        executor.mode = "record"

    a1 = d.Call("a", "a/1")
    dispatcher.enqueue(a1)
    dispatcher.enqueue(d.Call("b", "b/1", on_failure=retry))
    executor.mode = "reject"
    dispatcher.finished(a1)  # promotes b/1, rejected; its retry runs once b/1 is finished
    assert seen == [("b/1", ["b/1"])]
    assert executor.handed == ["a/1", "b/1", "b/retry"]
    assert running() == ["b/retry"]


def test_an_exception_in_a_python_executor_rejects_the_call_and_is_raised():
    class Broken(d.Executor):
        def execute(self, call):
            raise KeyError(call.name)

    failed = []
    dispatcher = d.Dispatcher(Broken(), "indexed")
    with pytest.raises(KeyError, match="a/1"):
        dispatcher.enqueue(d.Call("a", "a/1", on_failure=lambda call, message: failed.append(message)))
    assert failed == ["interrupted I/O: executor rejected call a/1: the executor raised on a/1"]
    assert dispatcher.running_calls_count() == 0


def test_docstrings_say_what_each_method_does():
    for cls in (d.Dispatcher, d.Call, d.RecordingExecutor):
        assert cls.__doc__
        for name, member in vars(cls).items():
            if not name.startswith("_") and callable(member):
                assert member.__doc__, f"{cls.__name__}.{name} has no docstring"
