// perflab.models: one binder per model (models_<study>.cpp), gathered here.
#include "analysis/module/bindings.h"

namespace perflab::python {

void bind_models(pybind11::module_& /*models*/) {}

}  // namespace perflab::python
