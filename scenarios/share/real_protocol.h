// The wire format of the share study's real engine: what the downloader and the storage-server process say
// over each server's loopback link (sim/real/). A client turn's remote calls to one server travel as one
// kCalls message, as Twisted writes a turn's buffered Foolscap calls in one go; the server answers them all
// in one kAnswers message (Foolscap runs one message's calls in one turn). Each call is a read() (one span)
// or a readv() (several); each answer carries the share's real bytes, short past the share's end.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "models/share/spans.h"
#include "sim/real/deadline_sleeper.h"

namespace perflab::share_study {

enum MessageKind : std::uint32_t {
  kHello = 1,  // storage -> client, first on each link; payload: the server's number (real::encode_number)
  kDyhb = 2,   // "do you have block?"                          -> kDyhbAnswer
  kCalls = 3,  // payload: the calls                            -> kAnswers
  kBye = 4,    // on link 0, once the download is over          -> kReport, then the storage process exits
  kDyhbAnswer = 101,
  kAnswers = 102,
  kReport = 103,
};

struct WireCall {
  bool readv = false;
  std::vector<share::Span> spans;  // one for read()
};

std::string encode_calls(const std::vector<WireCall>& calls);
Result<std::vector<WireCall>> decode_calls(const std::string& payload);

// Per call, its data: one string per span.
std::string encode_answers(const std::vector<std::vector<std::string>>& answers);
Result<std::vector<std::vector<std::string>>> decode_answers(const std::string& payload);

// What the storage process says when the download is over.
struct StorageReport {
  real::OversleepStats oversleep;
  std::uint64_t bytes_served = 0;
};
std::string encode_report(const StorageReport& report);
Result<StorageReport> decode_report(const std::string& payload);

}  // namespace perflab::share_study
