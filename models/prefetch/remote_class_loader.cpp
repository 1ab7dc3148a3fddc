// RemoteClassLoader: the agent's load loop and JAR cache; see remote_class_loader.h.
#include "models/prefetch/remote_class_loader.h"

namespace perflab::prefetch {

RemoteClassLoader::RemoteClassLoader(ClassLoadingChannel& channel, JarCache jar_cache)
    : channel_(channel), jar_cache_(jar_cache) {}

void RemoteClassLoader::load(const std::string& name) {
  if (defined_.count(name) > 0) return;

  if (auto hint = hints_.find(name); hint != hints_.end()) {
    const SentClass reference = hint->second;
    hints_.erase(hint);
    ++stats_.prefetch_hits;
    if (!resolve_jar(reference.jar) && !reference.image_inline) {
      channel_.fetch(name);
      ++stats_.extra_fetches;
      ++stats_.rpcs;
    }
    define(name);
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
  take_hints(name, reply);
  const SentClass& requested = reply.front();
  if (!resolve_jar(requested.jar) && !requested.image_inline) {
    // A reference only, although the controller believed the JAR was here: fetch the bytes.
    channel_.fetch(name);
    ++stats_.extra_fetches;
    ++stats_.rpcs;
  }
  define(name);
}

void RemoteClassLoader::take_hints(const std::string& requested, const std::vector<SentClass>& reply) {
  for (const SentClass& sent : reply) {
    if (sent.name == requested) continue;
    stats_.bytes_prefetched += sent.class_file_bytes;
    if (defined_.count(sent.name) > 0) continue;
    hints_.insert_or_assign(sent.name, sent);
  }
}

bool RemoteClassLoader::resolve_jar(int jar) {
  const bool first_lookup = jars_resolved_.insert(jar).second;
  if (jar_cache_ == JarCache::kWarm) {
    if (first_lookup) channel_.notify_jar_present(jar);
    return true;
  }
  if (first_lookup) {
    ++stats_.jar_downloads;
    channel_.start_jar_download(jar);
  }
  return channel_.jar_ready(jar);
}

void RemoteClassLoader::define(const std::string& name) {
  if (defined_.insert(name).second) ++stats_.classes_defined;
}

}  // namespace perflab::prefetch
