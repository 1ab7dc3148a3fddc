// A request log: the workload of a real service, for the dispatcher study instead of its synthetic ones.
// A CSV file with a header naming its columns, in any order:
//   time_s      seconds since the log's start of each request, >= 0 and non-decreasing (required)
//   host        the host the request went to, any non-empty text (required)
//   duration_s  how long the server took to answer, >= 0 (optional)
// `#` lines are comments. docs/your-own-workload.md shows how to make one from an nginx or Apache access log.
// The incident (scenarios/dispatcher/incident_driver.cpp, both engines) replays the arrivals and hosts (and
// server times when given); the micro engine enqueues the host sequence as a burst (workloads.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/common/status.h"

namespace perflab::dispatcher {

struct LoggedRequest {
  double time_s;
  int host;                          // index into RequestLog::hosts
  std::optional<double> duration_s;  // when the log has the column
};

struct RequestLog {
  std::vector<LoggedRequest> requests;  // in log order
  std::vector<std::string> hosts;       // distinct hosts, in order of first appearance
  bool has_durations = false;

  // The host name of each request, in order (what the micro engine enqueues).
  std::vector<std::string> host_sequence() const;
};

// Errors are "NAME:LINE: what is wrong, what was expected".
Result<RequestLog> parse_request_log(const std::string& text, const std::string& name);
Result<RequestLog> read_request_log(const std::string& path);

}  // namespace perflab::dispatcher
