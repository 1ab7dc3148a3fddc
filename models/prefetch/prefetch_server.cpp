// PrefetchServer: fetch3 and its three traversals; see prefetch_server.h for the algorithm.
#include "models/prefetch/prefetch_server.h"

#include <utility>

namespace perflab::prefetch {

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
  const std::optional<Vertex> requested = graph_.find(name);
  if (!requested) return {};

  std::vector<SentClass> out;
  send(*requested, out);
  out.front().image_inline = !present_on_remote_[graph_.node(*requested).jar];
  prefetched_.insert(name);
  switch (options_.traversal) {
    case Traversal::kDfs:
      expand(*requested, 1, out);
      break;
    case Traversal::kBfs:
      expand_by_level(*requested, out);
      break;
    case Traversal::kJar:
      send_whole_jar(*requested, out);
      break;
  }
  return out;
}

std::optional<SentClass> PrefetchServer::fetch(const std::string& name) {
  ++stats_.fetch_calls;
  const std::optional<Vertex> vertex = graph_.find(name);
  if (!vertex) return std::nullopt;
  SentClass sent = load(*vertex);
  sent.image_inline = true;  // fetch returns the class file's bytes
  return sent;
}

void PrefetchServer::expand(Vertex x, int level, std::vector<SentClass>& out) {
  if (level > options_.prefetch_depth) return;
  for (const std::string& y_name : scan_dependencies(x)) {
    if (!prefetched_.insert(y_name).second) continue;
    const std::optional<Vertex> y = graph_.find(y_name);
    if (!y) continue;
    send(*y, out);
    if (level < options_.prune_threshold || same_jar(x, *y)) expand(*y, level + 1, out);
  }
}

void PrefetchServer::expand_by_level(Vertex requested, std::vector<SentClass>& out) {
  std::vector<Vertex> this_level = {requested};
  for (int level = 1; level <= options_.prefetch_depth && !this_level.empty(); ++level) {
    std::vector<Vertex> next_level;
    for (Vertex x : this_level) {
      for (const std::string& y_name : scan_dependencies(x)) {
        if (!prefetched_.insert(y_name).second) continue;
        const std::optional<Vertex> y = graph_.find(y_name);
        if (!y) continue;
        send(*y, out);
        if (level < options_.prune_threshold || same_jar(x, *y)) next_level.push_back(*y);
      }
    }
    this_level = std::move(next_level);
  }
}

void PrefetchServer::send_whole_jar(Vertex requested, std::vector<SentClass>& out) {
  if (options_.prefetch_depth <= 0) return;
  for (Vertex y : graph_.classes_in_jar(graph_.node(requested).jar)) {
    if (!prefetched_.insert(graph_.node(y).name).second) continue;
    send(y, out);
  }
}

const std::vector<std::string>& PrefetchServer::scan_dependencies(Vertex x) {
  if (!scanned_[x]) {
    scanned_[x] = true;
    ++stats_.classes_scanned;
  }
  return graph_.node(x).dependencies;
}

SentClass PrefetchServer::load(Vertex vertex) {
  ++stats_.classes_sent;
  if (!loaded_[vertex]) {
    loaded_[vertex] = true;
    ++stats_.classes_loaded;
  }
  const ClassNode& node = graph_.node(vertex);
  return SentClass{node.name, node.jar, node.class_file_bytes};
}

}  // namespace perflab::prefetch
