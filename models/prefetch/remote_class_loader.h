// RemoteClassLoader: the agent side of Remoting class loading, driven by a workload of class names.
//
//   load(name):                                                  (RemoteClassLoader.findClass)
//     if defined(name): return
//     if name in hints: ref = hints.remove(name)                  a prefetch hit: no fetch3
//     else: reply = fetch3(name); ref = reply[name]               one round trip
//           for y in reply, y != name: hints.add(y)
//     define(name) from ref                                       loadRemoteClass
//
// Defining from a reference follows loadRemoteClass (RemoteClassLoader.java:302-347 at PR #721):
// `ref.classImage.resolve(...)`, then the bytes if that future is done, else one `proxy.fetch(name)` RPC.
//   - Bytes inline (ResourceImageBoth, the requested class of a JAR the agent does not have): defined at
//   once;
//     resolving it also starts the JAR's download in the background (ResourceImageBoth.java:23-25).
//   - A JAR reference (ResourceImageInJar, every prefetched class): JarCacheSupport.resolve
//     (JarCacheSupport.java:58-68): done if the JAR is cached; otherwise it queues the JAR's download
//     (once per JAR, one download thread) and the class costs an extra fetch(name) RPC.
// So a prefetched class's JAR is resolved only when that class is loaded, and JARs that only appear among
// hints are never downloaded. With a warm JAR cache every JAR is local (FileSystemJarCache.lookInCache,
// which also tells the controller: notifyJarPresence).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "models/common/enum_names.h"
#include "models/prefetch/class_loading_channel.h"

namespace perflab::prefetch {

enum class JarCache {
  kWarm,  // every JAR already local: no downloads
  kCold,  // nothing local: JARs are downloaded on first use
};
inline const EnumNames<JarCache> kJarCacheNames{"JAR cache",
                                                {{JarCache::kCold, "cold"}, {JarCache::kWarm, "warm"}}};

struct AgentStats {
  std::uint64_t rpcs = 0;  // fetch3 calls + extra fetch calls
  std::uint64_t fetch3_calls = 0;
  std::uint64_t extra_fetches = 0;  // fetch calls: a class sent as a JAR reference whose JAR was not here yet
  std::uint64_t classes_prefetched = 0;  // sum of fetch3 reply sizes, requested classes included (as the PR)
  std::uint64_t prefetch_hits = 0;       // loads answered from hints (some of them with an extra fetch)
  std::uint64_t bytes_prefetched = 0;    // class-file bytes of the non-requested classes received
  std::uint64_t jar_downloads = 0;       // JARs downloaded: those a defined class needed
  std::uint64_t classes_defined = 0;
  std::uint64_t classes_not_found = 0;  // fetch3 came back empty
};

class RemoteClassLoader {
 public:
  // The channel must outlive the loader.
  RemoteClassLoader(ClassLoadingChannel& channel, JarCache jar_cache);

  void load(const std::string& name);
  void load_all(const std::vector<std::string>& names) {
    for (const std::string& name : names) load(name);
  }

  const AgentStats& stats() const { return stats_; }

 private:
  void take_hints(const std::string& requested, const std::vector<SentClass>& reply);
  // JarCacheSupport.resolve: true when the JAR is local now; otherwise its download is under way.
  bool resolve_jar(int jar);
  void define(const std::string& name);

  ClassLoadingChannel& channel_;
  JarCache jar_cache_;
  std::unordered_set<std::string> defined_;
  std::unordered_map<std::string, SentClass> hints_;  // prefetched, not yet defined
  std::unordered_set<int> jars_resolved_;             // looked up in the cache or queued for download
  AgentStats stats_;
};

}  // namespace perflab::prefetch
