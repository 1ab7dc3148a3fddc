// See real_controller.h.
#include "scenarios/prefetch/real_controller.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "models/prefetch/classpath.h"
#include "scenarios/prefetch/real_protocol.h"
#include "sim/real/deadline_sleeper.h"
#include "sim/real/shaped_link.h"

namespace perflab::prefetch_study {
namespace {

constexpr int kIdleTimeoutMs = 120'000;          // the agent sends something at least this often
constexpr std::uint64_t kMaxRequests = 10'000'000;  // far above any trace: a loop that cannot run away

// The request number at which the test hook kills the controller, or 0.
std::uint64_t dies_after() {
  const char* fault = std::getenv(kFaultVariable);
  const std::string prefix = "controller-dies-after=";
  if (fault == nullptr || std::string(fault).rfind(prefix, 0) != 0) return 0;
  return std::strtoull(fault + prefix.size(), nullptr, 10);
}

Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in) return Status::Error(path + ": cannot read the JAR");
  return bytes.str();
}

class Controller {
 public:
  Controller(const JGitInputs& inputs, const JobOptions& options, prefetch::Classpath classpath,
             std::vector<std::string> jar_paths)
      : options_(options),
        classpath_(std::move(classpath)),
        jar_paths_(std::move(jar_paths)),
        server_(inputs.graph, options.server) {}

  // The reply's kind and payload.
  Result<std::pair<MessageKind, std::string>> answer(const real::Frame& request) {
    switch (request.kind) {
      case kFetch3:
      case kFetch:
        return classes_reply(request);
      case kJar: {
        auto jar = decode_index(request.payload);
        if (!jar.ok()) return jar.status();
        if (*jar >= jar_paths_.size()) return Status::Error("no JAR " + std::to_string(*jar));
        auto bytes = read_file(jar_paths_[*jar]);
        if (!bytes.ok()) return bytes.status();
        return std::pair{kJarBytes, std::move(bytes).value()};
      }
      default:
        return Status::Error("unexpected request kind " + std::to_string(request.kind));
    }
  }

  // After the JAR's bytes are written out (JarLoaderImpl.writeJarTo), or when the agent says it has it.
  void jar_present(std::uint32_t jar) { server_.notify_jar_present(static_cast<int>(jar)); }
  const prefetch::ServerStats& stats() const { return server_.stats(); }

 private:
  Result<std::pair<MessageKind, std::string>> classes_reply(const real::Frame& request) {
    const auto before = server_.stats();
    std::vector<prefetch::SentClass> sent;
    if (request.kind == kFetch3) {
      sent = server_.fetch3(request.payload);
    } else if (auto one = server_.fetch(request.payload)) {
      sent.push_back(*one);
    }
    const auto& after = server_.stats();
    auto work = static_cast<double>(after.classes_loaded - before.classes_loaded + after.classes_scanned -
                                    before.classes_scanned);
    real::burn_cpu(work * options_.server_cpu_per_class);
    std::vector<WireClass> wire;
    wire.reserve(sent.size());
    for (auto& s : sent) {
      WireClass c{std::move(s), ""};
      if (c.sent.image_inline) {
        auto location = classpath_.find(c.sent.name);
        if (!location) return Status::Error("class " + c.sent.name + " is not on the classpath");
        auto bytes = classpath_.read_class(*location);
        if (!bytes.ok()) return bytes.status();
        c.bytes = std::move(bytes).value();
      }
      wire.push_back(std::move(c));
    }
    return std::pair{kClasses, encode_classes(wire)};
  }

  const JobOptions& options_;
  prefetch::Classpath classpath_;
  std::vector<std::string> jar_paths_;
  prefetch::PrefetchServer server_;
};

int fail(const std::string& message) {
  std::fprintf(stderr, "perflab: controller: %s\n", message.c_str());
  return 3;
}

}  // namespace

int run_controller(std::uint16_t port, const JGitInputs& inputs, const JobOptions& options,
                   const NetworkSpec& network, Rng latency_rng) {
  auto jar_paths = expand_classpath(options.classpath);
  if (!jar_paths.ok()) return fail(jar_paths.status().message());
  auto classpath = prefetch::Classpath::Open(*jar_paths);
  if (!classpath.ok()) return fail(classpath.status().message());
  Controller controller(inputs, options, std::move(classpath).value(), *jar_paths);

  auto fd = real::connect_loopback(port);
  if (!fd.ok()) return fail(fd.status().message());
  real::DeadlineSleeper sleeper;
  real::ShapedLink link(std::move(fd).value(), network, latency_rng, sleeper);
  const std::uint64_t die_at = dies_after();
  std::uint64_t bytes_sent = 0;
  for (std::uint64_t served = 1; served <= kMaxRequests; ++served) {
    auto request = link.receive(kIdleTimeoutMs);
    if (!request.ok()) return fail(request.status().message());
    if (!request->has_value()) return 0;  // the agent closed: nothing more to serve
    const real::Frame& frame = **request;
    if (served == die_at) raise(SIGKILL);
    if (frame.kind == kJarPresent) {
      auto jar = decode_index(frame.payload);
      if (!jar.ok()) return fail(jar.status().message());
      controller.jar_present(*jar);
      continue;
    }
    if (frame.kind == kBye) {
      ControllerReport report{controller.stats(), sleeper.stats(), bytes_sent};
      auto sent = link.send(kReport, frame.id, encode_report(report));
      return sent.ok() ? 0 : fail(sent.message());
    }
    auto reply = controller.answer(frame);
    if (!reply.ok()) return fail(reply.status().message());
    bytes_sent += reply->second.size();
    auto sent = link.send(reply->first, frame.id, std::move(reply->second));
    if (!sent.ok()) return fail(sent.message());
    if (frame.kind == kJar) controller.jar_present(*decode_index(frame.payload));
  }
  return fail("served more than " + std::to_string(kMaxRequests) + " requests");
}

}  // namespace perflab::prefetch_study
