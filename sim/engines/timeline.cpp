// See timeline.h.
#include "sim/engines/timeline.h"

#include <cmath>
#include <fstream>

#include "sim/text/json_text.h"

namespace perflab {
namespace {

// Trace-event times are microseconds; a nanosecond is the finest a simulated span needs.
double microseconds(double seconds) {
  return std::round(seconds * 1e9) / 1e3;
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
  // One event a line, so a trace reads and diffs line by line; each event is written by nlohmann.
  out << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  const char* separator = "";
  for (const auto& [track, id] : tracks_) {
    Json event = {{"ph", "M"}, {"name", "thread_name"}, {"pid", 1}, {"tid", id}, {"args", {{"name", track}}}};
    out << separator << json_text(event, -1);
    separator = ",\n";
  }
  for (const auto& span : spans_) {
    Json event = {{"ph", "X"},
                  {"pid", 1},
                  {"tid", span.track},
                  {"name", span.name},
                  {"ts", microseconds(span.start_s)},
                  {"dur", microseconds(span.end_s - span.start_s)}};
    if (!span.detail.empty()) event["args"] = {{"detail", span.detail}};
    out << separator << json_text(event, -1);
    separator = ",\n";
  }
  out << "\n]}\n";
  return out ? Status::OK() : Status::Error(file.string() + ": error while writing the timeline file");
}

}  // namespace perflab
