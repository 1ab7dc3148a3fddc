// empirical(file.csv): values come only from the file, with the right frequencies; every kind of bad
// file is refused with "FILE:LINE: ..." and no exception escapes.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "sim/sampling/distribution.h"
#include "sim/sampling/empirical_file.h"

namespace perflab {
namespace {

namespace fs = std::filesystem;

class SamplingEmpirical : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("perflab_sampling_" + std::string(test->name()) + "_" +
                                        std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& name, const std::string& content) {
    std::ofstream(dir_ / name, std::ios::binary) << content;
  }
  Result<Distribution> parse(const std::string& spec, Quantity quantity = Quantity::kDuration) {
    return Distribution::parse(spec, quantity, dir_);
  }
  std::string error_of(const std::string& content) {
    write("bad.csv", content);
    Result<Distribution> d = parse("empirical(bad.csv)");
    EXPECT_FALSE(d.ok()) << "accepted:\n" << content;
    return d.status().message();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

TEST_F(SamplingEmpirical, DrawsOnlyTheFileValuesWithTheirFrequencies) {
  // 1 ms a quarter of the time, 2 ms half, 5 ms a quarter; units optional, plain numbers are seconds.
  write("latency.csv", "latency\n0.001\n2ms\n 2 ms \n\"5ms\"\n");
  Result<Distribution> d = parse("empirical(latency.csv)");
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->spec(), "empirical(latency.csv)");
  EXPECT_DOUBLE_EQ(d->mean(), (0.001 + 0.002 + 0.002 + 0.005) / 4);

  constexpr int kDraws = 200'000;
  std::map<double, int> counts;
  Rng rng(31);
  for (int i = 0; i < kDraws; ++i) ++counts[d->sample(rng)];
  ASSERT_EQ(counts.size(), 3u);
  const std::map<double, double> expected = {{0.001, 0.25}, {0.002, 0.5}, {0.005, 0.25}};
  for (const auto& [value, p] : expected) {
    ASSERT_EQ(counts.count(value), 1u) << value;
    EXPECT_NEAR(counts[value], kDraws * p, 5 * std::sqrt(kDraws * p * (1 - p))) << value;
  }
}

TEST_F(SamplingEmpirical, ToleratesCrLfBlankLinesAndNoFinalNewline) {
  write("sizes.csv", "bytes\r\n4096\r\n\r\n64 KiB\r\n1MB");
  Result<std::vector<double>> values = read_empirical_values(dir_ / "sizes.csv", Quantity::kSize);
  ASSERT_TRUE(values.ok()) << values.status().message();
  EXPECT_EQ(*values, (std::vector<double>{4096, 65536, 1e6}));
}

TEST_F(SamplingEmpirical, HeaderlessFileKeepsItsFirstValue) {
  write("values.csv", "0.004\n2ms\n");
  Result<std::vector<double>> values = read_empirical_values(dir_ / "values.csv", Quantity::kDuration);
  ASSERT_TRUE(values.ok()) << values.status().message();
  EXPECT_EQ(*values, (std::vector<double>{0.004, 0.002}));

  write("one.csv", " 64 KiB\r\n");
  Result<std::vector<double>> one = read_empirical_values(dir_ / "one.csv", Quantity::kSize);
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_EQ(*one, (std::vector<double>{65536}));
}

TEST_F(SamplingEmpirical, HeaderlessBadFirstValueNamesLineOne) {
  const std::string message = error_of("-1\n2ms\n");
  EXPECT_NE(message.find(path("bad.csv") + ":1: \"-1\": a duration cannot be negative"), std::string::npos)
      << message;
}

TEST_F(SamplingEmpirical, ByteOrderMarkIsIgnored) {
  write("excel.csv", "\xEF\xBB\xBFlatency\r\n1ms\r\n");
  Result<std::vector<double>> with_header = read_empirical_values(dir_ / "excel.csv", Quantity::kDuration);
  ASSERT_TRUE(with_header.ok()) << with_header.status().message();
  EXPECT_EQ(*with_header, (std::vector<double>{0.001}));

  write("bare.csv",
        "\xEF\xBB\xBF"
        "3ms\n1ms\n");
  Result<std::vector<double>> headerless = read_empirical_values(dir_ / "bare.csv", Quantity::kDuration);
  ASSERT_TRUE(headerless.ok()) << headerless.status().message();
  EXPECT_EQ(*headerless, (std::vector<double>{0.003, 0.001}));
}

TEST_F(SamplingEmpirical, AbsoluteAndQuotedPaths) {
  write("one.csv", "x\n3ms\n");
  Result<Distribution> absolute =
      Distribution::parse("empirical(" + path("one.csv") + ")", Quantity::kDuration, "/nowhere");
  ASSERT_TRUE(absolute.ok()) << absolute.status().message();
  EXPECT_EQ(absolute->mean(), 0.003);
  Result<Distribution> quoted = parse("empirical(\"one.csv\")");
  ASSERT_TRUE(quoted.ok()) << quoted.status().message();
  EXPECT_EQ(quoted->mean(), 0.003);
}

TEST_F(SamplingEmpirical, MissingFile) {
  Result<Distribution> d = parse("empirical(nope.csv)");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().message(),
            "\"empirical(nope.csv)\": " + path("nope.csv") +
                ": cannot read the empirical distribution file, expected an existing CSV file");
}

TEST_F(SamplingEmpirical, EmptyFile) {
  EXPECT_EQ(error_of(""), "\"empirical(bad.csv)\": " + path("bad.csv") +
                              ":1: empty file, expected a header row and then one value per line");
}

TEST_F(SamplingEmpirical, HeaderWithoutValues) {
  EXPECT_NE(error_of("latency\n").find(path("bad.csv") + ":2: no values after the header"),
            std::string::npos);
}

TEST_F(SamplingEmpirical, HeaderWithTwoColumns) {
  EXPECT_NE(error_of("a,b\n1ms,2ms\n").find(path("bad.csv") + ":1: the header has more than one column"),
            std::string::npos);
}

TEST_F(SamplingEmpirical, BadValueNamesItsLine) {
  const std::string message = error_of("latency\n1ms\n\nfast\n");
  EXPECT_NE(message.find(path("bad.csv") + ":4: \"fast\": expected a number followed by a duration unit"),
            std::string::npos)
      << message;
}

TEST_F(SamplingEmpirical, UnknownUnitNamesItsLine) {
  const std::string message = error_of("latency\n1ms\n5 parsecs\n");
  EXPECT_NE(message.find(":3: \"5 parsecs\": unknown duration unit \"parsecs\""), std::string::npos)
      << message;
}

TEST_F(SamplingEmpirical, NegativeValueNamesItsLine) {
  const std::string message = error_of("latency\n-1\n");
  EXPECT_NE(message.find(":2: \"-1\": a duration cannot be negative"), std::string::npos) << message;
}

TEST_F(SamplingEmpirical, SecondColumnNamesItsLine) {
  const std::string message = error_of("latency\n1ms\n2ms\n3ms,4ms\n");
  EXPECT_NE(message.find(path("bad.csv") + ":4: more than one column, expected one value per line"),
            std::string::npos)
      << message;
}

TEST_F(SamplingEmpirical, UnclosedQuoteIsAnErrorNotACrash) {
  const std::string message = error_of("latency\n\"1ms\n");
  EXPECT_NE(message.find(path("bad.csv")), std::string::npos) << message;
}

}  // namespace
}  // namespace perflab
