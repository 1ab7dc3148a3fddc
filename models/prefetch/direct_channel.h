// DirectChannel: a ClassLoadingChannel that calls a PrefetchServer in-process. JAR downloads complete
// instantly, so it suits counting (tests, what the RPC and prefetch counts of a workload are) but not timing.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/prefetch/class_loading_channel.h"
#include "models/prefetch/prefetch_server.h"

namespace perflab::prefetch {

class DirectChannel : public ClassLoadingChannel {
 public:
  // The server must outlive the channel.
  explicit DirectChannel(PrefetchServer& server) : server_(server) {}

  std::vector<SentClass> fetch3(const std::string& name) override { return server_.fetch3(name); }
  std::optional<SentClass> fetch(const std::string& name) override { return server_.fetch(name); }
  void download_jar(int jar, bool /*wait*/) override { downloaded_jars_.insert(jar); }
  bool jar_ready(int jar) override { return downloaded_jars_.count(jar) > 0; }

  const std::set<int>& downloaded_jars() const { return downloaded_jars_; }

 private:
  PrefetchServer& server_;
  std::set<int> downloaded_jars_;
};

}  // namespace perflab::prefetch
