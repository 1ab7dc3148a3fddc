// The share study's wire protocol, for both engines: what the downloader and each storage server say over
// their link (a transport's messages, sim/engines/transport/transport.h). It is encoded once, so the sim
// charges the bytes the real engine sends. A client turn's remote calls to one server travel as one kCalls
// message, as Twisted writes a turn's buffered Foolscap calls in one go; the server answers them all in one
// kAnswers message (Foolscap runs one message's calls in one turn). Each call is a read() (one span) or a
// readv() (several); each answer carries the share's real bytes, short past the share's end.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "models/share/spans.h"

namespace perflab::share_study {

enum MessageKind : std::uint32_t {
  kDyhb = 2,   // "do you have block?"                                    -> kDyhbAnswer
  kCalls = 3,  // payload: the calls                                      -> kAnswers
  kBye = 4,    // the download is over                                    -> kReport, then the server ends
  kDyhbAnswer = 101,
  kAnswers = 102,
  kReport = 103,
};
// The kind's name in a download's bytes per message kind ("calls", "answers", ...).
std::string kind_name(std::uint32_t kind);

struct WireCall {
  bool readv = false;
  std::vector<share::Span> spans;  // one for read()
};

std::string encode_calls(const std::vector<WireCall>& calls);
Result<std::vector<WireCall>> decode_calls(const std::string& payload);

// The answers to `calls`: per call its data, one string per span, which `append_data(span, out)` appends to
// the message itself (a server's block is read once, straight into the message).
using AppendData = std::function<void(const share::Span& span, std::string& out)>;
std::string encode_answers(const std::vector<WireCall>& calls, const AppendData& append_data);
Result<std::vector<std::vector<std::string>>> decode_answers(const std::string& payload);

// What a storage server says when the download is over: the bytes it sent per message kind (header and
// payload) and the CPU it was charged for its calls (sim; zero on the real engine).
struct ServerReport {
  std::map<std::string, std::uint64_t> bytes_sent;
  double cpu_s = 0;
};
std::string encode_report(const ServerReport& report);
Result<ServerReport> decode_report(const std::string& payload);

}  // namespace perflab::share_study
