#include "sim/timeline.h"

#include <fstream>

namespace perflab {
namespace {

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += ' ';
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace

int Timeline::track_id(const std::string& track) {
  auto it = tracks_.find(track);
  if (it != tracks_.end()) return it->second;
  int id = static_cast<int>(tracks_.size()) + 1;
  tracks_[track] = id;
  return id;
}

void Timeline::span(const std::string& track, const std::string& name, double start_s, double end_s,
                    const std::string& detail) {
  spans_.push_back({track_id(track), name, start_s, end_s, detail});
}

Status Timeline::write(const std::filesystem::path& file) const {
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  std::ofstream out(file);
  if (!out) return Status::Error(file.string() + ": cannot write the timeline file");
  out << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  bool first = true;
  auto separator = [&]() -> const char* {
    const char* s = first ? "" : ",\n";
    first = false;
    return s;
  };
  for (const auto& [track, id] : tracks_) {
    out << separator() << R"({"ph":"M","name":"thread_name","pid":1,"tid":)" << id << R"(,"args":{"name":)"
        << json_string(track) << "}}";
  }
  char number[64];
  for (const auto& span : spans_) {
    std::snprintf(number, sizeof number, "%.3f,\"dur\":%.3f", span.start_s * 1e6,
                  (span.end_s - span.start_s) * 1e6);
    out << separator() << R"({"ph":"X","pid":1,"tid":)" << span.track
        << ",\"name\":" << json_string(span.name) << ",\"ts\":" << number;
    if (!span.detail.empty()) out << ",\"args\":{\"detail\":" << json_string(span.detail) << "}";
    out << "}";
  }
  out << "\n]}\n";
  return out ? Status::OK() : Status::Error(file.string() + ": error while writing the timeline file");
}

}  // namespace perflab
