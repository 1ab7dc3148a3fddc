// What one element of scan's walk costs on this machine, by where the running list's memory lies: a hot loop
// over a linked list of N nodes, each pointing to a Call whose host is compared with the ready call's (as
// ScanTracker::running_calls_for_host does), with the nodes and Calls placed STRIDE bytes apart in walk order
// or in shuffled order. Prints ns per element, the median of 7 timed passes of 20,000 walks.
//
//   g++ -O2 -std=c++17 -o /tmp/walk_layout walk_layout.cpp && /tmp/walk_layout N STRIDE SHUFFLED
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <random>
#include <string>
#include <vector>

struct Call {
  std::string host;
  bool for_web_socket = false;
};
struct Node {
  Node* next = nullptr;
  Call* call = nullptr;
};

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: walk_layout N STRIDE SHUFFLED(0|1)\n");
    return 2;
  }
  const size_t n = std::strtoul(argv[1], nullptr, 10), stride = std::strtoul(argv[2], nullptr, 10);
  const bool shuffled = std::atoi(argv[3]) != 0;
  if (n < 2 || stride < 256) {
    std::fprintf(stderr, "walk_layout: N >= 2 and STRIDE >= 256 bytes\n");
    return 2;
  }
  std::mt19937 rng(1), hosts(2);    // the hosts drawn alike whatever the layout
  std::vector<size_t> slot(2 * n);  // slot 2i holds call i, slot 2i+1 its node (at +128 B: another line)
  for (size_t i = 0; i < slot.size(); ++i) slot[i] = i;
  if (shuffled) std::shuffle(slot.begin(), slot.end(), rng);
  std::unique_ptr<char[]> pool(new char[stride * slot.size() + 256]);
  std::vector<Node*> nodes;
  for (size_t i = 0; i < n; ++i) {
    Call* call = new (pool.get() + stride * slot[2 * i]) Call{"host-" + std::to_string(hosts() % 20)};
    nodes.push_back(new (pool.get() + stride * slot[2 * i + 1] + 128) Node{nullptr, call});
  }
  for (size_t i = 0; i + 1 < n; ++i) nodes[i]->next = nodes[i + 1];
  const Call ready{"host-0"};
  std::vector<double> ns_per_element;
  long matches = 0;
  for (int pass = 0; pass < 7; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    for (int walk = 0; walk < 20000; ++walk) {
      for (const Node* node = nodes.front(); node != nullptr; node = node->next) {
        if (node->call->for_web_socket) continue;
        if (node->call->host == ready.host) ++matches;
      }
    }
    const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
    ns_per_element.push_back(took.count() / (20000.0 * static_cast<double>(n)));
  }
  std::nth_element(ns_per_element.begin(), ns_per_element.begin() + 3, ns_per_element.end());
  std::printf("N=%zu stride=%zu %s ns/element=%.2f (matches %ld)\n", n, stride,
              shuffled ? "shuffled" : "in-order", ns_per_element[3], matches);
  for (Node* node : nodes) node->call->~Call();
  return 0;
}
