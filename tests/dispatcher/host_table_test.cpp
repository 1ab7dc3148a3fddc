// HostTable: the indexed strategy's open-addressing table of hosts. A test hash places hosts at chosen
// home slots, so probe runs, wrap-around and the backward shift that closes an erased slot's hole are
// exercised on purpose; a randomised run checks the table against std::unordered_map.
#include "models/dispatcher/host_table.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <unordered_map>

namespace perflab::dispatcher {
namespace {

// "15/a" hashes to 15: the part before the slash is the hash, so a test chooses each host's home slot
// (the table starts with 16 slots).
struct ChosenHash {
  size_t operator()(std::string_view host) const {
    return std::stoul(std::string(host.substr(0, host.find('/'))));
  }
};

template <typename Table>
std::map<std::string, int> contents(const Table& table) {
  std::map<std::string, int> seen;
  table.for_each([&](const std::string& host, int value) { seen[host] = value; });
  return seen;
}

TEST(HostTable, FindsAHostItAddedAndConstructsANewOneFromTheArguments) {
  HostTable<int> table;
  HostTable<int>::Entry& a = table.find_or_add("a", 7);
  EXPECT_EQ(a.host, "a");
  EXPECT_EQ(a.value, 7);
  EXPECT_EQ(&table.find_or_add("a", 99), &a);
  EXPECT_EQ(a.value, 7) << "an existing host keeps its value";
  EXPECT_EQ(table.size(), 1U);
}

TEST(HostTable, EntriesStayPutWhileTheTableGrowsAndOtherHostsGo) {
  HostTable<int> table;
  HostTable<int>::Entry* first = &table.find_or_add("first", 1);
  for (int i = 0; i < 10000; ++i) {
    table.find_or_add("h" + std::to_string(i), i);
  }
  for (int i = 0; i < 10000; i += 2) {
    table.erase("h" + std::to_string(i));
  }
  EXPECT_EQ(&table.find_or_add("first", 0), first);
  EXPECT_EQ(first->value, 1);
  EXPECT_EQ(table.size(), 5001U);
}

TEST(HostTable, ErasingOneHostOfACollidingRunKeepsTheOthersFindable) {
  HostTable<int, ChosenHash> table;
  for (const char* host : {"3/a", "3/b", "3/c", "4/d", "3/e"}) {
    table.find_or_add(host, 1);
  }
  table.erase("3/b");
  table.erase("3/a");
  EXPECT_EQ(table.size(), 3U);
  EXPECT_EQ(contents(table), (std::map<std::string, int>{{"3/c", 1}, {"4/d", 1}, {"3/e", 1}}));
  for (const char* host : {"3/c", "4/d", "3/e"}) {
    EXPECT_EQ(table.find_or_add(host, 2).value, 1) << host << " must be found, not added again";
  }
  EXPECT_EQ(table.size(), 3U);
}

TEST(HostTable, ErasingAcrossTheEndOfTheArrayKeepsWrappedHostsFindable) {
  HostTable<int, ChosenHash> table;
  // Homes 14, 15, 15, 0, 0 occupy slots 14, 15, 0, 1, 2: the run wraps past the last slot.
  for (const char* host : {"14/a", "15/b", "15/c", "0/d", "0/e"}) {
    table.find_or_add(host, 1);
  }
  table.erase("15/b");  // 15/c, 0/d and 0/e each move back one slot, across the wrap
  table.erase("14/a");  // nothing moves into slot 14: every remaining host has its home after it
  EXPECT_EQ(contents(table), (std::map<std::string, int>{{"15/c", 1}, {"0/d", 1}, {"0/e", 1}}));
  for (const char* host : {"15/c", "0/d", "0/e"}) {
    EXPECT_EQ(table.find_or_add(host, 2).value, 1) << host;
  }
}

TEST(HostTable, ErasingAHostThatIsNotThereChangesNothing) {
  HostTable<int, ChosenHash> table;
  table.find_or_add("5/a", 1);
  table.erase("5/b");
  table.erase("6/a");
  EXPECT_EQ(table.size(), 1U);
  EXPECT_EQ(contents(table), (std::map<std::string, int>{{"5/a", 1}}));
}

TEST(HostTable, AgreesWithUnorderedMapOverRandomAddsAndErases) {
  // Few distinct homes (0..63) and many hosts: long probe runs, wrap-around and growth all occur.
  HostTable<int, ChosenHash> table;
  std::unordered_map<std::string, int> expected;
  std::mt19937 rng(42);
  std::uniform_int_distribution<int> home(0, 63);
  std::uniform_int_distribution<int> name(0, 400);
  std::uniform_int_distribution<int> action(0, 2);
  for (int step = 0; step < 20000; ++step) {
    const std::string host = std::to_string(home(rng)) + "/" + std::to_string(name(rng));
    if (action(rng) == 0) {
      table.erase(host);
      expected.erase(host);
    } else {
      EXPECT_EQ(table.find_or_add(host, step).value, expected.try_emplace(host, step).first->second) << host;
    }
    ASSERT_EQ(table.size(), expected.size()) << "after step " << step;
  }
  const std::map<std::string, int> expected_contents(expected.begin(), expected.end());
  EXPECT_EQ(contents(table), expected_contents);
}

}  // namespace
}  // namespace perflab::dispatcher
