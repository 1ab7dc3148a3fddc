// Spans and DataSpans (see spans.h): linear walks over sorted vectors, as spans.py walks its lists.
#include "models/share/spans.h"

#include <algorithm>

namespace perflab::share {

Spans::Spans(uint64_t start, uint64_t length, OpCounter* ops) : ops_(ops) {
  add(start, length);
}

Spans& Spans::add(uint64_t start, uint64_t length) {
  if (length == 0) return *this;
  uint64_t end = start + length;
  // The first span that ends at or after `start` is the first one this range overlaps or touches.
  size_t first = 0;
  while (first < spans_.size() && spans_[first].end() < start) ++first;
  size_t last = first;  // one past the last span merged
  while (last < spans_.size() && spans_[last].start <= end) {
    start = std::min(start, spans_[last].start);
    end = std::max(end, spans_[last].end());
    ++last;
  }
  count_ops(ops_, last + 1);
  auto at = spans_.erase(spans_.begin() + static_cast<std::ptrdiff_t>(first),
                         spans_.begin() + static_cast<std::ptrdiff_t>(last));
  spans_.insert(at, Span{start, end - start});
  return *this;
}

Spans& Spans::remove(uint64_t start, uint64_t length) {
  if (length == 0) return *this;
  uint64_t end = start + length;
  std::vector<Span> kept;
  size_t i = 0;
  while (i < spans_.size() && spans_[i].end() <= start) ++i;
  size_t first = i;
  while (i < spans_.size() && spans_[i].start < end) {
    const Span& span = spans_[i];
    if (span.start < start) kept.push_back({span.start, start - span.start});
    if (span.end() > end) kept.push_back({end, span.end() - end});
    ++i;
  }
  count_ops(ops_, i + kept.size());
  auto at = spans_.erase(spans_.begin() + static_cast<std::ptrdiff_t>(first),
                         spans_.begin() + static_cast<std::ptrdiff_t>(i));
  spans_.insert(at, kept.begin(), kept.end());
  return *this;
}

uint64_t Spans::len() const {
  uint64_t total = 0;
  for (const Span& span : spans_) total += span.length;
  count_ops(ops_, spans_.size());
  return total;
}

bool Spans::contains(uint64_t start, uint64_t length) const {
  size_t visited = 0;
  bool held = false;
  for (const Span& span : spans_) {
    ++visited;
    if (span.start > start) break;
    if (span.end() > start) {
      held = start + length <= span.end();
      break;
    }
  }
  count_ops(ops_, visited);
  return held;
}

std::vector<uint64_t> Spans::each() const {
  std::vector<uint64_t> values;
  for (const Span& span : spans_) {
    for (uint64_t v = span.start; v < span.end(); ++v) values.push_back(v);
  }
  return values;
}

Spans Spans::operator+(const Spans& other) const {
  Spans result = *this;
  result += other;
  return result;
}

Spans Spans::operator-(const Spans& other) const {
  Spans result = *this;
  result -= other;
  return result;
}

Spans& Spans::operator+=(const Spans& other) {
  for (const Span& span : other.spans_) add(span.start, span.length);
  return *this;
}

Spans& Spans::operator-=(const Spans& other) {
  for (const Span& span : other.spans_) remove(span.start, span.length);
  return *this;
}

Spans Spans::operator&(const Spans& other) const {
  Spans result(ops_);
  size_t a = 0;
  size_t b = 0;
  while (a < spans_.size() && b < other.spans_.size()) {
    const Span& x = spans_[a];
    const Span& y = other.spans_[b];
    uint64_t left = std::max(x.start, y.start);
    uint64_t right = std::min(x.end(), y.end());
    if (left < right) result.spans_.push_back({left, right - left});
    (x.end() < y.end()) ? ++a : ++b;
  }
  count_ops(ops_, a + b + result.spans_.size());
  return result;
}

void DataSpans::add(uint64_t start, std::string data) {
  if (data.empty()) return;
  uint64_t end = start + data.size();
  size_t first = 0;
  while (first < chunks_.size() && chunks_[first].end() < start) ++first;
  size_t last = first;
  while (last < chunks_.size() && chunks_[last].start <= end) ++last;
  count_ops(ops_, last + 1);
  if (first == last) {
    chunks_.insert(chunks_.begin() + static_cast<std::ptrdiff_t>(first), Chunk{start, std::move(data)});
    return;
  }
  // Old bytes before `start` and after `end` survive; the new data wins where they overlap.
  Chunk merged;
  const Chunk& head = chunks_[first];
  const Chunk& tail = chunks_[last - 1];
  merged.start = std::min(start, head.start);
  if (head.start < start) merged.data = head.data.substr(0, start - head.start);
  merged.data += data;
  if (tail.end() > end) merged.data += tail.data.substr(end - tail.start);
  chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(first + 1),
                chunks_.begin() + static_cast<std::ptrdiff_t>(last));
  chunks_[first] = std::move(merged);
}

std::optional<std::string> DataSpans::get(uint64_t start, uint64_t length) const {
  size_t visited = 0;
  std::optional<std::string> found;
  for (const Chunk& chunk : chunks_) {
    ++visited;
    if (chunk.start > start) break;
    if (chunk.end() > start) {
      // Chunks are merged, so a held range lies inside one chunk.
      if (start + length <= chunk.end()) found = chunk.data.substr(start - chunk.start, length);
      break;
    }
  }
  count_ops(ops_, visited);
  return found;
}

void DataSpans::remove(uint64_t start, uint64_t length) {
  if (length == 0) return;
  uint64_t end = start + length;
  std::vector<Chunk> kept;
  size_t i = 0;
  while (i < chunks_.size() && chunks_[i].end() <= start) ++i;
  size_t first = i;
  while (i < chunks_.size() && chunks_[i].start < end) {
    const Chunk& chunk = chunks_[i];
    if (chunk.start < start) kept.push_back({chunk.start, chunk.data.substr(0, start - chunk.start)});
    if (chunk.end() > end) kept.push_back({end, chunk.data.substr(end - chunk.start)});
    ++i;
  }
  count_ops(ops_, i + kept.size());
  auto at = chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(first),
                          chunks_.begin() + static_cast<std::ptrdiff_t>(i));
  chunks_.insert(at, std::make_move_iterator(kept.begin()), std::make_move_iterator(kept.end()));
}

std::optional<std::string> DataSpans::pop(uint64_t start, uint64_t length) {
  size_t at = 0;
  while (at < chunks_.size() && chunks_[at].end() <= start) ++at;
  if (length > 0 && at < chunks_.size() && chunks_[at].start == start && chunks_[at].data.size() == length) {
    // What get() and remove() would count: each walks the at + 1 chunks up to this one.
    count_ops(ops_, 2 * (at + 1));
    std::string data = std::move(chunks_[at].data);
    chunks_.erase(chunks_.begin() + static_cast<std::ptrdiff_t>(at));
    return data;
  }
  auto data = get(start, length);
  if (data) remove(start, length);
  return data;
}

Spans DataSpans::spans() const {
  Spans result(ops_);
  for (const Chunk& chunk : chunks_) result.add(chunk.start, chunk.data.size());
  return result;
}

uint64_t DataSpans::len() const {
  uint64_t total = 0;
  for (const Chunk& chunk : chunks_) total += chunk.data.size();
  return total;
}

}  // namespace perflab::share
