// RemoteClassLoader: the agent side of Remoting class loading, driven by a workload of class names.
//
//   load(name):
//     if defined(name): return
//     if name in hints: hints.remove(name); define(name); return    a prefetch hit costs no RPC
//     reply = fetch3(name)                                           one round trip
//     for y in reply, y != name: hints.add(y)
//     define(name)
//
// With a cold JAR cache (the PR cleared it before each run) a reply carries only JAR references: the first
// class needed from a JAR the agent does not have triggers a download of the whole JAR. The requested class
// waits for its JAR; JARs seen only among the prefetched hints start downloading without waiting (before the
// wait, as Remoting resolves the hints first); a later hit whose JAR is still downloading costs one extra
// fetch(name) RPC.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "models/prefetch/class_loading_channel.h"

namespace perflab::prefetch {

enum class JarCache {
  kWarm,  // every JAR already local: no downloads
  kCold,  // nothing local: JARs are downloaded on first use
};

struct AgentStats {
  std::uint64_t rpcs = 0;  // fetch3 calls + extra fetch calls
  std::uint64_t fetch3_calls = 0;
  std::uint64_t extra_fetches = 0;       // hits whose JAR was still downloading
  std::uint64_t classes_prefetched = 0;  // sum of fetch3 reply sizes, requested classes included (as the PR)
  std::uint64_t prefetch_hits = 0;       // loads answered from hints, extra_fetches included
  std::uint64_t bytes_prefetched = 0;    // class-file bytes of the non-requested classes received
  std::uint64_t jar_downloads = 0;       // JAR downloads started
  std::uint64_t classes_defined = 0;
  std::uint64_t classes_not_found = 0;  // fetch3 came back empty
};

class RemoteClassLoader {
 public:
  // The channel must outlive the loader.
  RemoteClassLoader(ClassLoadingChannel& channel, JarCache jar_cache);

  void Load(const std::string& name);
  void LoadAll(const std::vector<std::string>& names) {
    for (const std::string& name : names) Load(name);
  }

  const AgentStats& stats() const { return stats_; }

 private:
  void TakeHints(const std::string& requested, const std::vector<SentClass>& reply);
  void StartJarDownload(int jar, bool wait);
  void Define(const std::string& name);

  ClassLoadingChannel& channel_;
  JarCache jar_cache_;
  std::unordered_set<std::string> defined_;
  std::unordered_map<std::string, SentClass> hints_;  // prefetched, not yet defined
  std::unordered_set<int> jars_requested_;            // downloads started (cold cache)
  AgentStats stats_;
};

}  // namespace perflab::prefetch
