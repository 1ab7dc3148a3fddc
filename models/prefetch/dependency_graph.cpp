// DependencyGraph construction: scan every class file, then connect classes that refer to each other.
#include "models/prefetch/dependency_graph.h"

#include <algorithm>
#include <utility>

#include "models/prefetch/class_file.h"

namespace perflab::prefetch {

Result<DependencyGraph> DependencyGraph::Build(const Classpath& classpath) {
  DependencyGraph graph;
  graph.classes_by_jar_.resize(classpath.jar_count());
  for (const ClassLocation& location : classpath.classes()) {
    const JarClassEntry& entry = classpath.entry(location);
    Result<std::string> bytes = classpath.read_class(location);
    if (!bytes.ok()) return bytes.status();

    ClassNode node;
    node.name = entry.binary_name;
    node.jar = location.jar;
    node.class_file_bytes = bytes->size();
    if (Result<ClassHeader> header = read_class_header(*bytes); header.ok()) {
      graph.header_by_name_.emplace(entry.binary_name, std::move(header).value());
    }
    Result<ClassScan> scan = scan_class_file(*bytes);
    if (!scan.ok()) {
      node.scan = ScanOutcome::kMalformed;
      node.scan_problem = scan.status().message();
    } else if (!scan->prefetchable()) {
      node.scan = ScanOutcome::kUnsupportedConstant;
      node.scan_problem = "constant pool holds tag " + std::to_string(*scan->unsupported_tag);
    } else {
      node.dependencies = std::move(scan).value().dependencies;
    }
    graph.add_vertex(std::move(node));
  }
  graph.add_edges();
  return graph;
}

Result<DependencyGraph> DependencyGraph::FromNodes(std::vector<ClassNode> nodes) {
  DependencyGraph graph;
  for (ClassNode& node : nodes) {
    if (node.jar < 0)
      return Status::Error("class " + node.name + ": JAR index " + std::to_string(node.jar) +
                           ", expected 0 or more");
    if (graph.find(node.name)) return Status::Error("class " + node.name + " is listed twice");
    std::sort(node.dependencies.begin(), node.dependencies.end());
    node.dependencies.erase(std::unique(node.dependencies.begin(), node.dependencies.end()),
                            node.dependencies.end());
    if (node.jar >= graph.jar_count()) graph.classes_by_jar_.resize(node.jar + 1);
    graph.add_vertex(std::move(node));
  }
  graph.add_edges();
  return graph;
}

const ClassHeader* DependencyGraph::header(const std::string& name) const {
  auto found = header_by_name_.find(name);
  return found == header_by_name_.end() ? nullptr : &found->second;
}

std::optional<DependencyGraph::Vertex> DependencyGraph::find(const std::string& name) const {
  auto found = vertex_by_name_.find(name);
  if (found == vertex_by_name_.end()) return std::nullopt;
  return found->second;
}

std::size_t DependencyGraph::count(ScanOutcome outcome) const {
  std::size_t matching = 0;
  for (Vertex vertex : boost::make_iterator_range(boost::vertices(*graph_))) {
    if ((*graph_)[vertex].scan == outcome) ++matching;
  }
  return matching;
}

void DependencyGraph::add_vertex(ClassNode node) {
  const int jar = node.jar;
  const std::string name = node.name;
  const Vertex vertex = boost::add_vertex(*graph_);
  (*graph_)[vertex] = std::move(node);
  vertex_by_name_.emplace(name, vertex);
  classes_by_jar_[jar].push_back(vertex);
}

void DependencyGraph::add_edges() {
  for (Vertex from : boost::make_iterator_range(boost::vertices(*graph_))) {
    for (const std::string& dependency : (*graph_)[from].dependencies) {
      const std::optional<Vertex> to = find(dependency);
      if (to && *to != from) boost::add_edge(from, *to, *graph_);
    }
  }
}

}  // namespace perflab::prefetch
