// See protocol.h. The byte layout is sim/engines/real/wire_codec.h's.
#include "scenarios/prefetch/protocol.h"

#include <cstring>

#include "sim/engines/real/wire_codec.h"

namespace perflab::prefetch_study {
namespace {

using real::malformed;
using real::Reader;
using real::Writer;

}  // namespace

std::string encode_classes(const std::vector<WireClass>& classes) {
  Writer w;
  w.put(static_cast<std::uint32_t>(classes.size()));
  for (const auto& c : classes) {
    w.put_bytes(c.sent.name)
        .put(static_cast<std::int32_t>(c.sent.jar))
        .put(c.sent.class_file_bytes)
        .put(static_cast<std::uint8_t>(c.sent.image_inline))
        .put_bytes(c.bytes);
  }
  return w.take();
}

Result<std::vector<prefetch::SentClass>> decode_classes(const std::string& payload) {
  Reader r(payload);
  std::uint32_t count = 0;
  if (!r.get(count)) return malformed("classes");
  std::vector<prefetch::SentClass> classes;
  for (std::uint32_t i = 0; i < count; ++i) {
    prefetch::SentClass sent;
    std::int32_t jar = 0;
    std::uint8_t image_inline = 0;
    std::string bytes;
    if (!r.get_bytes(sent.name) || !r.get(jar) || !r.get(sent.class_file_bytes) || !r.get(image_inline) ||
        !r.get_bytes(bytes)) {
      return malformed("classes");
    }
    sent.jar = jar;
    sent.image_inline = image_inline != 0;
    std::uint64_t expected = sent.image_inline ? sent.class_file_bytes : 0;
    if (bytes.size() != expected) {
      return Status::Error("class " + sent.name + " came with " + std::to_string(bytes.size()) +
                           " bytes, expected " + std::to_string(expected));
    }
    classes.push_back(std::move(sent));
  }
  if (!r.done()) return malformed("classes");
  return classes;
}

std::string encode_index(std::uint32_t index) {
  return real::encode_number(index);
}

Result<std::uint32_t> decode_index(const std::string& payload) {
  return real::decode_number(payload, "JAR index");
}

std::string kind_name(std::uint32_t kind) {
  switch (kind) {
    case kFetch3:
      return "fetch3";
    case kFetch:
      return "fetch";
    case kJar:
      return "jar";
    case kJarPresent:
      return "jar_present";
    case kBye:
      return "bye";
    case kClasses:
      return "classes";
    case kJarBytes:
      return "jar_bytes";
    case kReport:
      return "report";
    default:
      return "kind " + std::to_string(kind);
  }
}

std::string encode_report(const ControllerReport& report) {
  const auto& s = report.server;
  Writer w;
  w.put(s.fetch3_calls).put(s.fetch_calls).put(s.classes_sent).put(s.classes_loaded).put(s.classes_scanned);
  w.put(static_cast<std::uint32_t>(report.bytes_sent.size()));
  for (const auto& [kind, bytes] : report.bytes_sent) w.put_bytes(kind).put(bytes);
  return w.take();
}

Result<ControllerReport> decode_report(const std::string& payload) {
  Reader r(payload);
  ControllerReport report;
  auto& s = report.server;
  std::uint32_t kinds = 0;
  if (!r.get(s.fetch3_calls) || !r.get(s.fetch_calls) || !r.get(s.classes_sent) || !r.get(s.classes_loaded) ||
      !r.get(s.classes_scanned) || !r.get(kinds)) {
    return malformed("report");
  }
  for (std::uint32_t i = 0; i < kinds; ++i) {
    std::string kind;
    std::uint64_t bytes = 0;
    if (!r.get_bytes(kind) || !r.get(bytes)) return malformed("report");
    report.bytes_sent[kind] = bytes;
  }
  if (!r.done()) return malformed("report");
  return report;
}

}  // namespace perflab::prefetch_study
