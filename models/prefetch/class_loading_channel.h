// ClassLoadingChannel: what the agent's class loader can ask the controller, and nothing else.
//
// The agent code (RemoteClassLoader) only talks through this interface, so the same client runs against the
// server in-process (DirectChannel, tests) and against a simulated network (the study driver), where each
// call costs a round trip. fetch3 and fetch block until answered; JAR downloads run in the background.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/prefetch/sent_class.h"

namespace perflab::prefetch {

class ClassLoadingChannel {
 public:
  virtual ~ClassLoadingChannel() = default;

  // IClassLoader.fetch3: the requested class first, then the prefetched ones; empty when the controller
  // cannot load the class.
  virtual std::vector<SentClass> fetch3(const std::string& name) = 0;
  // IClassLoader.fetch: one class's bytes, no prefetch.
  virtual std::optional<SentClass> fetch(const std::string& name) = 0;
  // Queues a JAR on the agent's JAR cache downloader (JarCacheSupport: one thread, downloads one after
  // another, each a JarLoader.writeJarTo call) and returns at once. Called once per JAR.
  virtual void start_jar_download(int jar) = 0;
  // True once that download has finished: the JAR is in the agent's cache.
  virtual bool jar_ready(int jar) = 0;
  // JarLoader.notifyJarPresence: asynchronous, tells the controller the agent already has the JAR.
  virtual void notify_jar_present(int jar) = 0;
};

}  // namespace perflab::prefetch
