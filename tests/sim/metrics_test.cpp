// The metric bindings (sim/study/metrics.h): the schema comes out in binding order with units and exactness,
// the driver's struct becomes the row's values under the bound names, and a study whose metric is bound
// twice, or named like a parameter of its engine or a column perflab adds, does not register.
#include <gtest/gtest.h>

#include "sim/study/metrics.h"

namespace perflab {
namespace {

struct Counted {
  int64_t calls = 0;
  double seconds = 0;
  struct {
    uint64_t bytes = 0;
  } inner;
};

MetricBindings<Counted> bindings() {
  MetricBindings<Counted> m;
  m.count("calls", &Counted::calls, "calls made").exactly();
  m.seconds("duration_s", &Counted::seconds, "time taken");
  m.bytes(
      "bytes", [](const Counted& c) { return c.inner.bytes; }, "bytes moved");
  m.number("rate_mib_s", &Counted::seconds, "MiB/s", "a rate");
  return m;
}

TEST(MetricBindings, GiveTheSchemaInBindingOrderWithUnitsAndExactness) {
  const auto specs = bindings().specs();
  ASSERT_EQ(specs.size(), 4u);
  EXPECT_EQ(specs[0].name, "calls");
  EXPECT_TRUE(specs[0].exact);
  EXPECT_EQ(specs[0].unit, "");
  EXPECT_EQ(specs[1].name, "duration_s");
  EXPECT_FALSE(specs[1].exact);
  EXPECT_EQ(specs[1].unit, "s");
  EXPECT_EQ(specs[2].unit, "bytes");
  EXPECT_EQ(specs[3].unit, "MiB/s");
  EXPECT_EQ(specs[3].meaning, "a rate");
}

TEST(MetricBindings, TurnTheDriversStructIntoTheRowsValues) {
  Study study;
  bind_sim(study, bindings(), [](const RunContext&) -> Result<Counted> { return Counted{7, 0.5, {4096}}; });
  ASSERT_EQ(study.metrics.size(), 4u);
  Params params;
  PointInputs inputs;
  NetworkSpec network;
  auto values = study.run_sim(RunContext{params, inputs, network, 1, nullptr});
  ASSERT_TRUE(values.ok());
  EXPECT_EQ(*values, (Metrics{{"calls", 7}, {"duration_s", 0.5}, {"bytes", 4096}, {"rate_mib_s", 0.5}}));
}

TEST(MetricBindings, PassADriversErrorOn) {
  Study study;
  bind_sim(study, bindings(), [](const RunContext&) -> Result<Counted> { return Status::Error("stalled"); });
  Params params;
  PointInputs inputs;
  NetworkSpec network;
  auto values = study.run_sim(RunContext{params, inputs, network, 1, nullptr});
  ASSERT_FALSE(values.ok());
  EXPECT_EQ(values.status().message(), "stalled");
}

TEST(MetricBindingsDeathTest, AMetricBoundTwiceDoesNotRegister) {
  Study study;
  study.name = "twice";
  MetricBindings<Counted> m = bindings();
  m.count("calls", &Counted::calls, "calls again");
  bind_sim(study, m, [](const RunContext&) -> Result<Counted> { return Counted{}; });
  EXPECT_DEATH(register_study(study), "study \"twice\": metric \"calls\" bound twice");
}

TEST(MetricBindingsDeathTest, AMetricNamedLikeAParameterOfItsEngineDoesNotRegister) {
  Study study;
  study.name = "same_name";
  study.params.push_back(real_param("calls", "1", "a knob").only(Engine::kSim));
  bind_sim(study, bindings(), [](const RunContext&) -> Result<Counted> { return Counted{}; });
  EXPECT_DEATH(register_study(study),
               "study \"same_name\": metric \"calls\" named like a parameter of the sim engine");
}

TEST(MetricBindingsDeathTest, AMetricNamedLikeAColumnPerflabAddsDoesNotRegister) {
  Study study;
  study.name = "seeded";
  MetricBindings<Counted> m;
  m.count("seed", &Counted::calls, "not a metric name");
  bind_sim(study, m, [](const RunContext&) -> Result<Counted> { return Counted{}; });
  EXPECT_DEATH(register_study(study), "study \"seeded\": metric \"seed\" named like a column perflab adds");
}

TEST(MetricBindings, AParameterOfAnotherEngineMayShareAMetricsName) {
  Study study;
  study.name = "other_engine";
  study.params.push_back(real_param("calls", "1", "a micro-engine knob").only(Engine::kMicro));
  bind_sim(study, bindings(), [](const RunContext&) -> Result<Counted> { return Counted{}; });
  register_study(study);  // the sim CSV has no column "calls" as a parameter: one column, no abort
  EXPECT_NE(find_study("other_engine"), nullptr);
}

}  // namespace
}  // namespace perflab
