// See real_storage.h.
#include "scenarios/share/real_storage.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "scenarios/share/real_protocol.h"
#include "sim/real/frame_inbox.h"
#include "sim/real/shaped_link.h"
#include "sim/real/wire_codec.h"

namespace perflab::share_study {
namespace {

constexpr int kIdleTimeoutMs = 60'000;               // the downloader sends something at least this often
constexpr std::uint64_t kMaxMessages = 100'000'000;  // far above any download: a loop that cannot run away

struct Fault {
  std::uint64_t storage_dies_after = 0;
  std::uint64_t server_dies_after = 0;
};

Fault fault_from_environment() {
  Fault fault;
  const char* text = std::getenv(kFaultVariable);
  if (text == nullptr) return fault;
  const std::string value = text;
  for (auto [prefix, field] : {std::pair{"storage-dies-after=", &fault.storage_dies_after},
                               std::pair{"server-dies-after=", &fault.server_dies_after}}) {
    const std::string p = prefix;
    if (value.rfind(p, 0) == 0) *field = std::strtoull(value.c_str() + p.size(), nullptr, 10);
  }
  return fault;
}

int fail(const std::string& message) {
  std::fprintf(stderr, "perflab: storage servers: %s\n", message.c_str());
  return 3;
}

// Server `server`'s answers to one message of calls: its share's bytes for every span.
std::vector<std::vector<std::string>> answer(const share::EncodedFile& file, int server,
                                             const std::vector<WireCall>& calls, std::uint64_t& bytes) {
  std::vector<std::vector<std::string>> answers;
  answers.reserve(calls.size());
  for (const auto& call : calls) {
    std::vector<std::string> data;
    for (const auto& span : call.spans) {
      data.push_back(file.read(server, span.start, span.length));
      bytes += data.back().size();
    }
    answers.push_back(std::move(data));
  }
  return answers;
}

}  // namespace

int run_storage(std::uint16_t port, const share::EncodedFile& file, const NetworkSpec& network,
                std::vector<Rng> reply_rngs) {
  const int servers = static_cast<int>(reply_rngs.size());
  auto created = real::FrameInbox::create();
  if (!created.ok()) return fail(created.status().message());
  real::FrameInbox inbox = std::move(created).value();
  real::DeadlineSleeper unused;  // the links' own receive() is not used: the inbox waits for them
  std::vector<std::unique_ptr<real::ShapedLink>> links;
  for (int s = 0; s < servers; ++s) {
    auto fd = real::connect_loopback(port);
    if (!fd.ok()) return fail(fd.status().message());
    links.push_back(std::make_unique<real::ShapedLink>(std::move(fd).value(), network,
                                                       reply_rngs[static_cast<size_t>(s)], unused));
    Status hello = real::send_frame(links.back()->fd(),
                                    {kHello, 0, 0, real::encode_number(static_cast<std::uint32_t>(s))});
    if (!hello.ok()) return fail(hello.message());
    Status added = inbox.add(s, links.back()->fd());
    if (!added.ok()) return fail(added.message());
  }

  const Fault fault = fault_from_environment();
  std::vector<std::uint64_t> calls_received(static_cast<size_t>(servers), 0);
  std::vector<bool> dead(static_cast<size_t>(servers), false);
  std::uint64_t messages = 0;
  std::uint64_t calls_total = 0;
  bool a_server_died = false;  // the fault kills one server only
  std::uint64_t bytes_served = 0;
  int open = servers;
  while (messages < kMaxMessages) {
    auto arrivals = inbox.next(/*block=*/true, kIdleTimeoutMs);
    if (!arrivals.ok()) return fail(arrivals.status().message());
    for (auto& arrival : *arrivals) {
      const int s = arrival.link;
      real::ShapedLink& link = *links[static_cast<size_t>(s)];
      if (!arrival.frame) {
        if (--open == 0) return 0;  // the downloader closed every link: nothing more to serve
        continue;
      }
      if (dead[static_cast<size_t>(s)]) continue;
      const real::Frame& frame = *arrival.frame;
      ++messages;
      Status sent = Status::OK();
      switch (frame.kind) {
        case kDyhb:
          sent = link.send(kDyhbAnswer, frame.id, "");
          break;
        case kCalls: {
          const std::uint64_t count = ++calls_received[static_cast<size_t>(s)];
          if (count == fault.server_dies_after && !a_server_died) {
            a_server_died = true;
            link.shut_down();  // this server dies: its link ends, its calls go unanswered
            dead[static_cast<size_t>(s)] = true;
            continue;
          }
          if (++calls_total == fault.storage_dies_after) raise(SIGKILL);
          auto calls = decode_calls(frame.payload);
          if (!calls.ok()) return fail(calls.status().message());
          sent = link.send(kAnswers, frame.id, encode_answers(answer(file, s, *calls, bytes_served)));
          break;
        }
        case kBye: {
          StorageReport report{inbox.oversleep(), bytes_served};
          sent = link.send(kReport, frame.id, encode_report(report));
          return sent.ok() ? 0 : fail(sent.message());
        }
        default:
          return fail("unexpected message kind " + std::to_string(frame.kind) + " on link " +
                      std::to_string(s));
      }
      if (!sent.ok()) return fail(sent.message());
    }
  }
  return fail("served more than " + std::to_string(kMaxMessages) + " messages");
}

}  // namespace perflab::share_study
