// The pieces of the _perflab extension, one per file: the harness (harness.cpp) and one binder per model
// (models_<study>.cpp), each adding its classes and functions to the module it is given.
#pragma once

#include <pybind11/pybind11.h>

namespace perflab::python {

void bind_harness(pybind11::module_& module);

// perflab.models: the C++ models themselves, for scripting and for tests that drive the same objects.
void bind_models(pybind11::module_& models);

}  // namespace perflab::python
