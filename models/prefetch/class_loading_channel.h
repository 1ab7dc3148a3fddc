// ClassLoadingChannel: what the agent's class loader can ask the controller, and nothing else.
//
// The agent code (RemoteClassLoader) only talks through this interface, so the same client runs against the
// server in-process (DirectChannel, tests) and against a simulated network (the study driver), where each
// call costs a round trip. All calls block until answered.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/prefetch/sent_class.h"

namespace perflab::prefetch {

class ClassLoadingChannel {
 public:
  virtual ~ClassLoadingChannel() = default;

  // The requested class first, then the prefetched ones; empty when the controller cannot load the class.
  virtual std::vector<SentClass> fetch3(const std::string& name) = 0;
  // One class, no prefetch.
  virtual std::optional<SentClass> fetch(const std::string& name) = 0;
  // Starts downloading a whole JAR into the agent's JAR cache if that is not under way; with wait=true
  // returns only once the JAR is local.
  virtual void download_jar(int jar, bool wait) = 0;
  // True when the JAR is in the agent's cache and usable now.
  virtual bool jar_ready(int jar) = 0;
};

}  // namespace perflab::prefetch
