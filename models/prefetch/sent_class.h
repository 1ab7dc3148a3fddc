// SentClass: one class in a reply of the controller to the agent, as Remoting's ClassFile2 carries it:
// the class name, the JAR it comes from (so the agent can use or fetch its JAR cache), its size and whether
// its bytes come inline.
#pragma once

#include <cstdint>
#include <string>

namespace perflab::prefetch {

struct SentClass {
  std::string name;
  int jar = 0;                         // index on the controller's classpath
  std::uint64_t class_file_bytes = 0;  // what the agent holds in memory for it
  // The class file's bytes travel in the reply (ResourceImageBoth, or fetch's byte[]); otherwise only the
  // JAR's checksum does (ResourceImageInJar) and the agent reads the class from its JAR cache.
  bool image_inline = false;
};

}  // namespace perflab::prefetch
