// A hash map from host name to a per-host value that stays at one address while hosts come and go: the
// indexed strategy's table of lanes, which its eligible-heads set and running calls point into.
//
// Open addressing with linear probing, kept at most half full, and backward-shift deletion (no
// tombstones). Beside each slot (hash, entry) sits a one-byte tag, seven bits of the hash: a lookup scans
// the compact tag array and reads a slot only when its tag matches, so adding a host that is not there
// reads nothing else. With tens of thousands of hosts this matters: std::unordered_map walks a linked
// bucket chain, one cache miss per link, and that walk was most of the time of the distinct-hosts
// workload. (LevelDB's util/cache.cc keeps its own small table for the same reason; the tag array is the
// idea of Abseil's Swiss tables, without their SIMD group probing.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace perflab::dispatcher {

template <typename Value, typename Hash = std::hash<std::string_view>>
class HostTable {
 public:
  struct Entry {
    std::string host;
    Value value;
  };

  // Returns the host's entry, its value constructed from `args` if the host is new. The entry stays where
  // it is until the host is erased.
  template <typename... Args>
  Entry& find_or_add(std::string_view host, Args&&... args) {
    const size_t hash = Hash()(host);
    size_t index = find(host, hash);
    if (tags_[index] == kFree) {
      if (2 * (size_ + 1) > tags_.size()) {
        grow();
        index = find(host, hash);
      }
      tags_[index] = tag_of(hash);
      slots_[index] = {hash,
                       std::make_unique<Entry>(Entry{std::string(host), Value(std::forward<Args>(args)...)})};
      ++size_;
    }
    return *slots_[index].entry;
  }

  // Drops the host and its value; a host that is not there is ignored.
  void erase(std::string_view host) {
    size_t hole = find(host, Hash()(host));
    if (tags_[hole] == kFree) {
      return;
    }
    free_slot(hole);
    --size_;
    // Close the hole: a later entry of the same probe run moves into it unless its home lies
    // (cyclically) after the hole, in which case a lookup never passes the hole to reach it.
    for (size_t index = next(hole); tags_[index] != kFree; index = next(index)) {
      const size_t home = home_of(slots_[index].hash);
      const bool home_after_hole =
          hole <= index ? (hole < home && home <= index) : (hole < home || home <= index);
      if (!home_after_hole) {
        tags_[hole] = tags_[index];
        slots_[hole] = std::move(slots_[index]);
        free_slot(index);
        hole = index;
      }
    }
  }

  size_t size() const { return size_; }

  // Calls visit(host, value) for every host, in no particular order.
  template <typename Visit>
  void for_each(Visit visit) {
    for (Slot& slot : slots_) {
      if (slot.entry != nullptr) {
        visit(std::as_const(slot.entry->host), slot.entry->value);
      }
    }
  }
  template <typename Visit>
  void for_each(Visit visit) const {
    for (const Slot& slot : slots_) {
      if (slot.entry != nullptr) {
        visit(slot.entry->host, std::as_const(slot.entry->value));
      }
    }
  }

 private:
  struct Slot {
    size_t hash = 0;
    std::unique_ptr<Entry> entry;
  };
  static constexpr uint8_t kFree = 0;
  static constexpr size_t kInitialSlots = 16;

  static uint8_t tag_of(size_t hash) {
    return static_cast<uint8_t>(0x80 | (hash >> (8 * sizeof(size_t) - 7)));
  }
  size_t home_of(size_t hash) const { return hash & (tags_.size() - 1); }
  size_t next(size_t index) const { return (index + 1) & (tags_.size() - 1); }

  // The slot holding `host`, or else the free slot that ends its probe run.
  size_t find(std::string_view host, size_t hash) const {
    const uint8_t tag = tag_of(hash);
    size_t index = home_of(hash);
    for (; tags_[index] != kFree; index = next(index)) {
      if (tags_[index] == tag && slots_[index].hash == hash && slots_[index].entry->host == host) {
        break;
      }
    }
    return index;
  }

  void free_slot(size_t index) {
    tags_[index] = kFree;
    slots_[index] = {};
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    tags_.assign(old.size() * 2, kFree);
    slots_ = std::vector<Slot>(old.size() * 2);
    for (Slot& slot : old) {
      if (slot.entry != nullptr) {
        size_t index = home_of(slot.hash);
        while (tags_[index] != kFree) {
          index = next(index);
        }
        tags_[index] = tag_of(slot.hash);
        slots_[index] = std::move(slot);
      }
    }
  }

  // Parallel arrays, a power of two long and at most half full.
  std::vector<uint8_t> tags_ = std::vector<uint8_t>(kInitialSlots, kFree);  // kFree or 0x80 | top 7 hash bits
  std::vector<Slot> slots_ = std::vector<Slot>(kInitialSlots);
  size_t size_ = 0;
};

}  // namespace perflab::dispatcher
