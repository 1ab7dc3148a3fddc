// SentClass: one class in a reply of the controller to the agent, as Remoting's ClassFile2 carries it:
// the class name, the JAR it comes from (so the agent can use or fetch its JAR cache) and its size.
#pragma once

#include <cstdint>
#include <string>

namespace perflab::prefetch {

struct SentClass {
  std::string name;
  int jar = 0;                         // index on the controller's classpath
  std::uint64_t class_file_bytes = 0;  // what the agent holds in memory for it
};

}  // namespace perflab::prefetch
