// parse_quantity / format_quantity: every unit, the accepted spellings, the errors and round trips.
#include "sim/sampling/units.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/sampling/rng.h"

namespace perflab {
namespace {

double parsed(const std::string& text, Quantity quantity, UnitRule rule = UnitRule::kRequired) {
  Result<double> value = parse_quantity(text, quantity, rule);
  EXPECT_TRUE(value.ok()) << text << " -> " << value.status().message();
  return value.ok() ? *value : std::nan("");
}

std::string error_of(const std::string& text, Quantity quantity) {
  Result<double> value = parse_quantity(text, quantity);
  EXPECT_FALSE(value.ok()) << text << " was accepted as " << (value.ok() ? *value : 0);
  return value.status().message();
}

TEST(SamplingUnits, EveryDurationUnit) {
  EXPECT_DOUBLE_EQ(parsed("7ns", Quantity::kDuration), 7e-9);
  EXPECT_DOUBLE_EQ(parsed("7us", Quantity::kDuration), 7e-6);
  EXPECT_EQ(parsed("20ms", Quantity::kDuration), 0.02);
  EXPECT_EQ(parsed("3s", Quantity::kDuration), 3.0);
}

TEST(SamplingUnits, EverySizeUnit) {
  EXPECT_EQ(parsed("5B", Quantity::kSize), 5.0);
  EXPECT_EQ(parsed("64KiB", Quantity::kSize), 65536.0);
  EXPECT_EQ(parsed("2MiB", Quantity::kSize), 2.0 * 1024 * 1024);
  EXPECT_EQ(parsed("3GiB", Quantity::kSize), 3.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(parsed("5KB", Quantity::kSize), 5e3);
  EXPECT_EQ(parsed("12MB", Quantity::kSize), 12e6);
  EXPECT_EQ(parsed("2GB", Quantity::kSize), 2e9);
}

TEST(SamplingUnits, EveryRateUnit) {
  EXPECT_EQ(parsed("8bps", Quantity::kRate), 1.0);
  EXPECT_EQ(parsed("8Kbps", Quantity::kRate), 1e3);
  EXPECT_EQ(parsed("10Mbps", Quantity::kRate), 1.25e6);
  EXPECT_EQ(parsed("1Gbps", Quantity::kRate), 1.25e8);
  EXPECT_EQ(parsed("9Bps", Quantity::kRate), 9.0);
  EXPECT_EQ(parsed("4KBps", Quantity::kRate), 4e3);
  EXPECT_EQ(parsed("100MBps", Quantity::kRate), 1e8);
  EXPECT_EQ(parsed("2GBps", Quantity::kRate), 2e9);
  EXPECT_EQ(parsed("1KiBps", Quantity::kRate), 1024.0);
  EXPECT_EQ(parsed("48MiBps", Quantity::kRate), 48.0 * 1024 * 1024);
  EXPECT_EQ(parsed("1GiBps", Quantity::kRate), 1024.0 * 1024 * 1024);
  EXPECT_EQ(parsed("100 MB/s", Quantity::kRate), 1e8);
  EXPECT_EQ(parsed("3 KiB/s", Quantity::kRate), 3072.0);
}

TEST(SamplingUnits, WhitespaceDecimalsAndScientificNotation) {
  EXPECT_EQ(parsed("64 KiB", Quantity::kSize), 65536.0);
  EXPECT_EQ(parsed("  20 \t ms ", Quantity::kDuration), 0.02);
  EXPECT_EQ(parsed("1.5s", Quantity::kDuration), 1.5);
  EXPECT_EQ(parsed(".5s", Quantity::kDuration), 0.5);
  EXPECT_EQ(parsed("2.s", Quantity::kDuration), 2.0);
  EXPECT_EQ(parsed("2e-3s", Quantity::kDuration), 0.002);
  EXPECT_EQ(parsed("1E3 ms", Quantity::kDuration), 1.0);
  EXPECT_EQ(parsed("+4ms", Quantity::kDuration), 0.004);
  EXPECT_EQ(parsed("2.5e+1 KB", Quantity::kSize), 25000.0);
}

TEST(SamplingUnits, ZeroNeedsNoUnit) {
  EXPECT_EQ(parsed("0", Quantity::kDuration), 0.0);
  EXPECT_EQ(parsed("0.0", Quantity::kSize), 0.0);
  EXPECT_EQ(parsed("-0", Quantity::kRate), 0.0);
  EXPECT_FALSE(std::signbit(parsed("-0ms", Quantity::kDuration)));
}

TEST(SamplingUnits, PlainNumbers) {
  EXPECT_EQ(parsed("3", Quantity::kNumber), 3.0);
  EXPECT_EQ(parsed("-2.5", Quantity::kNumber), -2.5);
  EXPECT_EQ(parsed("1e3", Quantity::kNumber), 1000.0);
  EXPECT_NE(error_of("3ms", Quantity::kNumber).find("expected a plain number without a unit"),
            std::string::npos);
}

TEST(SamplingUnits, PlainIsBaseUnitRuleForWorkloadFiles) {
  EXPECT_EQ(parsed("0.25", Quantity::kDuration, UnitRule::kPlainIsBaseUnit), 0.25);
  EXPECT_EQ(parsed("4096", Quantity::kSize, UnitRule::kPlainIsBaseUnit), 4096.0);
  EXPECT_EQ(parsed("20ms", Quantity::kDuration, UnitRule::kPlainIsBaseUnit), 0.02);
}

TEST(SamplingUnits, MissingUnitIsAnError) {
  EXPECT_EQ(
      error_of("20", Quantity::kDuration),
      "\"20\": missing duration unit, expected one of ns, us, ms, s (only 0 may be written without a unit)");
  EXPECT_NE(error_of("4096", Quantity::kSize).find("missing size unit"), std::string::npos);
  EXPECT_NE(error_of("100", Quantity::kRate).find("missing rate unit"), std::string::npos);
}

TEST(SamplingUnits, NegativeIsAnError) {
  EXPECT_EQ(error_of("-5ms", Quantity::kDuration),
            "\"-5ms\": a duration cannot be negative, expected a value >= 0");
  EXPECT_NE(error_of("-1KiB", Quantity::kSize).find("a size cannot be negative"), std::string::npos);
  EXPECT_NE(error_of("-1Mbps", Quantity::kRate).find("a rate cannot be negative"), std::string::npos);
}

TEST(SamplingUnits, TooLargeIsAnError) {
  // Past 2^53 bytes a size is no longer a whole number of bytes, and a latency of 1e308 s stalls SimGrid.
  EXPECT_NE(error_of("20000000000GiB", Quantity::kSize).find("too large, expected a size of at most"),
            std::string::npos);
  EXPECT_EQ(parsed("8388608GiB", Quantity::kSize), 9007199254740992.0);  // 2^53 bytes: the largest
  EXPECT_NE(error_of("1e308s", Quantity::kDuration).find("too large, expected a duration of at most"),
            std::string::npos);
  EXPECT_EQ(parsed("1e9s", Quantity::kDuration), 1e9);
  EXPECT_DOUBLE_EQ(parsed("1e290 GBps", Quantity::kRate), 1e299);  // a rate only has to be finite
}

TEST(SamplingUnits, UnknownUnitListsTheValidOnes) {
  EXPECT_EQ(error_of("20 parsecs", Quantity::kDuration),
            "\"20 parsecs\": unknown duration unit \"parsecs\", expected one of ns, us, ms, s");
  EXPECT_NE(error_of("20 MS", Quantity::kDuration).find("unknown duration unit \"MS\""), std::string::npos);
  EXPECT_NE(error_of("3 kb", Quantity::kSize).find("expected one of B, KiB, MiB, GiB, KB, MB, GB"),
            std::string::npos);
  EXPECT_NE(error_of("5 mbps", Quantity::kRate).find("expected one of bps, Kbps, Mbps, Gbps, Bps, KBps"),
            std::string::npos);
  EXPECT_NE(error_of("64 KiB", Quantity::kDuration).find("unknown duration unit \"KiB\""), std::string::npos);
}

TEST(SamplingUnits, GarbageIsAnError) {
  for (const char* text :
       {"", "   ", "ms", "abc", "fast", "--5ms", ".ms", "e3ms", "inf s", "nan", "0x10ms"}) {
    const std::string message = error_of(text, Quantity::kDuration);
    EXPECT_EQ(message.rfind("\"" + std::string(text) + "\": ", 0), 0u) << message;
    EXPECT_FALSE(message.find("expected") == std::string::npos) << message;
  }
  EXPECT_NE(error_of("abc", Quantity::kDuration).find("expected a number followed by a duration unit"),
            std::string::npos);
  EXPECT_NE(error_of("5 ms ms", Quantity::kDuration).find("unknown duration unit \"ms ms\""),
            std::string::npos);
  EXPECT_NE(error_of("1e999s", Quantity::kDuration).find("out of range"), std::string::npos);
  EXPECT_NE(error_of("1e300 GB", Quantity::kSize).find("out of range"), std::string::npos);
  EXPECT_NE(error_of("abc", Quantity::kNumber).find("expected a plain number"), std::string::npos);
}

TEST(SamplingUnits, FormatsShortHumanText) {
  EXPECT_EQ(format_quantity(0.02, Quantity::kDuration), "20 ms");
  EXPECT_EQ(format_quantity(0, Quantity::kDuration), "0 s");
  EXPECT_EQ(format_quantity(0, Quantity::kSize), "0 B");
  EXPECT_EQ(format_quantity(1.5, Quantity::kDuration), "1.5 s");
  EXPECT_EQ(format_quantity(1500, Quantity::kDuration), "1500 s");
  EXPECT_EQ(format_quantity(250e-6, Quantity::kDuration), "250 us");
  EXPECT_EQ(format_quantity(2.5e-10, Quantity::kDuration), "0.25 ns");
  EXPECT_EQ(format_quantity(1.0 / 3, Quantity::kDuration), "333.333333 ms");
  EXPECT_EQ(format_quantity(65536, Quantity::kSize), "64 KiB");
  EXPECT_EQ(format_quantity(4120, Quantity::kSize), "4120 B");
  EXPECT_EQ(format_quantity(131073, Quantity::kSize), "131073 B");
  EXPECT_EQ(format_quantity(1000, Quantity::kSize), "1 KB");
  EXPECT_EQ(format_quantity(100, Quantity::kSize), "100 B");
  EXPECT_EQ(format_quantity(1.5 * 1024 * 1024, Quantity::kSize), "1.5 MiB");
  EXPECT_EQ(format_quantity(1e6, Quantity::kSize), "1 MB");
  EXPECT_EQ(format_quantity(480e6, Quantity::kSize), "480 MB");
  EXPECT_EQ(format_quantity(1e8, Quantity::kRate), "100 MB/s");
  EXPECT_EQ(format_quantity(1.25e8, Quantity::kRate), "125 MB/s");
  EXPECT_EQ(format_quantity(3.5, Quantity::kNumber), "3.5");
  EXPECT_EQ(format_quantity(-2, Quantity::kNumber), "-2");
  EXPECT_EQ(format_quantity(1e20, Quantity::kNumber), "1e+20");
}

TEST(SamplingUnits, LiteralsUseTheLargestUnitThatFits) {
  const auto literal = [](double value, Quantity quantity) {
    return format_quantity(value, quantity, Spelling::kLiteral);
  };
  EXPECT_EQ(literal(0, Quantity::kSize), "0B");
  EXPECT_EQ(literal(65536, Quantity::kSize), "64KiB");
  EXPECT_EQ(literal(4120, Quantity::kSize), "4120B");
  EXPECT_EQ(literal(1e6, Quantity::kSize), "1000000B");  // exact: no decimal unit, no rounding
  EXPECT_EQ(literal(3.0 * (1 << 30), Quantity::kSize), "3GiB");
  EXPECT_EQ(literal(2000, Quantity::kRate), "2000Bps");
  EXPECT_EQ(literal(48.0 * (1 << 20), Quantity::kRate), "48MiBps");
  EXPECT_EQ(literal(0, Quantity::kDuration), "0ms");
  EXPECT_EQ(literal(2, Quantity::kDuration), "2s");
  EXPECT_EQ(literal(32e-6, Quantity::kDuration), "32us");
  EXPECT_EQ(literal(220e-6, Quantity::kDuration), "220us");
  EXPECT_EQ(literal(15.625e-3, Quantity::kDuration), "15.625ms");
  EXPECT_EQ(literal(1e-9, Quantity::kDuration), "1ns");
  EXPECT_EQ(literal(2.5, Quantity::kNumber), "2.5");
}

TEST(SamplingUnits, NumbersReadBackExactlyOrToTheDigitsAsked) {
  EXPECT_EQ(format_number(0.1), "0.1");
  EXPECT_EQ(format_number(250), "250");
  EXPECT_EQ(format_number(1e-9), "1e-09");
  EXPECT_EQ(format_number(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(format_number(123456789012.0), "123456789012");
  EXPECT_EQ(format_number(-0.0), "0");
  EXPECT_EQ(format_number(std::nan("")), "nan");
  EXPECT_EQ(format_number(-HUGE_VAL), "-inf");
  EXPECT_EQ(format_number(1.0 / 3, 10), "0.333333333");  // within a relative 1e-9
  EXPECT_EQ(format_number(2.0000000001, 10), "2");
  for (double value : {0.1, 1.0 / 3, 6.02214076e23, 1e-300, 123.456, -7.25e-5}) {
    EXPECT_EQ(std::strtod(format_number(value).c_str(), nullptr), value) << format_number(value);
  }
}

TEST(SamplingUnits, FormattedTextParsesBack) {
  const std::vector<std::pair<double, Quantity>> cases = {
      {0.02, Quantity::kDuration}, {7e-9, Quantity::kDuration}, {3600, Quantity::kDuration},
      {65536, Quantity::kSize},    {1e6, Quantity::kSize},      {4120, Quantity::kSize},
      {1e8, Quantity::kRate},      {1.25e8, Quantity::kRate},   {12.5, Quantity::kNumber}};
  for (const auto& [value, quantity] : cases) {
    EXPECT_EQ(parsed(format_quantity(value, quantity), quantity), value) << format_quantity(value, quantity);
  }
  Rng rng(11);
  for (int i = 0; i < 2000; ++i) {
    const double value = std::pow(10.0, -9 + 18 * rng.uniform01());
    for (Quantity quantity : {Quantity::kDuration, Quantity::kSize, Quantity::kRate, Quantity::kNumber}) {
      const std::string text = format_quantity(value, quantity);
      EXPECT_NEAR(parsed(text, quantity), value, 1e-9 * value) << text;
    }
  }
}

}  // namespace
}  // namespace perflab
