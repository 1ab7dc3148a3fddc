// Post-order class-load log to initiation order; see initiation_order.h.
#include "models/prefetch/initiation_order.h"

#include <algorithm>
#include <cstddef>

namespace perflab::prefetch {
namespace {

struct Node {
  std::size_t load = 0;               // index into the log
  std::vector<std::size_t> children;  // indexes into the node table, in log order
};

bool is_direct_supertype(const ClassHeader& header, const std::string& name) {
  return header.superclass == name ||
         std::find(header.interfaces.begin(), header.interfaces.end(), name) != header.interfaces.end();
}

}  // namespace

std::vector<TracedClassLoad> initiation_order(const std::vector<TracedClassLoad>& logged,
                                              const ClassHeaderLookup& header_of) {
  std::vector<Node> nodes(logged.size());
  std::vector<std::size_t> roots;  // a stack: the last logged tree on top
  for (std::size_t i = 0; i < logged.size(); ++i) {
    nodes[i].load = i;
    if (const ClassHeader* header = header_of(logged[i].class_name)) {
      std::vector<std::string> adopted;  // each supertype once
      while (!roots.empty()) {
        const std::string& top = logged[nodes[roots.back()].load].class_name;
        if (!is_direct_supertype(*header, top) ||
            std::find(adopted.begin(), adopted.end(), top) != adopted.end()) {
          break;
        }
        adopted.push_back(top);
        nodes[i].children.push_back(roots.back());
        roots.pop_back();
      }
      std::reverse(nodes[i].children.begin(), nodes[i].children.end());  // back to log order
    }
    roots.push_back(i);
  }

  std::vector<TracedClassLoad> initiated;
  initiated.reserve(logged.size());
  std::vector<std::size_t> to_visit(roots.rbegin(), roots.rend());  // pre-order, first root first
  while (!to_visit.empty()) {
    const std::size_t node = to_visit.back();
    to_visit.pop_back();
    initiated.push_back(logged[nodes[node].load]);
    const std::vector<std::size_t>& children = nodes[node].children;
    to_visit.insert(to_visit.end(), children.rbegin(), children.rend());
  }
  return initiated;
}

}  // namespace perflab::prefetch
