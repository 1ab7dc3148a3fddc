// The harness, bound: studies, scenarios, the forked runner and the statistics of analysis/.
#include "analysis/module/bindings.h"

namespace perflab::python {

void bind_harness(pybind11::module_& /*module*/) {}

}  // namespace perflab::python
