// A bound model's keyword arguments from the study's knob bindings (sim/study/knobs.h): a function of
// perflab.models.<study> that takes knobs takes them as keywords, each checked as a scenario file's value is
// (type, unit, range, choice: the scenario loader's to_param_value), and sets the member its binding names.
// A knob left out keeps the default the caller starts from (the options struct's own initialiser). Numbers
// for sizes, durations and rates are in base units (bytes, seconds, bytes/s); a string with a unit ("64KiB")
// is read as in a scenario file.
//
//   auto o = knob_options(pipe_study::knobs(), {"pipe_buffer", "pump"}, kwargs, "run_pipeline");
#pragma once

#include <string>
#include <vector>

#include <pybind11/pybind11.h>

#include "sim/study/knobs.h"
#include "sim/study/params.h"

namespace perflab::python {

// The values of the keyword arguments, each one of `names` (knobs in `specs`); ValueError for a value a
// scenario file could not hold, TypeError for a keyword that is none of `names`. `function` names the
// caller in the messages.
Params knob_params(const std::vector<ParamSpec>& specs, const std::vector<std::string>& names,
                   const pybind11::kwargs& kwargs, const std::string& function);

// "name (default D): meaning.\n" for each of `names`, D as a scenario file writes it: the docstring lines
// of a function's knob keywords.
std::string knob_lines(const std::vector<ParamSpec>& specs, const std::vector<std::string>& names);

// `start` with the knobs among the keyword arguments set.
template <class Options>
Options knob_options(const Knobs<Options>& knobs, const std::vector<std::string>& names,
                     const pybind11::kwargs& kwargs, const std::string& function, Options start = {}) {
  knobs.apply(knob_params(knobs.specs(), names, kwargs, function), start);
  return start;
}

}  // namespace perflab::python
