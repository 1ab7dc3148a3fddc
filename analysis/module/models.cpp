// perflab.models: one binder per model (models_<study>.cpp), gathered here, and where callback errors wait
// to be raised (model_bindings.h).
#include "analysis/module/bindings.h"
#include "analysis/module/model_bindings.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace py = pybind11;

namespace perflab::python {
namespace {

std::vector<ModelBinding>& registry() {
  static std::vector<ModelBinding> bindings;
  return bindings;
}

// Exceptions raised by callbacks, per thread (a callback runs on the thread that called the model, so a
// thread never raises another's), oldest first, in the list `errors` of a threading.local. The module owns
// it (its attribute _callback_errors) and lives as long as the interpreter; this is a borrowed handle.
py::handle callback_errors;

py::list this_threads_callback_errors() {
  py::handle local = callback_errors;
  if (!py::hasattr(local, "errors")) local.attr("errors") = py::list();
  return local.attr("errors");
}

}  // namespace

ModelBindingRegistration::ModelBindingRegistration(std::string study, void (*bind)(py::module_& models)) {
  auto& bindings = registry();
  auto at =
      std::find_if(bindings.begin(), bindings.end(), [&](const ModelBinding& b) { return b.study > study; });
  bindings.insert(at, ModelBinding{std::move(study), bind});
}

const std::vector<ModelBinding>& model_bindings() {
  return registry();
}

void keep_callback_error(py::error_already_set& error) {
  this_threads_callback_errors().append(error.value());
}

void keep_callback_error(PyObject* type, const std::string& message) {
  py::gil_scoped_acquire gil;
  PyErr_SetString(type, message.c_str());
  py::error_already_set error;
  keep_callback_error(error);
}

void raise_callback_errors() {
  py::list errors = this_threads_callback_errors();
  if (errors.empty()) return;
  py::object first = errors[0];
  PyList_SetSlice(errors.ptr(), 0, static_cast<Py_ssize_t>(errors.size()), nullptr);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(first.ptr())), first.ptr());
  throw py::error_already_set();
}

void bind_models(py::module_& models) {
  py::object errors = py::module_::import("threading").attr("local")();
  models.attr("_callback_errors") = errors;
  callback_errors = errors;
  for (const auto& binding : model_bindings()) binding.bind(models);
  // def_submodule() makes attributes, not importable modules: list them so that
  // `import _perflab.models.dispatcher` and `from _perflab.models.share import Spans` work too.
  py::dict modules = py::module_::import("sys").attr("modules");
  const std::string prefix = py::str(models.attr("__name__"));
  modules[py::str(prefix)] = models;
  for (const auto& binding : model_bindings()) {
    modules[py::str(prefix + "." + binding.study)] = models.attr(binding.study.c_str());
  }
}

}  // namespace perflab::python
