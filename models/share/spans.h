// Spans and DataSpans: the bookkeeping of Tahoe-LAFS's downloader (src/allmydata/util/spans.py).
// A Share keeps what it asked for (`pending`), what came back (`received`, with the bytes) and what never
// will (`unavailable`) as Spans; desire() builds its want/need bitmaps from them on every loop() pass,
// which is the CPU cost the coalescing fix (ticket #1268) saves.
//
//   Spans:     a set of integers held as a sorted list of disjoint, non-adjacent [start, start+length)
//              ranges (adding a range that overlaps or touches others merges them).
//   DataSpans: sparse bytes as sorted, merged (start, data) chunks; new data overwrites old, get() returns
//              bytes only if the whole range is held.
// Like spans.py the operations walk their sorted lists; every element touched is counted (op_counter.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/share/op_counter.h"

namespace perflab::share {

struct Span {
  uint64_t start = 0;
  uint64_t length = 0;
  uint64_t end() const { return start + length; }
  bool operator==(const Span& other) const { return start == other.start && length == other.length; }
};

class Spans {
 public:
  explicit Spans(OpCounter* ops = nullptr) : ops_(ops) {}
  Spans(uint64_t start, uint64_t length, OpCounter* ops = nullptr);

  Spans& add(uint64_t start, uint64_t length);
  Spans& remove(uint64_t start, uint64_t length);
  uint64_t len() const;                                  // how many integers are held
  bool contains(uint64_t start, uint64_t length) const;  // the whole range is held
  bool empty() const { return spans_.empty(); }
  std::vector<uint64_t> each() const;  // every integer held, ascending (tests)

  const std::vector<Span>& spans() const { return spans_; }
  std::vector<Span>::const_iterator begin() const { return spans_.begin(); }
  std::vector<Span>::const_iterator end() const { return spans_.end(); }

  Spans operator+(const Spans& other) const;  // union
  Spans operator-(const Spans& other) const;  // difference
  Spans operator&(const Spans& other) const;  // intersection
  Spans& operator+=(const Spans& other);
  Spans& operator-=(const Spans& other);

 private:
  std::vector<Span> spans_;
  OpCounter* ops_;
};

class DataSpans {
 public:
  struct Chunk {
    uint64_t start = 0;
    std::string data;
    uint64_t end() const { return start + data.size(); }
  };

  explicit DataSpans(OpCounter* ops = nullptr) : ops_(ops) {}

  void add(uint64_t start, std::string data);  // overwrites what was held there
  std::optional<std::string> get(uint64_t start, uint64_t length) const;
  void remove(uint64_t start, uint64_t length);
  // get, and remove if held; a range that is one whole chunk is moved out, not copied.
  std::optional<std::string> pop(uint64_t start, uint64_t length);
  Spans spans() const;   // the offsets held
  uint64_t len() const;  // bytes held
  void clear() { chunks_.clear(); }
  const std::vector<Chunk>& chunks() const { return chunks_; }

 private:
  std::vector<Chunk> chunks_;
  OpCounter* ops_;
};

}  // namespace perflab::share
