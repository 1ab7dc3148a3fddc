// Reader of request logs; see request_log.h for the format.
#include "models/dispatcher/request_log.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "models/common/split.h"
#include "models/common/utf8_bom.h"

namespace perflab::dispatcher {
namespace {

// The line's comma-separated fields, blanks around each removed.
std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> fields = split(line, ',');
  for (std::string& field : fields) {
    const size_t begin = field.find_first_not_of(" \t");
    const size_t end = field.find_last_not_of(" \t");
    field = begin == std::string::npos ? "" : field.substr(begin, end - begin + 1);
  }
  return fields;
}

std::optional<double> number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace

std::vector<std::string> RequestLog::host_sequence() const {
  std::vector<std::string> sequence;
  sequence.reserve(requests.size());
  for (const LoggedRequest& r : requests) sequence.push_back(hosts[static_cast<size_t>(r.host)]);
  return sequence;
}

Result<RequestLog> parse_request_log(const std::string& text, const std::string& name) {
  const std::vector<std::string> known = {"time_s", "host", "duration_s"};
  std::istringstream in{std::string(without_utf8_bom(text))};
  std::string line;
  int line_number = 0;
  std::map<std::string, size_t> column;  // name -> field index
  size_t field_count = 0;
  RequestLog log;
  std::map<std::string, int> host_index;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos || line[line.find_first_not_of(" \t")] == '#')
      continue;
    const std::string at = name + ":" + std::to_string(line_number) + ": ";
    const std::vector<std::string> fields = split_fields(line);
    if (column.empty()) {  // the header
      for (size_t i = 0; i < fields.size(); ++i) {
        if (std::find(known.begin(), known.end(), fields[i]) == known.end())
          return Status::Error(at + "unknown column \"" + fields[i] +
                               "\" in the header, expected time_s, host and optionally duration_s");
        if (!column.emplace(fields[i], i).second)
          return Status::Error(at + "column \"" + fields[i] + "\" appears twice in the header");
      }
      for (const char* required : {"time_s", "host"}) {
        if (column.count(required) == 0)
          return Status::Error(at + "the header has no \"" + required +
                               "\" column, expected a header with time_s, host and optionally duration_s");
      }
      field_count = fields.size();
      log.has_durations = column.count("duration_s") > 0;
      continue;
    }
    if (fields.size() != field_count)
      return Status::Error(at + std::to_string(fields.size()) + " fields, expected " +
                           std::to_string(field_count) + " as in the header");
    const std::string& time_text = fields[column.at("time_s")];
    const std::optional<double> time = number(time_text);
    if (!time) return Status::Error(at + "time_s \"" + time_text + "\" is not a number, expected seconds");
    if (*time < 0) return Status::Error(at + "time_s " + time_text + " is negative, expected >= 0");
    if (!log.requests.empty() && *time < log.requests.back().time_s)
      return Status::Error(at + "time_s " + time_text + " is before the previous request's, expected the " +
                           "requests in time order (sort the log by time)");
    const std::string& host = fields[column.at("host")];
    if (host.empty()) return Status::Error(at + "the host is empty, expected a host name");
    LoggedRequest request{*time, 0, std::nullopt};
    if (log.has_durations) {
      const std::string& duration_text = fields[column.at("duration_s")];
      const std::optional<double> duration = number(duration_text);
      if (!duration || *duration < 0)
        return Status::Error(at + "duration_s \"" + duration_text +
                             "\" is not a number >= 0, expected seconds");
      request.duration_s = *duration;
    }
    auto [it, added] = host_index.emplace(host, static_cast<int>(log.hosts.size()));
    if (added) log.hosts.push_back(host);
    request.host = it->second;
    log.requests.push_back(request);
  }
  if (column.empty()) return Status::Error(name + ": empty file, expected a header time_s,host[,duration_s]");
  if (log.requests.empty())
    return Status::Error(name + ": no requests after the header, expected at least one line");
  return log;
}

Result<RequestLog> read_request_log(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::Error(path + ": cannot open the request log (" + std::strerror(errno) + ")");
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return Status::Error(path + ": error while reading the request log");
  return parse_request_log(text.str(), path);
}

}  // namespace perflab::dispatcher
