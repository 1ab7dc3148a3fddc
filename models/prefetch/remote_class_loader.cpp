// RemoteClassLoader: the agent's load loop; see remote_class_loader.h.
#include "models/prefetch/remote_class_loader.h"

namespace perflab::prefetch {

RemoteClassLoader::RemoteClassLoader(ClassLoadingChannel& channel, JarCache jar_cache)
    : channel_(channel), jar_cache_(jar_cache) {}

void RemoteClassLoader::Load(const std::string& name) {
  if (defined_.count(name) > 0) return;

  if (auto hint = hints_.find(name); hint != hints_.end()) {
    const int jar = hint->second.jar;
    hints_.erase(hint);
    ++stats_.prefetch_hits;
    if (jar_cache_ == JarCache::kCold && !channel_.jar_ready(jar)) {
      channel_.fetch(name);
      ++stats_.extra_fetches;
      ++stats_.rpcs;
    }
    Define(name);
    return;
  }

  const std::vector<SentClass> reply = channel_.fetch3(name);
  ++stats_.fetch3_calls;
  ++stats_.rpcs;
  stats_.classes_prefetched += reply.size();
  if (reply.empty()) {
    ++stats_.classes_not_found;
    return;
  }
  TakeHints(name, reply);
  if (jar_cache_ == JarCache::kCold) StartJarDownload(reply.front().jar, /*wait=*/true);
  Define(name);
}

void RemoteClassLoader::TakeHints(const std::string& requested, const std::vector<SentClass>& reply) {
  for (const SentClass& sent : reply) {
    if (sent.name == requested) continue;
    stats_.bytes_prefetched += sent.class_file_bytes;
    if (defined_.count(sent.name) > 0) continue;
    hints_.insert_or_assign(sent.name, sent);
    if (jar_cache_ == JarCache::kCold) StartJarDownload(sent.jar, /*wait=*/false);
  }
}

void RemoteClassLoader::StartJarDownload(int jar, bool wait) {
  const bool first_request = jars_requested_.insert(jar).second;
  if (first_request) ++stats_.jar_downloads;
  if (first_request || (wait && !channel_.jar_ready(jar))) channel_.download_jar(jar, wait);
}

void RemoteClassLoader::Define(const std::string& name) {
  if (defined_.insert(name).second) ++stats_.classes_defined;
}

}  // namespace perflab::prefetch
