// perflab.models.dispatcher: the OkHttp Dispatcher model (models/dispatcher) bound as it is, with the
// recording executor of OkHttp's DispatcherTest (or an executor written in Python), so Python can enqueue
// calls, finish them, cancel them, change the limits and watch which calls were handed off, in which
// order, under each strategy.
//
// Drive one Dispatcher from one Python thread: the GIL is held across every call into it, so its callbacks
// (executor, idle, failure, lock observer) run on that thread, outside the dispatcher's lock, as in the C++
// behaviour tests.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "analysis/module/model_bindings.h"
#include "models/dispatcher/call.h"
#include "models/dispatcher/dispatcher.h"
#include "models/dispatcher/recording_executor.h"
#include "models/dispatcher/strategy.h"
#include "sim/text/value_format.h"

namespace py = pybind11;

namespace perflab::python {
namespace {

using dispatcher::Call;
using dispatcher::CallPtr;
using dispatcher::Dispatcher;
using dispatcher::Executor;
using dispatcher::RecordingExecutor;
using dispatcher::Strategy;

// An Executor written in Python: a subclass's execute(call) accepts the call by returning (anything but
// False) and rejects it by returning False. An exception it raises rejects the call too, and is raised by
// the Dispatcher method that handed the call over. It runs outside the dispatcher's lock, so it may call
// back into the Dispatcher (run the call inline and finish it, as OkHttp's AsyncCall does).
class PythonExecutor : public Executor {
 public:
  Status execute(const CallPtr& call) override {
    py::gil_scoped_acquire gil;
    const py::function execute = py::get_override(static_cast<const Executor*>(this), "execute");
    if (!execute)
      return Status::Error("the executor has no execute(call) method: " + call->name() + " rejected");
    try {
      const py::object accepted = execute(call);
      if (accepted.is(py::bool_(false))) return Status::Error("the executor rejected " + call->name());
      return Status::OK();
    } catch (py::error_already_set& error) {
      keep_callback_error(error);
      return Status::Error("the executor raised on " + call->name());
    }
  }
};

// The failure callback a Call carries, calling `on_failure(call, message)` in Python. The C++ callback is
// given a `const Call&`; `self` (set once the call exists) turns it back into the shared CallPtr, so the
// Python object it receives owns the call and stays valid whatever Python keeps it for.
Call::FailureCallback failure_callback(const std::optional<py::function>& on_failure,
                                       const std::shared_ptr<std::weak_ptr<Call>>& self) {
  if (!on_failure) return nullptr;
  PythonCallable callable(*on_failure);
  return [callable, self](const Call& /*call*/, const Status& error) {
    callable.call(self->lock(), error.message());
  };
}

CallPtr make_call(std::string host, const std::optional<std::string>& name, bool web_socket,
                  const std::optional<py::function>& on_failure) {
  std::string call_name = name.value_or(std::string());
  auto self = std::make_shared<std::weak_ptr<Call>>();
  Call::FailureCallback on_fail = failure_callback(on_failure, self);
  CallPtr call = web_socket ? Call::CreateWebSocket(std::move(host), std::move(call_name), std::move(on_fail))
                            : Call::Create(std::move(host), std::move(call_name), std::move(on_fail));
  *self = call;
  return call;
}

// A Dispatcher method that returns a Status: raises what a callback raised during it, if anything, else
// ValueError if the status is an error.
template <typename Arg>
auto checked(Status (Dispatcher::*method)(Arg)) {
  return [method](Dispatcher& self, Arg arg) {
    const Status status = (self.*method)(std::forward<Arg>(arg));
    raise_callback_errors();
    throw_if_error(status);
  };
}

void bind_call(py::module_& m) {
  py::class_<Call, CallPtr>(m, "Call",
                            "An asynchronous or synchronous HTTP call as the Dispatcher sees it (OkHttp's "
                            "RealCall/AsyncCall): a host, a name, a WebSocket flag and a cancel flag.")
      .def(py::init(&make_call), py::arg("host"), py::arg("name") = py::none(), py::arg("web_socket") = false,
           py::arg("on_failure") = py::none(),
           "Call(host, name=None, web_socket=False, on_failure=None)\n\n"
           "host: the host the per-host limit is keyed on, e.g. 'a'.\n"
           "name: how tests and logs name the call, e.g. 'a/1' for http://a/1 (default: the host).\n"
           "web_socket: a WebSocket call, exempt from the per-host limit (Call::CreateWebSocket).\n"
           "on_failure: on_failure(call, message), called when the call fails without running (the "
           "executor rejected it); the message starts with 'interrupted I/O'.")
      .def_property_readonly("host", &Call::host, "The host the per-host limit is keyed on.")
      .def_property_readonly("name", &Call::name, "The call's name, e.g. 'a/1'.")
      .def_property_readonly("for_web_socket", &Call::for_web_socket,
                             "True for a WebSocket call (never capped per host).")
      .def("cancel", &Call::cancel,
           "Sets the cancel flag. Like OkHttp this changes no list: a queued call stays queued and a running "
           "call keeps its slot until finished().")
      .def_property_readonly("is_canceled", &Call::is_canceled,
                             "Whether cancel() (or cancel_all()) was called.")
      .def_property_readonly("is_executed", &Call::is_executed,
                             "OkHttp's isExecuted(): the call was enqueued or executed (a call is submitted "
                             "once).")
      .def("__repr__", [](const Call& call) {
        return "<Call " + call.name() + (call.for_web_socket() ? " (WebSocket)" : "") + ">";
      });
}

void bind_executors(py::module_& m) {
  py::class_<Executor, PythonExecutor>(
      m, "Executor",
      "Where the Dispatcher sends the calls it promotes (OkHttp's ExecutorService). Subclass it in "
      "Python and define execute(self, call): return False to reject the call (the Dispatcher then fails "
      "it), anything else to accept it; whoever runs an accepted call calls Dispatcher.finished(call). "
      "execute runs outside the dispatcher's lock and may call back into the Dispatcher; an exception it "
      "raises rejects the call and is raised by the Dispatcher method that handed the call over.")
      .def(py::init<>(), "An executor whose execute(call) a Python subclass defines.");

  py::class_<RecordingExecutor, Executor>(
      m, "RecordingExecutor",
      "An Executor that records the calls it is given and never runs them, like the RecordingExecutor of "
      "OkHttp's DispatcherTest. Finishing a recorded call (Dispatcher.finished) is up to you. After "
      "shutdown() it rejects every call, and the Dispatcher fails each rejected call.")
      .def(py::init<>(), "A recording executor with nothing recorded.")
      .def("calls", &RecordingExecutor::calls,
           "Every call accepted and not taken yet, in the order the Dispatcher handed them over.")
      .def("__len__", &RecordingExecutor::call_count, "How many calls are recorded.")
      .def(
          "call_at",
          [](const RecordingExecutor& self, size_t index) {
            if (index >= self.call_count()) {
              throw py::index_error("call_at(" + std::to_string(index) + "): only " +
                                    std::to_string(self.call_count()) + " calls are recorded");
            }
            return self.call_at(index);
          },
          py::arg("index"), "The call handed over in position `index` (0 = first).")
      .def(
          "take_calls",
          [](RecordingExecutor& self) {
            std::vector<CallPtr> calls;
            self.take_calls(calls);
            return calls;
          },
          "Returns the calls recorded so far, in order, and forgets them.")
      .def("shutdown", &RecordingExecutor::shutdown, "From now on every call handed over is rejected.");
}

void bind_dispatcher_class(py::module_& m) {
  static const std::string constructor_doc =
      "Dispatcher(executor, strategy)\n\n"
      "executor: where promoted calls go, e.g. a RecordingExecutor (kept alive by the Dispatcher).\n"
      "strategy: how per-host limits are tracked, one of strategies(): 'scan' (OkHttp 3.12.0), "
      "'counter' (3.13+, PR #4581) or 'indexed' (perflab). All promote the same calls in the same "
      "order. Limits start at max_requests " +
      std::to_string(Dispatcher::kDefaultMaxRequests) + ", max_requests_per_host " +
      std::to_string(Dispatcher::kDefaultMaxRequestsPerHost) + ".";
  py::class_<Dispatcher>(
      m, "Dispatcher",
      "The OkHttp Dispatcher: runs each enqueued async call as soon as at most max_requests calls run in "
      "all and at most max_requests_per_host to its host (WebSocket calls are exempt from the host limit). "
      "Promoted calls go to the executor, in order, before the method that promoted them returns "
      "(promoteAndExecute). Methods that fail raise ValueError with the model's message.")
      .def(py::init([](Executor& executor, const std::string& strategy) {
             return std::make_unique<Dispatcher>(executor,
                                                 value_or_throw(dispatcher::kStrategyNames.parse(strategy)));
           }),
           py::arg("executor"), py::arg("strategy"), py::keep_alive<1, 2>(), constructor_doc.c_str())
      .def_property_readonly(
          "strategy", [](const Dispatcher& self) { return dispatcher::kStrategyNames.name(self.strategy()); },
          "The strategy's name.")
      .def("set_max_requests", checked(&Dispatcher::set_max_requests), py::arg("max_requests"),
           "Sets the limit on async calls running at once (at least 1) and promotes ready calls at once.")
      .def("set_max_requests_per_host", checked(&Dispatcher::set_max_requests_per_host),
           py::arg("max_requests_per_host"),
           "Sets the limit on async calls running to one host (at least 1) and promotes ready calls at once.")
      .def_property_readonly("max_requests", &Dispatcher::max_requests, "The limit on running async calls.")
      .def_property_readonly("max_requests_per_host", &Dispatcher::max_requests_per_host,
                             "The limit on running async calls per host.")
      .def(
          "set_idle_callback",
          [](Dispatcher& self, const std::optional<py::function>& callback) {
            if (!callback) {
              self.set_idle_callback(nullptr);
              return;
            }
            PythonCallable callable(*callback);
            self.set_idle_callback([callable] { callable.call(); });
          },
          py::arg("callback"),
          "callback(): called (outside the lock) each time a finished call leaves no call running, async or "
          "sync. None clears it. An exception it raises is raised by the method that finished the call.")
      .def(
          "set_lock_observer",
          [](Dispatcher& self, const std::optional<py::function>& observer) {
            if (!observer) {
              self.set_lock_observer(nullptr);
              return;
            }
            PythonCallable callable(*observer);
            self.set_lock_observer([callable](const dispatcher::LockedSectionReport& report) {
              callable.call(dispatcher::kLockedSectionNames.name(report.section), report.ops);
            });
          },
          py::arg("observer"),
          "observer(section, ops): called right after each locked section releases the lock, with the "
          "section's name ('enqueue', 'promote', 'finished', 'executed', 'set_limit', 'cancel_all') and the "
          "elements it touched under the lock (the counted work a simulator charges, op_counter.h). None "
          "clears it.")
      .def("enqueue", checked(&Dispatcher::enqueue), py::arg("call"),
           "Queues an async call and promotes; promoted calls reach the executor before this returns. "
           "ValueError if the call was already enqueued or executed.")
      .def("finished", checked(&Dispatcher::finished), py::arg("call"),
           "An async call the executor was given is done: frees its slot, promotes, and runs the idle "
           "callback if nothing runs any more. ValueError if the call was not running.")
      .def("executed", checked(&Dispatcher::executed), py::arg("call"),
           "A synchronous call started: listed as running, never limited, never counted per host.")
      .def("finished_sync", checked(&Dispatcher::finished_sync), py::arg("call"),
           "A synchronous call ended. ValueError if it was not a running sync call.")
      .def(
          "cancel_all",
          [](Dispatcher& self) {
            self.cancel_all();
            raise_callback_errors();
          },
          "Cancels every queued and running call. No list changes: running calls keep their slot until "
          "finished, queued calls are still promoted.")
      .def("ready_async_calls", &Dispatcher::ready_async_calls, "Queued async calls, in FIFO order.")
      .def("running_async_calls", &Dispatcher::running_async_calls,
           "Running async calls, in promotion order.")
      .def("running_sync_calls", &Dispatcher::running_sync_calls,
           "Running sync calls, in the order executed.")
      .def("queued_calls_count", &Dispatcher::queued_calls_count, "How many async calls wait.")
      .def("running_calls_count", &Dispatcher::running_calls_count, "How many calls run, async and sync.")
      .def_property_readonly(
          "ops_under_lock", &Dispatcher::ops_under_lock,
          "Elements touched while holding the lock since construction (op_counter.h rules).")
      .def_property_readonly("locked_sections", &Dispatcher::locked_sections,
                             "How many times the lock was taken since construction.");
}

void bind_dispatcher(py::module_& models) {
  py::module_ m = models.def_submodule(
      "dispatcher",
      "OkHttp's Dispatcher (PR #4581), the C++ model: Dispatcher, Call, RecordingExecutor, strategies().");
  static const std::string strategies_doc =
      "The Dispatcher's strategy names: " + join(dispatcher::kStrategyNames.names()) + ".";
  m.def(
      "strategies", [] { return dispatcher::kStrategyNames.names(); }, strategies_doc.c_str());
  bind_call(m);
  bind_executors(m);
  bind_dispatcher_class(m);
}

}  // namespace

const ModelBindingRegistration registration("dispatcher", &bind_dispatcher);

}  // namespace perflab::python
