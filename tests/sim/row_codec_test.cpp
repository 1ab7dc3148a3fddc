// The one row form shared by the child pipe and the resume journal: every row survives a round trip,
// odd values included, and a line that is not a whole row is refused rather than half-read.
#include "sim/runner/row_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace perflab {
namespace {

RunRow round_trip(const RunRow& row) {
  std::string line = encode_row(row);
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "one line per row";
  auto decoded = decode_row(line.substr(0, line.size() - 1));
  EXPECT_TRUE(decoded.has_value()) << line;
  return decoded.value_or(RunRow{});
}

TEST(RowCodec, AnOkRowWithMetricsAndRepetitionsRoundTrips) {
  RunRow row;
  row.point = 12;
  row.replication = 3;
  row.seed = 18446744073709551615ULL;
  row.outcome = Outcome::kOk;
  row.metrics = {{"duration_s", 0.1}, {"rpcs", 704}, {"tiny", 1e-300}, {"huge", -1.7976931348623157e308}};
  row.repetitions = {0.0061234567890123456, 0.007};
  RunRow back = round_trip(row);
  EXPECT_EQ(back.point, 12U);
  EXPECT_EQ(back.replication, 3);
  EXPECT_EQ(back.seed, row.seed);
  EXPECT_EQ(back.outcome, Outcome::kOk);
  EXPECT_EQ(back.metrics, row.metrics);  // bit-exact: 17 significant digits
  EXPECT_EQ(back.repetitions, row.repetitions);
  EXPECT_TRUE(back.error.empty());
}

TEST(RowCodec, NanAndInfinitiesRoundTrip) {
  RunRow row;
  row.outcome = Outcome::kOk;
  row.metrics = {{"a", std::numeric_limits<double>::quiet_NaN()},
                 {"b", std::numeric_limits<double>::infinity()},
                 {"c", -std::numeric_limits<double>::infinity()}};
  RunRow back = round_trip(row);
  EXPECT_TRUE(std::isnan(back.metrics.at("a")));
  EXPECT_EQ(back.metrics.at("b"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(back.metrics.at("c"), -std::numeric_limits<double>::infinity());
}

TEST(RowCodec, ErrorTextWithQuotesNewlinesBackslashesAndEqualsRoundTrips) {
  RunRow row;
  row.outcome = Outcome::kFailed;
  row.error = "trace.log:3: bad \"class\" name\nsecond line\r\\n is not a newline; x=1 @rep=2 error=again";
  RunRow back = round_trip(row);
  EXPECT_EQ(back.outcome, Outcome::kFailed);
  EXPECT_EQ(back.error, row.error);
  EXPECT_TRUE(back.metrics.empty());
  EXPECT_TRUE(back.repetitions.empty());
}

TEST(RowCodec, EveryOutcomeRoundTripsAndAnEmptyErrorStaysEmpty) {
  for (Outcome outcome : {Outcome::kNotRun, Outcome::kOk, Outcome::kFailed, Outcome::kTimedOut}) {
    RunRow row;
    row.outcome = outcome;
    RunRow back = round_trip(row);
    EXPECT_EQ(back.outcome, outcome) << outcome_name(outcome);
    EXPECT_TRUE(back.error.empty());
  }
}

TEST(RowCodec, LinesThatAreNotWholeRowsAreRefused) {
  EXPECT_FALSE(decode_row(""));
  EXPECT_FALSE(decode_row("3 0"));               // torn before the outcome
  EXPECT_FALSE(decode_row("3 0 7 finished"));    // unknown outcome
  ASSERT_TRUE(decode_row("3 0 7 ok rpcs=70"));   // a whole row ...
  EXPECT_FALSE(decode_row("3 0 7 ok rpcs=7x"));  // ... and the same row with a bad number
  EXPECT_FALSE(decode_row("3 0 7 ok rpcs"));     // no value
  EXPECT_FALSE(decode_row("x 0 7 ok"));
}

}  // namespace
}  // namespace perflab
