// The _perflab extension module: the harness at the top level, the models in _perflab.models.
// analysis/python/perflab/ wraps it into the documented Python API (DataFrames, Dask).
#include "analysis/module/bindings.h"

PYBIND11_MODULE(_perflab, module) {
  module.doc() = "perflab's C++ core; use the `perflab` package, which wraps it.";
  perflab::python::bind_harness(module);
  auto models = module.def_submodule("models", "The models of the four studies, bound from C++.");
  perflab::python::bind_models(models);
}
