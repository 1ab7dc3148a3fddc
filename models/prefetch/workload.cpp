// MakeWorkload: the trace restricted to the classpath; see workload.h.
#include "models/prefetch/workload.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace perflab::prefetch {
namespace {

// The same string for two paths of the same file (symbolic links resolved) when the file exists.
std::string same_file_key(const std::string& path) {
  std::error_code error;
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(path, error);
  return error ? std::filesystem::path(path).lexically_normal().string() : canonical.string();
}

}  // namespace

Workload make_workload(const std::vector<TracedClassLoad>& trace, const std::vector<std::string>& classpath) {
  std::unordered_map<std::string, int> jar_by_key;
  for (int jar = 0; jar < static_cast<int>(classpath.size()); ++jar) {
    jar_by_key.emplace(same_file_key(classpath[jar]), jar);
  }
  std::unordered_map<std::string, int> jar_by_traced_path;  // -1: not on the classpath
  std::unordered_set<std::string> seen;
  std::set<int> jars_used;
  Workload workload;
  for (const TracedClassLoad& load : trace) {
    if (!load.from_jar()) continue;  // JDK or generated: local to the agent
    auto traced = jar_by_traced_path.find(load.jar_path);
    if (traced == jar_by_traced_path.end()) {
      auto on_classpath = jar_by_key.find(same_file_key(load.jar_path));
      const int jar = on_classpath == jar_by_key.end() ? -1 : on_classpath->second;
      traced = jar_by_traced_path.emplace(load.jar_path, jar).first;
    }
    if (traced->second < 0) {
      ++workload.dropped;
      continue;
    }
    if (!seen.insert(load.class_name).second) continue;
    workload.classes.push_back(load.class_name);
    jars_used.insert(traced->second);
  }
  workload.jars_used.assign(jars_used.begin(), jars_used.end());
  return workload;
}

void leave_out_classes_not_in(Workload& workload, const Classpath& classpath) {
  const auto held = std::remove_if(workload.classes.begin(), workload.classes.end(),
                                   [&](const std::string& name) { return !classpath.find(name); });
  workload.not_in_jars += static_cast<std::size_t>(workload.classes.end() - held);
  workload.classes.erase(held, workload.classes.end());
}

}  // namespace perflab::prefetch
