// Call construction; see call.h.
#include "models/dispatcher/call.h"

#include <utility>

namespace perflab::dispatcher {

#if defined(__GLIBCXX__) && defined(__x86_64__)
// One cache line, as call.h and lock_cost_model.h's bytes per running call say (libstdc++'s 32-byte string).
static_assert(sizeof(Call) == 64, "a Call is one 64-byte line");
#endif

std::unique_ptr<const Call::Extras> Call::make_extras(std::string name, FailureCallback on_failure) {
  if (name.empty() && !on_failure) {
    return nullptr;
  }
  return std::make_unique<const Extras>(Extras{std::move(name), std::move(on_failure)});
}

Call::Call(std::string host, std::string name, bool for_web_socket, FailureCallback on_failure)
    : Call(Key(), std::move(host), make_extras(std::move(name), std::move(on_failure)), for_web_socket) {}

Call::Call(Key /*key*/, std::string&& host, std::unique_ptr<const Extras> extras, bool for_web_socket)
    : host_(std::move(host)), extras_(std::move(extras)), for_web_socket_(for_web_socket) {}

CallPtr Call::Create(std::string host) {
  return std::make_shared<Call>(Key(), std::move(host), nullptr, false);
}

CallPtr Call::Create(std::string host, std::string name, FailureCallback on_failure) {
  return std::make_shared<Call>(Key(), std::move(host), make_extras(std::move(name), std::move(on_failure)),
                                false);
}

CallPtr Call::CreateWebSocket(std::string host, std::string name, FailureCallback on_failure) {
  return std::make_shared<Call>(Key(), std::move(host), make_extras(std::move(name), std::move(on_failure)),
                                true);
}

}  // namespace perflab::dispatcher
