// VectorQueue: the per-host FIFO of the indexed strategy, its front kept inline and the rest in a vector
// that is compacted as its head moves.
#include "models/dispatcher/vector_queue.h"

#include <gtest/gtest.h>

#include <vector>

namespace perflab::dispatcher {
namespace {

std::vector<int> items_of(const VectorQueue<int>& queue) {
  std::vector<int> items;
  queue.for_each([&](int item) { items.push_back(item); });
  return items;
}

TEST(VectorQueue, PopsInTheOrderItemsWerePushedThroughRefillsAndCompaction) {
  VectorQueue<int> queue;
  EXPECT_TRUE(queue.empty());
  int next_in = 0;
  int next_out = 0;
  // Rounds of pushing more than popping, then draining, move the head past the compaction threshold.
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 100; ++i) {
      queue.push_back(next_in++);
      if (i % 3 == 0) {
        ASSERT_EQ(queue.pop_front(), next_out++);
      }
    }
    ASSERT_EQ(queue.size(), static_cast<size_t>(next_in - next_out));
    ASSERT_EQ(queue.front(), next_out);
    while (queue.size() > 10) {
      ASSERT_EQ(queue.pop_front(), next_out++);
    }
  }
  std::vector<int> rest;
  for (int i = next_out; i < next_in; ++i) {
    rest.push_back(i);
  }
  EXPECT_EQ(items_of(queue), rest);
  while (!queue.empty()) {
    EXPECT_EQ(queue.pop_front(), next_out++);
  }
  EXPECT_EQ(next_out, next_in);
  EXPECT_EQ(queue.size(), 0U);
  EXPECT_TRUE(items_of(queue).empty());
}

TEST(VectorQueue, AQueueEmptiedAndRefilledStartsAfresh) {
  VectorQueue<int> queue;
  queue.push_back(1);
  queue.push_back(2);
  EXPECT_EQ(queue.pop_front(), 1);
  EXPECT_EQ(queue.pop_front(), 2);
  queue.push_back(3);
  EXPECT_EQ(queue.size(), 1U);
  EXPECT_EQ(items_of(queue), std::vector<int>{3});
  EXPECT_EQ(queue.pop_front(), 3);
  EXPECT_TRUE(queue.empty());
}

}  // namespace
}  // namespace perflab::dispatcher
