// A timeline of one simulated run, written as Chrome trace-event JSON (opens in Perfetto / about:tracing).
// One track per actor; drivers and the messaging helpers add a span per message, RPC or locked section.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab {

// Which engines record spans, for --timeline's errors (docs/commands.md says the same).
inline constexpr const char* kEnginesWithATimeline =
    "every sim engine keeps one, and so do the real engines of prefetch and share";

class Timeline {
 public:
  // A span on `track` from start to end (simulated seconds). `detail` shows as the span's argument.
  void span(const std::string& track, const std::string& name, double start_s, double end_s,
            const std::string& detail = "");
  size_t size() const { return spans_.size(); }
  Status write(const std::filesystem::path& file) const;

 private:
  struct Span {
    int track;
    std::string name;
    double start_s;
    double end_s;
    std::string detail;
  };
  int track_id(const std::string& track);
  std::map<std::string, int> tracks_;
  std::vector<Span> spans_;
};

}  // namespace perflab
