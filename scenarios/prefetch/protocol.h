// The prefetch study's wire protocol, encoded once for both engines: what the agent and the controller
// say to each other (job.h), whose bytes the real engine sends and the sim charges. A request names a class
// or a JAR; a reply carries what Remoting's would: per class its name, JAR, size and, when inline, the
// class file's bytes; for a JAR, the JAR file's bytes. The controller's last reply is its report (its
// counters and the bytes it sent).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/common/status.h"
#include "models/prefetch/prefetch_server.h"
#include "models/prefetch/sent_class.h"

namespace perflab::prefetch_study {

enum MessageKind : std::uint32_t {
  kFetch3 = 1,      // payload: class name                 -> kClasses
  kFetch = 2,       // payload: class name                 -> kClasses (0 or 1 class)
  kJar = 3,         // payload: JAR index                  -> kJarBytes
  kJarPresent = 4,  // payload: JAR index; no reply (JarLoader.notifyJarPresence)
  kBye = 5,         // payload: empty                      -> kReport, then the controller exits
  kClasses = 101,
  kJarBytes = 102,
  kReport = 103,
};

// The kind's name, as the job's bytes_sent counts it ("fetch3", "classes", ...).
std::string kind_name(std::uint32_t kind);

// One class of a reply with its bytes when they travel inline (empty otherwise).
struct WireClass {
  prefetch::SentClass sent;
  std::string bytes;
};

std::string encode_classes(const std::vector<WireClass>& classes);
// Fails on a malformed payload, or an inline class whose bytes are not its class_file_bytes long.
Result<std::vector<prefetch::SentClass>> decode_classes(const std::string& payload);

std::string encode_index(std::uint32_t index);
Result<std::uint32_t> decode_index(const std::string& payload);

struct ControllerReport {
  prefetch::ServerStats server;
  std::map<std::string, std::uint64_t> bytes_sent;  // by kind_name(): header and payload, the report's aside
};
std::string encode_report(const ControllerReport& report);
Result<ControllerReport> decode_report(const std::string& payload);

}  // namespace perflab::prefetch_study
