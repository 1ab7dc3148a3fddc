// `fixed` and `trace` writers (see replay_writer.h).
#include "models/pipe/replay_writer.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "models/common/printable.h"
#include "models/common/utf8_bom.h"

namespace perflab::pipe {

std::vector<WriteEvent> fixed_schedule(uint64_t total_bytes, size_t chunk_size, double rate) {
  std::vector<WriteEvent> events;
  for (uint64_t written = 0; written < total_bytes;) {
    size_t n = static_cast<size_t>(std::min<uint64_t>(chunk_size, total_bytes - written));
    written += n;
    events.push_back({static_cast<double>(written) / rate, n});
  }
  return events;
}

namespace {
Status line_error(const std::string& at, const std::string& what, const std::string& line) {
  std::string message = at;
  message += what;
  message += ", got \"";
  message += printable(line, 60);
  message += "\"";
  return Status::Error(message);
}
}  // namespace

Result<std::vector<WriteEvent>> parse_trace(const std::string& text, const std::string& where) {
  std::vector<WriteEvent> events;
  std::istringstream in{std::string(without_utf8_bom(text))};
  std::string line;
  int number = 0;
  bool header = false;
  bool with_copy = false;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::string at = where + ":" + std::to_string(number) + ": ";
    if (!header) {
      with_copy = line == "time_s,bytes,copied_s";
      if (line != "time_s,bytes" && !with_copy) {
        return line_error(at, "expected the header \"time_s,bytes\" or \"time_s,bytes,copied_s\"", line);
      }
      header = true;
      continue;
    }
    size_t comma = line.find(',');
    char* end = nullptr;
    double time = std::strtod(line.c_str(), &end);
    if (comma == std::string::npos || end != line.c_str() + comma) {
      return line_error(at, "expected \"seconds,bytes\"", line);
    }
    const char* size_text = line.c_str() + comma + 1;
    long long bytes = std::strtoll(size_text, &end, 10);
    double copied = time;
    if (with_copy) {
      if (end == size_text || *end != ',') return line_error(at, "expected \"seconds,bytes,seconds\"", line);
      const char* copied_text = end + 1;
      copied = std::strtod(copied_text, &end);
      if (end == copied_text || *end != '\0' || copied < time) {
        return line_error(at, "expected a copy time >= the write's time", line);
      }
    } else if (end == size_text || *end != '\0') {
      return line_error(at, "expected a whole number of bytes", line);
    }
    if (bytes <= 0)
      return Status::Error(at + "a write must have at least 1 byte, got " + std::to_string(bytes));
    if (time < 0 || (!events.empty() && time < events.back().at)) {
      return Status::Error(at + "times must be >= 0 and non-decreasing, got " + std::to_string(time));
    }
    events.push_back({time, static_cast<size_t>(bytes), copied - time});
  }
  if (!header) return Status::Error(where + ": no \"time_s,bytes\" header, expected a write trace");
  if (events.empty()) return Status::Error(where + ": the trace has no writes, expected at least one");
  return events;
}

Result<std::vector<WriteEvent>> load_trace(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return Status::Error(file.string() + ": cannot read the trace file, expected a time_s,bytes CSV");
  std::stringstream text;
  text << in.rdbuf();
  return parse_trace(text.str(), file.string());
}

ReplayWriter::ReplayWriter(ProcessId id, Pipe& out, std::vector<WriteEvent> events, uint64_t content_seed,
                           SpanSink* spans)
    : id_(id), out_(out), events_(std::move(events)), content_seed_(content_seed), spans_(spans) {}

Action ReplayWriter::step(double now) {
  if (!started_) {
    started_ = true;
    start_ = now;
  }
  if (blocked_) {
    if (out_.writer_blocked()) return Wait{};
    blocked_ = false;
    blocked_s_ += now - blocked_since_;
    if (spans_ != nullptr) spans_->span(name_, "blocked on full pipe", blocked_since_, now);
  }
  while (next_ < events_.size()) {
    const WriteEvent& event = events_[next_];
    if (!copying_ && now < start_ + event.at) return SleepUntil{start_ + event.at};
    if (!copying_ && event.copy_s > 0 && out_.begin_copy(event.bytes)) {
      copying_ = true;
      return SleepUntil{now + event.copy_s};
    }
    Bytes data = content(content_seed_, offset_, event.bytes);
    offset_ += event.bytes;
    checksum_.add(data);
    ++next_;
    const bool complete = out_.write(id_, std::move(data), now);
    if (copying_) {
      copying_ = false;
      out_.end_copy(now);
    }
    if (!complete) {
      blocked_ = true;
      blocked_since_ = now;
      return Wait{};
    }
  }
  out_.close_write(now);
  return Finished{};
}

}  // namespace perflab::pipe
