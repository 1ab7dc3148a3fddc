// Status and Result<T>: how every perflab layer reports an error without throwing.
// A Status is either OK or carries one human-readable message ("where: what is wrong, what was expected").
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace perflab {

class Status {
 public:
  Status() = default;
  static Status OK() { return {}; }
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !failed_; }
  const std::string& message() const { return message_; }

  // Prefixes the message with a location or context, e.g. "jgit.toml:12: ".
  Status with_context(const std::string& context) const { return ok() ? *this : Status(context + message_); }

 private:
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}
  bool failed_ = false;
  std::string message_;
};

// A value or the Status saying why there is none.
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  Result(Status status) : value_(std::move(status)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(value_); }
  const T& value() const& { return std::get<T>(value_); }
  T& value() & { return std::get<T>(value_); }
  T&& value() && { return std::get<T>(std::move(value_)); }
  Status status() const { return ok() ? Status::OK() : std::get<Status>(value_); }

  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> value_;
};

}  // namespace perflab
