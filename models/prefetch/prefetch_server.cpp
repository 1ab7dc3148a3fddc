// PrefetchServer: fetch3 and its three traversals; see prefetch_server.h for the algorithm.
#include "models/prefetch/prefetch_server.h"

#include <utility>

namespace perflab::prefetch {

std::optional<Traversal> ParseTraversal(std::string_view name) {
  for (Traversal traversal : kTraversals) {
    if (name == TraversalName(traversal)) return traversal;
  }
  return std::nullopt;
}

const char* TraversalName(Traversal traversal) {
  switch (traversal) {
    case Traversal::kDfs:
      return "dfs";
    case Traversal::kBfs:
      return "bfs";
    case Traversal::kJar:
      return "jar";
  }
  return "?";
}

PrefetchServer::PrefetchServer(const DependencyGraph& graph, PrefetchOptions options)
    : graph_(graph),
      options_(options),
      loaded_(graph.class_count()),
      scanned_(graph.class_count()),
      present_on_remote_(static_cast<std::size_t>(graph.jar_count())) {}

void PrefetchServer::notify_jar_present(int jar) {
  if (jar >= 0 && jar < static_cast<int>(present_on_remote_.size())) present_on_remote_[jar] = true;
}

std::vector<SentClass> PrefetchServer::fetch3(const std::string& name) {
  ++stats_.fetch3_calls;
  const std::optional<Vertex> requested = graph_.Find(name);
  if (!requested) return {};

  std::vector<SentClass> out;
  Send(*requested, &out);
  out.front().image_inline = !present_on_remote_[graph_.node(*requested).jar];
  prefetched_.insert(name);
  switch (options_.traversal) {
    case Traversal::kDfs:
      Expand(*requested, 1, &out);
      break;
    case Traversal::kBfs:
      ExpandByLevel(*requested, &out);
      break;
    case Traversal::kJar:
      SendWholeJar(*requested, &out);
      break;
  }
  return out;
}

std::optional<SentClass> PrefetchServer::fetch(const std::string& name) {
  ++stats_.fetch_calls;
  const std::optional<Vertex> vertex = graph_.Find(name);
  if (!vertex) return std::nullopt;
  SentClass sent = Load(*vertex);
  sent.image_inline = true;  // fetch returns the class file's bytes
  return sent;
}

void PrefetchServer::Expand(Vertex x, int level, std::vector<SentClass>* out) {
  if (level > options_.prefetch_depth) return;
  for (const std::string& y_name : ScanDependencies(x)) {
    if (!prefetched_.insert(y_name).second) continue;
    const std::optional<Vertex> y = graph_.Find(y_name);
    if (!y) continue;
    Send(*y, out);
    if (level < options_.prune_threshold || SameJar(x, *y)) Expand(*y, level + 1, out);
  }
}

void PrefetchServer::ExpandByLevel(Vertex requested, std::vector<SentClass>* out) {
  std::vector<Vertex> this_level = {requested};
  for (int level = 1; level <= options_.prefetch_depth && !this_level.empty(); ++level) {
    std::vector<Vertex> next_level;
    for (Vertex x : this_level) {
      for (const std::string& y_name : ScanDependencies(x)) {
        if (!prefetched_.insert(y_name).second) continue;
        const std::optional<Vertex> y = graph_.Find(y_name);
        if (!y) continue;
        Send(*y, out);
        if (level < options_.prune_threshold || SameJar(x, *y)) next_level.push_back(*y);
      }
    }
    this_level = std::move(next_level);
  }
}

void PrefetchServer::SendWholeJar(Vertex requested, std::vector<SentClass>* out) {
  if (options_.prefetch_depth <= 0) return;
  for (Vertex y : graph_.classes_in_jar(graph_.node(requested).jar)) {
    if (!prefetched_.insert(graph_.node(y).name).second) continue;
    Send(y, out);
  }
}

const std::vector<std::string>& PrefetchServer::ScanDependencies(Vertex x) {
  if (!scanned_[x]) {
    scanned_[x] = true;
    ++stats_.classes_scanned;
  }
  return graph_.node(x).dependencies;
}

SentClass PrefetchServer::Load(Vertex vertex) {
  ++stats_.classes_sent;
  if (!loaded_[vertex]) {
    loaded_[vertex] = true;
    ++stats_.classes_loaded;
  }
  const ClassNode& node = graph_.node(vertex);
  return SentClass{node.name, node.jar, node.class_file_bytes};
}

}  // namespace perflab::prefetch
