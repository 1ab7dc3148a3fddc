// perflab.models.pipe: the pipe study's model (models/pipe) bound as it is. run_pipeline() wires one
// experiment (a writer, the pipe under study, a pump reading it) and runs it on the model's own event loop
// in simulated time, with no SimGrid; run_real_pump() runs the real Linux pump (NuProcess's epoll loop) on
// a real child process. Units are base units: bytes, seconds, bytes/s.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "analysis/module/knob_arguments.h"
#include "analysis/module/model_bindings.h"
#include "models/pipe/bytes.h"
#include "models/pipe/event_loop.h"
#include "models/pipe/pipeline.h"
#include "models/pipe/real_pump.h"
#include "models/pipe/replay_writer.h"
#include "scenarios/pipe/pipe_study.h"

namespace py = pybind11;

namespace perflab::python {
namespace {

using pipe::PipelineOptions;
using pipe::PipelineResult;
using pipe::RealPumpOptions;
using pipe::RealPumpResult;

size_t byte_count(int64_t value, const char* what) {
  if (value < 0)
    throw py::value_error(std::string(what) + " must be >= 0 bytes, got " + std::to_string(value));
  return static_cast<size_t>(value);
}

// None: no delay given; a number: that constant D in seconds; a callable: called for each D.
std::function<double()> completion_delay(const py::object& delay) {
  if (delay.is_none()) return nullptr;
  if (PyCallable_Check(delay.ptr())) {
    PythonCallable draw(delay.cast<py::function>());
    return [draw] {
      const auto seconds = draw.call_or<double>(0.0);
      if (seconds >= 0) return seconds;
      keep_callback_error(PyExc_ValueError,
                          "completion_delay returned " + std::to_string(seconds) + " seconds, expected >= 0");
      return 0.0;
    };
  }
  const auto seconds = delay.cast<double>();
  if (!(seconds >= 0)) {
    throw py::value_error("completion_delay must be >= 0 seconds, got " + std::to_string(seconds));
  }
  return [seconds] { return seconds; };
}

// None: no trace; a str or path: a trace file (time_s,bytes); else a list of (time_s, bytes) writes, checked
// by the same parser as a trace file.
std::vector<pipe::WriteEvent> trace_events(const py::object& trace) {
  if (trace.is_none()) return {};
  if (py::isinstance<py::str>(trace) || py::hasattr(trace, "__fspath__")) {
    return value_or_throw(pipe::load_trace(py::str(trace).cast<std::string>()));
  }
  std::string text = "time_s,bytes\n";
  for (const py::handle write : trace) {
    const auto pair = write.cast<py::tuple>();
    if (pair.size() != 2) {
      throw py::value_error("trace: each write is (time_s, bytes), got " + std::string(py::repr(write)));
    }
    text += std::string(py::repr(py::float_(pair[0]))) + "," + std::string(py::str(py::int_(pair[1]))) + "\n";
  }
  return value_or_throw(pipe::parse_trace(text, "trace"));
}

// The study's knobs run_pipeline takes as keywords (the rest are the scenario's: its trace file, the
// micro engine's child).
const std::vector<std::string> kPipelineKnobs = {
    "platform",       "mechanism",    "pump",       "pipe_buffer", "writer",
    "transfer_bytes", "read_size",    "handler_c0", "handler_c1",  "wake_latency",
    "pack_rate",      "relay_buffer", "relay_cost", "inner_pipe",  "timer_resolution",
    "chunk_size",     "write_rate"};

PipelineResult run_pipeline(double timer_phase, const py::object& delay, const py::object& trace,
                            uint64_t content_seed, const py::kwargs& knobs) {
  PipelineOptions o = knob_options(pipe_study::knobs(), kPipelineKnobs, knobs, "run_pipeline").pipeline;
  o.timer_phase = timer_phase;
  o.completion_delay = completion_delay(delay);
  o.trace = trace_events(trace);
  o.content_seed = content_seed;
  throw_if_error(pipe::validate(o));
  throw_if_error(pipe::validate_inputs(o));

  pipe::EventLoop loop;
  pipe::Pipeline pipeline(o, loop, nullptr);
  std::optional<Result<double>> end;
  {
    // Other Python threads run meanwhile; a delay callable takes the GIL back for each draw.
    py::gil_scoped_release release;
    end.emplace(loop.run(pipeline.processes()));
  }
  raise_callback_errors();
  throw_if_error(end->status());
  return pipeline.result();
}

RealPumpResult run_real_pump(std::vector<std::string> argv, const py::bytes& stdin_data, int64_t pipe_size,
                             int64_t read_size, double timeout_s) {
  if (argv.empty())
    throw py::value_error("run_real_pump: argv is empty, expected a program and its arguments");
  RealPumpOptions o;
  o.argv = std::move(argv);
  o.stdin_data = stdin_data;
  o.pipe_size = byte_count(pipe_size, "pipe_size");
  o.read_size = byte_count(read_size, "read_size");
  o.timeout_s = timeout_s;
  std::optional<Result<RealPumpResult>> result;
  {
    py::gil_scoped_release release;
    result.emplace(pipe::run_real_pump(o));
  }
  return value_or_throw(std::move(*result));
}

void bind_results(py::module_& m) {
  py::class_<PipelineResult>(m, "PipelineResult", "What one simulated transfer measured.")
      .def_readonly("duration_s", &PipelineResult::duration_s, "Seconds until the reader saw end of stream.")
      .def_readonly("bytes", &PipelineResult::bytes,
                    "Bytes the reader got (pack data plus side-band framing for git).")
      .def_readonly("payload_bytes", &PipelineResult::payload_bytes, "Pack (or written) bytes moved.")
      .def_readonly("reads", &PipelineResult::reads, "Completed reads that returned bytes.")
      .def_readonly("poll_sleeps", &PipelineResult::poll_sleeps, "Sleep(1) calls of the emulated poll (H2).")
      .def_readonly("relays", &PipelineResult::relays, "upload-pack's loop iterations that read (git).")
      .def_readonly("delayed_completions", &PipelineResult::delayed_completions, "Reads held back by H1.")
      .def_readonly("writer_blocked_s", &PipelineResult::writer_blocked_s,
                    "Seconds the writer of the pipe under study waited on it.")
      .def_readonly("conserved", &PipelineResult::conserved,
                    "Whether the checksum of what the reader got equals that of what was written.")
      .def_property_readonly(
          "throughput",
          [](const PipelineResult& r) { return static_cast<double>(r.payload_bytes) / r.duration_s; },
          "payload_bytes / duration_s, in bytes/s.");

  py::class_<RealPumpResult>(m, "RealPumpResult", "What the real pump read from a real child.")
      .def_readonly("bytes", &RealPumpResult::bytes, "Bytes read.")
      .def_property_readonly(
          "checksum", [](const RealPumpResult& r) { return r.checksum.value(); },
          "The checksum of every byte read, in order (compare with checksum(data)).")
      .def_readonly("reads", &RealPumpResult::reads, "Reads that returned bytes.")
      .def_readonly("pipe_size", &RealPumpResult::pipe_size,
                    "The pipe size the kernel set, in bytes (F_GETPIPE_SZ).")
      .def_readonly("seconds", &RealPumpResult::seconds, "Seconds from spawn to end of stream.")
      .def_readonly("exited", &RealPumpResult::exited,
                    "True if the child exited; False if a signal killed it.")
      .def_readonly("exit_status", &RealPumpResult::exit_status, "The child's exit status (-1 if killed).")
      .def_readonly("signal", &RealPumpResult::signal, "The signal that killed the child, or 0.")
      .def_readonly("child_cpu_s", &RealPumpResult::child_cpu_s,
                    "The child's own CPU seconds (/proc/PID/schedstat before reaping), -1 if unknown.")
      .def_readonly("descendants_cpu_s", &RealPumpResult::descendants_cpu_s,
                    "CPU seconds of the processes the child waited for (rusage minus its own).")
      .def_property_readonly(
          "head", [](const RealPumpResult& r) { return py::bytes(r.head); },
          "The first bytes read (up to 16).");
}

void bind_pipe(py::module_& models) {
  py::module_ m = models.def_submodule(
      "pipe",
      "Slow pipe reads on Windows (NuProcess #117 / PR #118), the C++ model: run_pipeline() in simulated "
      "time, run_real_pump() on a real child, checksum(), content().");
  bind_results(m);
  // Defaults are the model's own (PipelineOptions); what a knob of the study means is said once, in its
  // binding (scenarios/pipe/pipe_study.cpp), and quoted here.
  const PipelineOptions d;
  static const std::string doc =
      "run_pipeline(**options): runs one transfer on the model's event loop and returns its PipelineResult. "
      "Every option is a keyword, checked as in a scenario file (ValueError naming it), then by the model's "
      "validate(). Sizes, durations and rates are numbers in bytes, seconds and bytes/s, or strings with a "
      "unit as a scenario file writes them (\"64KiB\").\n\n" +
      knob_lines(pipe_study::knobs().specs(), kPipelineKnobs) +
      "timer_phase: where the Windows tick grid starts, seconds (the study draws it per seed).\n"
      "completion_delay: H1's D in seconds: a number, or a callable returning one per delayed read.\n"
      "trace: the writes to replay (trace): a trace file path (time_s,bytes CSV) or a list of "
      "(time_s, bytes).\n"
      "content_seed: seeds the generated pack bytes.";
  m.def("run_pipeline", &run_pipeline, py::kw_only(), py::arg("timer_phase") = d.timer_phase,
        py::arg("completion_delay") = py::none(), py::arg("trace") = py::none(),
        py::arg("content_seed") = d.content_seed, doc.c_str());
  const RealPumpOptions r;
  m.def(
      "run_real_pump", &run_real_pump, py::arg("argv"), py::arg("stdin") = py::bytes(""),
      py::arg("pipe_size") = r.pipe_size, py::arg("read_size") = r.read_size,
      py::arg("timeout_s") = r.timeout_s,
      "Starts argv (argv[0] looked up in PATH) with stdout on a pipe sized with F_SETPIPE_SZ, reads it with "
      "NuProcess's level-triggered epoll loop until end of stream and returns a RealPumpResult. "
      "stdin: bytes written to the child's stdin (at most 64 KiB). pipe_size, read_size: bytes. "
      "timeout_s: a deadline for the whole run, in seconds; a child still running then is killed and "
      "ValueError is raised, as for a program that cannot start.");
  m.def(
      "checksum",
      [](const py::bytes& data) {
        const auto text = static_cast<std::string_view>(data);
        pipe::Checksum sum;
        sum.add(reinterpret_cast<const uint8_t*>(text.data()), text.size());
        return sum.value();
      },
      py::arg("data"), "The model's order-sensitive checksum of `data` (bytes), as RealPumpResult.checksum.");
  m.def(
      "content",
      [](uint64_t seed, uint64_t offset, size_t size) {
        const pipe::Bytes bytes = pipe::content(seed, offset, size);
        return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
      },
      py::arg("seed"), py::arg("offset"), py::arg("size"),
      "The model's deterministic stand-in for pack data: `size` bytes from stream offset `offset` of stream "
      "`seed`.");
}

}  // namespace

const ModelBindingRegistration registration("pipe", &bind_pipe);

}  // namespace perflab::python
