// See protocol.h. The byte layout is sim/engines/real/wire_codec.h's.
#include "scenarios/share/protocol.h"

#include <algorithm>
#include <cstring>

#include "sim/engines/real/wire_codec.h"

namespace perflab::share_study {
namespace {

using real::malformed;
using real::Reader;
using real::Writer;

constexpr std::uint32_t kMaxItems = 1u << 24;  // a count above this is a corrupt payload

}  // namespace

std::string kind_name(std::uint32_t kind) {
  switch (kind) {
    case kDyhb:
      return "dyhb";
    case kCalls:
      return "calls";
    case kBye:
      return "bye";
    case kDyhbAnswer:
      return "dyhb_answer";
    case kAnswers:
      return "answers";
    case kReport:
      return "report";
    default:
      return "kind " + std::to_string(kind);
  }
}

std::string encode_calls(const std::vector<WireCall>& calls) {
  Writer w;
  w.put(static_cast<std::uint32_t>(calls.size()));
  for (const auto& call : calls) {
    w.put(static_cast<std::uint8_t>(call.readv)).put(static_cast<std::uint32_t>(call.spans.size()));
    for (const auto& span : call.spans) w.put(span.start).put(span.length);
  }
  return w.take();
}

Result<std::vector<WireCall>> decode_calls(const std::string& payload) {
  Reader r(payload);
  std::uint32_t count = 0;
  if (!r.get(count) || count > kMaxItems) return malformed("calls");
  std::vector<WireCall> calls(count);
  for (auto& call : calls) {
    std::uint8_t readv = 0;
    std::uint32_t spans = 0;
    if (!r.get(readv) || !r.get(spans) || spans > kMaxItems) return malformed("calls");
    call.readv = readv != 0;
    call.spans.resize(spans);
    for (auto& span : call.spans) {
      if (!r.get(span.start) || !r.get(span.length)) return malformed("calls");
    }
  }
  if (!r.done()) return malformed("calls");
  return calls;
}

std::string encode_answers(const std::vector<WireCall>& calls, const AppendData& append_data) {
  // Writer's layout (what decode_answers' Reader reads), written here so that each span's data goes
  // straight into the message: a count, then per span the data's size, patched in once it is appended.
  constexpr std::uint64_t kReserveLimit = std::uint64_t{1} << 20;  // a span may ask past the share's end
  std::uint64_t expected = sizeof(std::uint32_t);
  for (const WireCall& call : calls) {
    expected += sizeof(std::uint32_t);
    for (const share::Span& span : call.spans) expected += sizeof(std::uint64_t) + span.length;
  }
  std::string out;
  out.reserve(std::min(expected, kReserveLimit));
  const auto put = [&out](auto value) { out.append(reinterpret_cast<const char*>(&value), sizeof value); };
  put(static_cast<std::uint32_t>(calls.size()));
  for (const WireCall& call : calls) {
    put(static_cast<std::uint32_t>(call.spans.size()));
    for (const share::Span& span : call.spans) {
      const size_t size_at = out.size();
      put(std::uint64_t{0});
      append_data(span, out);
      const std::uint64_t size = out.size() - size_at - sizeof(std::uint64_t);
      std::memcpy(out.data() + size_at, &size, sizeof size);
    }
  }
  return out;
}

Result<std::vector<std::vector<std::string>>> decode_answers(const std::string& payload) {
  Reader r(payload);
  std::uint32_t count = 0;
  if (!r.get(count) || count > kMaxItems) return malformed("answers");
  std::vector<std::vector<std::string>> answers(count);
  for (auto& answer : answers) {
    std::uint32_t strings = 0;
    if (!r.get(strings) || strings > kMaxItems) return malformed("answers");
    answer.resize(strings);
    for (auto& data : answer) {
      if (!r.get_bytes(data)) return malformed("answers");
    }
  }
  if (!r.done()) return malformed("answers");
  return answers;
}

std::string encode_report(const ServerReport& report) {
  Writer w;
  w.put(report.cpu_s).put(static_cast<std::uint32_t>(report.bytes_sent.size()));
  for (const auto& [kind, bytes] : report.bytes_sent) w.put_bytes(kind).put(bytes);
  return w.take();
}

Result<ServerReport> decode_report(const std::string& payload) {
  Reader r(payload);
  ServerReport report;
  std::uint32_t kinds = 0;
  if (!r.get(report.cpu_s) || !r.get(kinds) || kinds > kMaxItems) return malformed("report");
  for (std::uint32_t i = 0; i < kinds; ++i) {
    std::string kind;
    std::uint64_t bytes = 0;
    if (!r.get_bytes(kind) || !r.get(bytes)) return malformed("report");
    report.bytes_sent[kind] += bytes;
  }
  if (!r.done()) return malformed("report");
  return report;
}

}  // namespace perflab::share_study
