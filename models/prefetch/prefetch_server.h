// PrefetchServer: the controller side of Remoting class loading, with the tunable prefetch of PR #721
// (jenkinsci/remoting "Allow tuning of prefetch", JENKINS-72226).
//
// fetch3(name) answers an agent's class miss with the requested class plus prefetched dependencies found by
// walking the DependencyGraph:
//
//   fetch3(name):  out = {name}; prefetched.add(name); expand(name, 1, out); return out
//   expand(x, level, out):
//     if level > prefetch_depth: return
//     for y in sorted_dependencies(x):                 depth-first, in sorted order
//       if not prefetched.add(y): continue             marked before trying: a failure is never retried
//       if y is not loadable: continue                 JDK or missing classes are swallowed
//       out.add(y)
//       if level < prune_threshold or jar(x) == jar(y): expand(y, level + 1, out)
//
// `prefetched` belongs to the channel and is never cleared, so the same class is never sent twice and a
// class first reached deep is never re-expanded from a shallower level. Depth 1 with prune threshold 1 is the
// one-level prefetch Remoting ships; depth 0 disables prefetch. Two alternative traversals share the rules:
// kBfs expands level by level (each class from its shallowest level), kJar sends every class of the
// requested class's JAR, the "send the JAR and prefetch all classes inside it" idea of the PR.
//
// How each class travels (ClassLoaderProxy.fetch4, RemoteClassLoader.java:1115-1123 at PR #721): the
// requested class carries its bytes inline with its JAR's checksum (ResourceImageBoth) unless the agent is
// known to hold the JAR (JarLoaderImpl.presentOnRemote, set once the agent downloaded it or reported it
// cached); every prefetched class carries only the checksum (ResourceImageInJar), so the agent needs the JAR
// to define it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "models/common/enum_names.h"
#include "models/prefetch/dependency_graph.h"
#include "models/prefetch/sent_class.h"

namespace perflab::prefetch {

enum class Traversal { kDfs, kBfs, kJar };
inline const EnumNames<Traversal> kTraversalNames{
    "traversal", {{Traversal::kDfs, "dfs"}, {Traversal::kBfs, "bfs"}, {Traversal::kJar, "jar"}}};

struct PrefetchOptions {
  int prefetch_depth = 1;   // levels of dependencies sent; 0 disables prefetch (values below 0 act as 0)
  int prune_threshold = 1;  // from this level on, only classes of the same JAR are expanded further
  Traversal traversal = Traversal::kDfs;
};

struct ServerStats {
  std::uint64_t fetch3_calls = 0;
  std::uint64_t fetch_calls = 0;
  std::uint64_t classes_sent = 0;     // classes in all replies, requested ones included
  std::uint64_t classes_loaded = 0;   // distinct classes the server read to answer (server_classes_loaded)
  std::uint64_t classes_scanned = 0;  // distinct classes whose constant pool it scanned
};

class PrefetchServer {
 public:
  // The graph must outlive the server.
  PrefetchServer(const DependencyGraph& graph, PrefetchOptions options);

  // The requested class first, then the prefetched ones in traversal order. Empty when the class is not on
  // the classpath (the agent would get a ClassNotFoundException).
  std::vector<SentClass> fetch3(const std::string& name);
  // One class, no prefetch, `prefetched` untouched. nullopt when the class is not on the classpath.
  std::optional<SentClass> fetch(const std::string& name);
  // JarLoader: the agent has this JAR (it downloaded it, or found it in its cache). From now on fetch3 sends
  // the requested class of this JAR as a reference only.
  void notify_jar_present(int jar);

  const PrefetchOptions& options() const { return options_; }
  const ServerStats& stats() const { return stats_; }

 private:
  using Vertex = DependencyGraph::Vertex;

  void expand(Vertex x, int level, std::vector<SentClass>& out);        // kDfs, the PR's recursion
  void expand_by_level(Vertex requested, std::vector<SentClass>& out);  // kBfs
  void send_whole_jar(Vertex requested, std::vector<SentClass>& out);   // kJar

  // The dependencies of x (none when its scan failed), counting x as scanned.
  const std::vector<std::string>& scan_dependencies(Vertex x);
  bool same_jar(Vertex x, Vertex y) const { return graph_.node(x).jar == graph_.node(y).jar; }
  SentClass load(Vertex vertex);  // reads the class to send it, counting it as loaded
  void send(Vertex vertex, std::vector<SentClass>& out) { out.push_back(load(vertex)); }

  const DependencyGraph& graph_;
  PrefetchOptions options_;
  std::unordered_set<std::string> prefetched_;
  std::vector<bool> loaded_;
  std::vector<bool> scanned_;
  std::vector<bool> present_on_remote_;  // by JAR: JarLoaderImpl.presentOnRemote
  ServerStats stats_;
};

}  // namespace perflab::prefetch
