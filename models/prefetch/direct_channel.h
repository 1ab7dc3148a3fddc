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
  void start_jar_download(int jar) override {
    downloaded_jars_.insert(jar);
    server_.notify_jar_present(jar);
  }
  bool jar_ready(int jar) override { return downloaded_jars_.count(jar) > 0; }
  void notify_jar_present(int jar) override { server_.notify_jar_present(jar); }

  const std::set<int>& downloaded_jars() const { return downloaded_jars_; }

 private:
  PrefetchServer& server_;
  std::set<int> downloaded_jars_;
};

}  // namespace perflab::prefetch
