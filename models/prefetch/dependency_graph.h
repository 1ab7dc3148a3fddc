// DependencyGraph: every class of a classpath and the classes its constant pool refers to.
//
// A Boost.Graph adjacency list: one vertex per loadable class (its name, JAR, class-file size, the outcome of
// the constant-pool scan and the sorted dependency names), one edge per reference to another loadable
// class; beside it, each class's direct supertypes as the JVM reads them (for the initiation order). The
// dependency names include classes that are not on the classpath (JDK classes, missing optional dependencies)
// because Remoting's fetch3 walks and marks those too. Built by scanning the real class files of a Classpath,
// or from hand-written nodes (tests, what-if experiments).
#pragma once

#include <boost/graph/adjacency_list.hpp>
#include <boost/range/iterator_range.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/common/status.h"
#include "models/prefetch/class_header.h"
#include "models/prefetch/classpath.h"

namespace perflab::prefetch {

enum class ScanOutcome {
  kScanned,              // dependencies known
  kUnsupportedConstant,  // the scan stopped at a constant it cannot size: Remoting sends no prefetch
  kMalformed,            // not a well-formed constant pool: no prefetch either
};

struct ClassNode {
  std::string name;
  int jar = 0;  // index on the classpath
  std::uint64_t class_file_bytes = 0;
  ScanOutcome scan = ScanOutcome::kScanned;
  std::string scan_problem;  // why the scan did not give dependencies, if it did not
  std::vector<std::string>
      dependencies;  // sorted binary names, the class itself included; empty unless scanned

  bool prefetchable() const { return scan == ScanOutcome::kScanned; }
};

class DependencyGraph {
 public:
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, ClassNode>;
  using Vertex = Graph::vertex_descriptor;

  // Reads and scans every class of the classpath. Fails only when a JAR entry cannot be read; a class file
  // that does not scan becomes a vertex without dependencies (kUnsupportedConstant or kMalformed).
  static Result<DependencyGraph> Build(const Classpath& classpath);

  // A graph of hand-written classes. Dependencies are sorted for you. Fails on a duplicate class name or a
  // negative JAR index.
  static Result<DependencyGraph> FromNodes(std::vector<ClassNode> nodes);

  // Move-only: a whole classpath's graph is too big to copy by accident.
  DependencyGraph(DependencyGraph&&) = default;
  DependencyGraph& operator=(DependencyGraph&&) = default;
  DependencyGraph(const DependencyGraph&) = delete;
  DependencyGraph& operator=(const DependencyGraph&) = delete;

  std::size_t class_count() const { return boost::num_vertices(*graph_); }
  int jar_count() const { return static_cast<int>(classes_by_jar_.size()); }
  std::optional<Vertex> find(const std::string& name) const;
  // The class's direct supertypes, or nullptr when it is not on the classpath or its header did not parse.
  // Known for graphs built from class files, not for hand-written ones.
  const ClassHeader* header(const std::string& name) const;
  const ClassNode& node(Vertex vertex) const { return (*graph_)[vertex]; }
  // The classes a JAR serves, in vertex order.
  const std::vector<Vertex>& classes_in_jar(int jar) const { return classes_by_jar_[jar]; }
  std::size_t count(ScanOutcome outcome) const;
  const Graph& graph() const { return *graph_; }

 private:
  DependencyGraph() : graph_(std::make_unique<Graph>()) {}
  void add_vertex(ClassNode node);
  void add_edges();  // one per dependency on another loadable class

  std::unique_ptr<Graph> graph_;  // behind a pointer: Boost 1.74's adjacency_list cannot move, only copy
  std::unordered_map<std::string, Vertex> vertex_by_name_;
  std::unordered_map<std::string, ClassHeader> header_by_name_;
  std::vector<std::vector<Vertex>> classes_by_jar_;
};

}  // namespace perflab::prefetch
