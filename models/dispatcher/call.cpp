// Call construction; see call.h.
#include "models/dispatcher/call.h"

#include <utility>

namespace perflab::dispatcher {

Call::Call(std::string host, std::string name, bool for_web_socket, FailureCallback on_failure)
    : host_(std::move(host)),
      extras_(name.empty() && !on_failure
                  ? nullptr
                  : std::make_unique<const Extras>(Extras{std::move(name), std::move(on_failure)})),
      for_web_socket_(for_web_socket) {}

CallPtr Call::Create(std::string host, std::string name, FailureCallback on_failure) {
  return std::make_shared<Call>(std::move(host), std::move(name), false, std::move(on_failure));
}

CallPtr Call::CreateWebSocket(std::string host, std::string name, FailureCallback on_failure) {
  return std::make_shared<Call>(std::move(host), std::move(name), true, std::move(on_failure));
}

}  // namespace perflab::dispatcher
