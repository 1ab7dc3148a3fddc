// perflab.models: one binder per study (models_<study>.cpp), which registers itself as studies do
// (sim/study/study.h), so bind_models() in models.cpp finds it and a new study's bindings touch no shared
// file; and the few helpers the binders share: a model's Status becomes a Python ValueError, and a Python
// callable handed to a model (an idle callback, a failure callback, a delay draw) is wrapped so the model can
// call it and drop it safely.
//
// Callbacks: the models call them on the thread that called the model, outside any model lock. The wrapper
// takes the GIL (a no-op when the thread already holds it) and keeps the callable alive as long as the model
// keeps the std::function. An exception raised by the callable is not thrown through the model, whose lists
// would be left half-updated; it is kept (per thread), the model finishes its step, and the bound method
// that led to the callback raises it (raise_callback_errors()).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "models/common/status.h"

namespace perflab::python {

// A binder adds the submodule perflab.models.<study> to `models`, with the study's classes and functions.
struct ModelBinding {
  std::string study;
  void (*bind)(pybind11::module_& models);
};
const std::vector<ModelBinding>& model_bindings();  // in study name order

struct ModelBindingRegistration {
  ModelBindingRegistration(std::string study, void (*bind)(pybind11::module_& models));
};

// Raises ValueError(status.message()) unless the status is OK.
inline void throw_if_error(const Status& status) {
  if (!status.ok()) throw pybind11::value_error(status.message());
}

template <typename T>
T value_or_throw(Result<T> result) {
  throw_if_error(result.status());
  return std::move(result).value();
}

// Records an exception raised by a callback, to be raised by raise_callback_errors(). Needs the GIL.
void keep_callback_error(pybind11::error_already_set& error);
// Records a new exception of `type` (e.g. PyExc_ValueError) about what a callback returned. Takes the GIL.
void keep_callback_error(PyObject* type, const std::string& message);
// Raises the first exception a callback raised since the last call, if any (and forgets the others).
void raise_callback_errors();

// A Python callable owned from C++: copies share it, and the last one lets go of it under the GIL.
class PythonCallable {
 public:
  explicit PythonCallable(pybind11::function function) : held_(std::make_shared<Held>(std::move(function))) {}

  // Calls it with `args`; a Python exception is kept for raise_callback_errors().
  template <typename... Args>
  void call(Args&&... args) const {
    invoke(std::forward<Args>(args)...);
  }

  // Calls it with `args` and converts its result to R; on a Python exception, or a result that is not an
  // R (kept as a TypeError), returns `fallback`.
  template <typename R, typename... Args>
  R call_or(R fallback, Args&&... args) const {
    pybind11::gil_scoped_acquire gil;
    std::optional<pybind11::object> result = invoke(std::forward<Args>(args)...);
    if (!result) return fallback;
    try {
      return result->template cast<R>();
    } catch (const pybind11::cast_error&) {
      keep_callback_error(PyExc_TypeError, "a callback returned " + std::string(pybind11::repr(*result)) +
                                               ", which is not a " + pybind11::type_id<R>());
      return fallback;
    }
  }

 private:
  template <typename... Args>
  std::optional<pybind11::object> invoke(Args&&... args) const {
    pybind11::gil_scoped_acquire gil;
    try {
      return held_->function(std::forward<Args>(args)...);
    } catch (pybind11::error_already_set& error) {
      keep_callback_error(error);
      return std::nullopt;
    }
  }

  // Drops its reference under the GIL, whichever thread lets go of the last copy.
  struct Held {
    explicit Held(pybind11::function f) : function(std::move(f)) {}
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;
    ~Held() {
      pybind11::gil_scoped_acquire gil;
      function = pybind11::function();
    }
    pybind11::function function;
  };
  std::shared_ptr<const Held> held_;
};

}  // namespace perflab::python
