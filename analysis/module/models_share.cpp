// perflab.models.share: the Spans and DataSpans of Tahoe-LAFS's downloader (models/share/spans.h, after
// src/allmydata/util/spans.py) bound as they are, with spans.py's Python spelling where it has one: len(),
// iteration over (start, length) ranges, `in`, + - & for union, difference and intersection.
// Offsets and lengths are non-negative integers below 2**63 (the C++ holds them as uint64).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "analysis/module/model_bindings.h"
#include "models/share/spans.h"

namespace py = pybind11;

namespace perflab::python {
namespace {

using share::DataSpans;
using share::Span;
using share::Spans;

// A Python offset or length as the model's uint64; ValueError if negative.
uint64_t offset(int64_t value, const char* what) {
  if (value < 0) throw py::value_error(std::string(what) + " must be >= 0, got " + std::to_string(value));
  return static_cast<uint64_t>(value);
}

// A Python range [start, start+length) as the model's (start, length); ValueError if either is negative or
// the range ends past 2**63 - 1 (the model's ends would overflow).
std::pair<uint64_t, uint64_t> range(int64_t start, int64_t length) {
  uint64_t s = offset(start, "start"), n = offset(length, "length");
  constexpr uint64_t kLimit = uint64_t{1} << 63;
  if (n > kLimit - 1 - s) {
    throw py::value_error("start + length = " + std::to_string(s) + " + " + std::to_string(n) +
                          " ends past 2**63 - 1, expected a range below 2**63");
  }
  return {s, n};
}

std::vector<std::pair<uint64_t, uint64_t>> ranges(const Spans& spans) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const Span& span : spans) out.emplace_back(span.start, span.length);
  return out;
}

std::string spans_repr(const Spans& spans) {
  std::string text = "Spans([";
  for (const Span& span : spans) {
    if (text.back() != '[') text += ", ";
    text += "(" + std::to_string(span.start) + ", " + std::to_string(span.length) + ")";
  }
  return text + "])";
}

std::optional<py::bytes> as_bytes(const std::optional<std::string>& data) {
  if (!data) return std::nullopt;
  return py::bytes(*data);
}

void bind_spans(py::module_& m) {
  py::class_<Spans>(m, "Spans",
                    "A set of integers held as sorted, disjoint, non-adjacent [start, start+length) ranges "
                    "(Tahoe's Spans): adding a range that overlaps or touches others merges them.")
      .def(py::init<>(), "An empty Spans.")
      .def(py::init([](int64_t start, int64_t length) {
             auto [s, n] = range(start, length);
             return Spans(s, n);
           }),
           py::arg("start"), py::arg("length"), "Spans(start, length): the integers start .. start+length-1.")
      .def(
          "add",
          [](Spans& self, int64_t start, int64_t length) -> Spans& {
            auto [s, n] = range(start, length);
            return self.add(s, n);
          },
          py::arg("start"), py::arg("length"), py::return_value_policy::reference_internal,
          "Adds the range [start, start+length); returns self, so calls chain.")
      .def(
          "remove",
          [](Spans& self, int64_t start, int64_t length) -> Spans& {
            auto [s, n] = range(start, length);
            return self.remove(s, n);
          },
          py::arg("start"), py::arg("length"), py::return_value_policy::reference_internal,
          "Removes the range [start, start+length); returns self.")
      .def("len", &Spans::len, "How many integers are held (spans.py's len()).")
      .def("__len__", &Spans::len, "How many integers are held.")
      .def(
          "__bool__", [](const Spans& self) { return !self.empty(); }, "Whether any integer is held.")
      .def(
          "contains",
          [](const Spans& self, int64_t start, int64_t length) {
            auto [s, n] = range(start, length);
            return self.contains(s, n);
          },
          py::arg("start"), py::arg("length"), "Whether the whole range [start, start+length) is held.")
      .def(
          "__contains__",
          [](const Spans& self, int64_t value) { return self.contains(offset(value, "value"), 1); },
          py::arg("value"), "Whether the integer is held.")
      .def(
          "__iter__", [](const Spans& self) { return py::iter(py::cast(ranges(self))); },
          "Iterates over the (start, length) ranges, in order.")
      .def("each", &Spans::each, "Every integer held, ascending.")
      .def(
          "__add__", [](const Spans& a, const Spans& b) { return a + b; }, py::is_operator(), "Union.")
      .def(
          "__sub__", [](const Spans& a, const Spans& b) { return a - b; }, py::is_operator(), "Difference.")
      .def(
          "__and__", [](const Spans& a, const Spans& b) { return a & b; }, py::is_operator(), "Intersection.")
      .def(
          "__iadd__", [](Spans& a, const Spans& b) -> Spans& { return a += b; }, py::is_operator(),
          py::return_value_policy::reference_internal, "In-place union.")
      .def(
          "__isub__", [](Spans& a, const Spans& b) -> Spans& { return a -= b; }, py::is_operator(),
          py::return_value_policy::reference_internal, "In-place difference.")
      .def(
          "__eq__", [](const Spans& a, const Spans& b) { return a.spans() == b.spans(); }, py::is_operator(),
          "Whether both hold the same integers.")
      .def(
          "__copy__", [](const Spans& self) { return Spans(self); }, "A copy.")
      .def("__repr__", &spans_repr);
}

void bind_data_spans(py::module_& m) {
  py::class_<DataSpans>(m, "DataSpans",
                        "Sparse bytes as sorted, merged (start, data) chunks (Tahoe's DataSpans): new data "
                        "overwrites old, get() returns bytes only if the whole range is held.")
      .def(py::init<>(), "An empty DataSpans.")
      .def(
          "add",
          [](DataSpans& self, int64_t start, const py::bytes& data) {
            std::string bytes = data;
            auto [s, n] = range(start, static_cast<int64_t>(bytes.size()));  // before `bytes` moves
            self.add(s, std::move(bytes));
          },
          py::arg("start"), py::arg("data"),
          "Holds `data` (bytes) at offset `start`, overwriting what was there.")
      .def(
          "get",
          [](const DataSpans& self, int64_t start, int64_t length) {
            auto [s, n] = range(start, length);
            return as_bytes(self.get(s, n));
          },
          py::arg("start"), py::arg("length"),
          "The bytes of [start, start+length), or None unless all are held.")
      .def(
          "remove",
          [](DataSpans& self, int64_t start, int64_t length) {
            auto [s, n] = range(start, length);
            self.remove(s, n);
          },
          py::arg("start"), py::arg("length"), "Forgets the bytes of [start, start+length).")
      .def(
          "pop",
          [](DataSpans& self, int64_t start, int64_t length) {
            auto [s, n] = range(start, length);
            return as_bytes(self.pop(s, n));
          },
          py::arg("start"), py::arg("length"), "get(), and remove the range if it was all held.")
      .def("spans", &DataSpans::spans, "The offsets held, as a Spans.")
      .def("len", &DataSpans::len, "How many bytes are held.")
      .def("__len__", &DataSpans::len, "How many bytes are held.")
      .def("clear", &DataSpans::clear, "Forgets everything.")
      .def(
          "chunks",
          [](const DataSpans& self) {
            py::list chunks;
            for (const DataSpans::Chunk& chunk : self.chunks())
              chunks.append(py::make_tuple(chunk.start, py::bytes(chunk.data)));
            return chunks;
          },
          "The (start, data) chunks, sorted and merged.")
      .def("__repr__", [](const DataSpans& self) { return "DataSpans(" + spans_repr(self.spans()) + ")"; });
}

void bind_share(py::module_& models) {
  py::module_ m = models.def_submodule(
      "share", "Tahoe-LAFS's downloader bookkeeping (ticket #1268), the C++ model: Spans, DataSpans.");
  bind_spans(m);
  bind_data_spans(m);
}

}  // namespace

const ModelBindingRegistration registration("share", &bind_share);

}  // namespace perflab::python
