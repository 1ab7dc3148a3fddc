// Spans and DataSpans against Tahoe's own cases (src/allmydata/test/test_spans.py: test_basic, test_math,
// the DataSpans overwrite case) and against simple reference models: a set of integers, a byte map.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "models/share/spans.h"

namespace perflab::share {
namespace {

using Values = std::vector<uint64_t>;

TEST(Spans, TahoeBasic) {
  Spans s;
  EXPECT_EQ(s.len(), 0u);
  EXPECT_FALSE(s.contains(0, 1));
  Spans s1(3, 4);  // 3,4,5,6
  EXPECT_EQ(s1.each(), (Values{3, 4, 5, 6}));
  EXPECT_TRUE(s1.contains(3, 4));
  EXPECT_TRUE(s1.contains(4, 2));
  EXPECT_FALSE(s1.contains(2, 2));
  EXPECT_FALSE(s1.contains(6, 2));
  Spans s2 = s1;
  s2.add(10, 2);  // 10,11
  EXPECT_TRUE(s2.contains(10, 1));
  EXPECT_FALSE(s1.contains(10, 1));
  EXPECT_EQ(s2.each(), (Values{3, 4, 5, 6, 10, 11}));
  EXPECT_EQ(s2.len(), 6u);
  s2.add(15, 2).add(20, 2);
  EXPECT_EQ(s2.each(), (Values{3, 4, 5, 6, 10, 11, 15, 16, 20, 21}));
  EXPECT_EQ(s2.len(), 10u);
  s2.remove(4, 3).remove(15, 1);
  EXPECT_EQ(s2.each(), (Values{3, 10, 11, 16, 20, 21}));
  EXPECT_EQ(s2.len(), 6u);
  Spans i = Spans(3, 4) & Spans(5, 4);
  EXPECT_EQ(i.each(), (Values{5, 6}));
}

TEST(Spans, TahoeLarge) {
  Spans s(4, uint64_t{1} << 62);
  EXPECT_TRUE(s.contains(4, 2));
  EXPECT_TRUE(s.contains(uint64_t{1} << 61, 2));
  EXPECT_EQ(s.len(), uint64_t{1} << 62);
}

TEST(Spans, TahoeMath) {
  Spans s1(0, 10);  // 0..9
  Spans s2(5, 3);   // 5,6,7
  Spans s3(8, 4);   // 8..11
  EXPECT_EQ((s1 - s2).each(), (Values{0, 1, 2, 3, 4, 8, 9}));
  EXPECT_EQ((s1 - s3).each(), (Values{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ((s2 - s3).each(), (Values{5, 6, 7}));
  EXPECT_EQ((s1 & s2).each(), (Values{5, 6, 7}));
  EXPECT_EQ((s2 & s1).each(), (Values{5, 6, 7}));
  EXPECT_EQ((s1 & s3).each(), (Values{8, 9}));
  EXPECT_EQ((s3 & s1).each(), (Values{8, 9}));
  EXPECT_TRUE((s2 & s3).empty());
  EXPECT_TRUE((s3 & s2).empty());
  EXPECT_TRUE((Spans() & s3).empty());
  EXPECT_TRUE((s3 & Spans()).empty());
  EXPECT_EQ((s1 + s2).each(), (Values{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ((s1 + s3).each(), (Values{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ((s2 + s3).each(), (Values{5, 6, 7, 8, 9, 10, 11}));
  Spans s = s1;
  s -= s2;
  EXPECT_EQ(s.each(), (Values{0, 1, 2, 3, 4, 8, 9}));
  s = s2;
  s += s3;
  EXPECT_EQ(s.each(), (Values{5, 6, 7, 8, 9, 10, 11}));
}

TEST(Spans, AdjacentRangesMerge) {
  Spans s;
  s.add(0, 4).add(8, 4).add(4, 4);
  ASSERT_EQ(s.spans().size(), 1u);
  EXPECT_EQ(s.spans()[0], (Span{0, 12}));
  s.remove(4, 4);
  EXPECT_EQ(s.spans().size(), 2u);
}

// Checks the invariant: sorted, disjoint, non-adjacent, non-empty.
void expect_canonical(const Spans& s) {
  for (size_t i = 0; i < s.spans().size(); ++i) {
    EXPECT_GT(s.spans()[i].length, 0u);
    if (i > 0) {
      EXPECT_LT(s.spans()[i - 1].end(), s.spans()[i].start);
    }
  }
}

Values values_of(const std::set<uint64_t>& set) {
  return {set.begin(), set.end()};
}

TEST(Spans, RandomOpsMatchASetOfIntegers) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 5; ++trial) {
    Spans s;
    std::set<uint64_t> model;
    for (int op = 0; op < 1000; ++op) {
      uint64_t start = rng() % 100;
      uint64_t length = 1 + rng() % 20;
      Spans other(start, length);
      std::set<uint64_t> other_model;
      for (uint64_t v = start; v < start + length; ++v) other_model.insert(v);
      switch (rng() % 5) {
        case 0:
          s.add(start, length);
          model.insert(other_model.begin(), other_model.end());
          break;
        case 1:
          s.remove(start, length);
          for (uint64_t v : other_model) model.erase(v);
          break;
        case 2: {
          s = s & other;
          std::set<uint64_t> kept;
          for (uint64_t v : model) {
            if (other_model.count(v)) kept.insert(v);
          }
          model = kept;
          break;
        }
        case 3:
          s = s + other;
          model.insert(other_model.begin(), other_model.end());
          break;
        default:
          s = s - other;
          for (uint64_t v : other_model) model.erase(v);
          break;
      }
      expect_canonical(s);
      ASSERT_EQ(s.each(), values_of(model)) << "after op " << op;
      ASSERT_EQ(s.len(), model.size());
      bool all = true;
      for (uint64_t v = start; v < start + length; ++v) all = all && model.count(v);
      ASSERT_EQ(s.contains(start, length), all);
    }
  }
}

// Every pair of ranges inside [0, 12): add, remove, intersect, contain, each checked against the model.
TEST(Spans, ExhaustiveSmallOverlaps) {
  for (uint64_t a = 0; a < 10; ++a) {
    for (uint64_t alen = 1; a + alen <= 12; ++alen) {
      for (uint64_t b = 0; b < 10; ++b) {
        for (uint64_t blen = 1; b + blen <= 12; ++blen) {
          std::set<uint64_t> sa, sb, sum, diff, both;
          for (uint64_t v = a; v < a + alen; ++v) sa.insert(v);
          for (uint64_t v = b; v < b + blen; ++v) sb.insert(v);
          for (uint64_t v = 0; v < 12; ++v) {
            if (sa.count(v) || sb.count(v)) sum.insert(v);
            if (sa.count(v) && !sb.count(v)) diff.insert(v);
            if (sa.count(v) && sb.count(v)) both.insert(v);
          }
          Spans x(a, alen);
          Spans y(b, blen);
          Spans u = x + y;
          expect_canonical(u);
          EXPECT_EQ(u.each(), values_of(sum));
          EXPECT_EQ((x - y).each(), values_of(diff));
          EXPECT_EQ((x & y).each(), values_of(both));
          EXPECT_EQ(x.contains(b, blen), both.size() == blen);
          // adjacent or overlapping ranges merge into one span
          EXPECT_EQ(u.spans().size(), (b <= a + alen && a <= b + blen) ? 1u : 2u);
        }
      }
    }
  }
}

TEST(DataSpans, TahoeOverwrite) {
  DataSpans ds;
  ds.add(2, "four");
  ds.add(3, "ea");
  EXPECT_EQ(ds.get(2, 4), std::optional<std::string>("fear"));
}

TEST(DataSpans, GetOnlyWholeRanges) {
  DataSpans ds;
  ds.add(10, "abcde");
  EXPECT_EQ(ds.get(10, 5), std::optional<std::string>("abcde"));
  EXPECT_EQ(ds.get(11, 2), std::optional<std::string>("bc"));
  EXPECT_FALSE(ds.get(9, 2));
  EXPECT_FALSE(ds.get(14, 2));
  ds.add(15, "fg");  // adjacent: merged
  ASSERT_EQ(ds.chunks().size(), 1u);
  EXPECT_EQ(ds.get(14, 2), std::optional<std::string>("ef"));
  EXPECT_EQ(ds.pop(12, 3), std::optional<std::string>("cde"));
  EXPECT_EQ(ds.spans().each(), (Values{10, 11, 15, 16}));
  EXPECT_FALSE(ds.pop(11, 5));
  EXPECT_EQ(ds.len(), 4u);
}

TEST(DataSpans, RandomOpsMatchAByteMap) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 5; ++trial) {
    DataSpans ds;
    std::map<uint64_t, char> model;
    for (int op = 0; op < 1000; ++op) {
      uint64_t start = rng() % 100;
      uint64_t length = 1 + rng() % 20;
      int kind = static_cast<int>(rng() % 4);
      if (kind == 0 || kind == 1) {
        std::string data;
        for (uint64_t i = 0; i < length; ++i) data += static_cast<char>('a' + rng() % 26);
        ds.add(start, data);
        for (uint64_t i = 0; i < length; ++i) model[start + i] = data[i];
      } else if (kind == 2) {
        ds.remove(start, length);
        for (uint64_t i = 0; i < length; ++i) model.erase(start + i);
      } else {
        bool held = true;
        std::string expected;
        for (uint64_t i = 0; i < length; ++i) {
          auto it = model.find(start + i);
          held = held && it != model.end();
          if (held) expected += it->second;
        }
        auto got = ds.pop(start, length);
        ASSERT_EQ(got.has_value(), held) << "op " << op;
        if (held) {
          ASSERT_EQ(*got, expected);
          for (uint64_t i = 0; i < length; ++i) model.erase(start + i);
        }
      }
      const auto& chunks = ds.chunks();
      for (size_t i = 1; i < chunks.size(); ++i) ASSERT_LT(chunks[i - 1].end(), chunks[i].start);
      Values offsets;
      for (const auto& [offset, byte] : model) offsets.push_back(offset);
      ASSERT_EQ(ds.spans().each(), offsets);
      for (const auto& chunk : chunks) {
        for (uint64_t i = 0; i < chunk.data.size(); ++i) ASSERT_EQ(chunk.data[i], model.at(chunk.start + i));
      }
    }
  }
}

TEST(Spans, CountsTheElementsItTouches) {
  OpCounter ops;
  Spans s(&ops);
  s.add(0, 1).add(10, 1).add(20, 1);
  uint64_t before = ops.count();
  EXPECT_GT(before, 0u);
  EXPECT_TRUE(s.contains(20, 1));
  EXPECT_EQ(ops.count() - before, 3u);  // walked all three spans
}

}  // namespace
}  // namespace perflab::share
