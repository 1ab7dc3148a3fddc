// Knob bindings (sim/study/knobs.h): a default is the member's initialiser, written as a scenario file spells
// it, and reading it back through the scenario loader's own conversion gives the member's value again; the
// options of a point carry every bound value; a choice lists and parses its enum's names table.
#include "sim/study/knobs.h"

#include <gtest/gtest.h>

#include <toml++/toml.h>

#include "sim/scenario/toml_values.h"

namespace perflab::testing {
namespace {

enum class Colour { kRed, kDeepBlue };
const EnumNames<Colour> kColourNames{"colour", {{Colour::kRed, "red"}, {Colour::kDeepBlue, "deep-blue"}}};

struct Inner {
  size_t buffer = 4120;
};

struct Options {
  int64_t count = 7;
  double ratio = 2.5;
  bool on = true;
  uint64_t size = 48 << 20;
  double rate = 48.0 * 1024 * 1024;
  double tick = 0.015625;
  double cost = 220e-6;
  Colour colour = Colour::kDeepBlue;
  Distribution delay = Distribution::constant(1e-3, Quantity::kDuration);
  std::string label = "plain";
  Inner inner;
};

Knobs<Options> knobs() {
  Knobs<Options> k;
  k.integer("count", &Options::count, "a count").at_least(1);
  k.real("ratio", &Options::ratio, "a ratio");
  k.boolean("on", &Options::on, "a switch");
  k.size("size", &Options::size, "a size");
  k.rate("rate", &Options::rate, "a rate");
  k.duration("tick", &Options::tick, "a tick");
  k.duration("cost", &Options::cost, "a cost").only(Engine::kSim);
  k.choice("colour", &Options::colour, kColourNames, "a colour");
  k.distribution("delay", &Options::delay, "a delay");
  k.text("label", &Options::label, "a label");
  k.size(
      "buffer", [](Options & o) -> auto& { return o.inner.buffer; }, "a nested size");
  return k;
}

// The point's values as the scenario loader makes them from each knob's default literal.
Params defaults_through_the_loader(const std::vector<ParamSpec>& specs) {
  Params params;
  for (const auto& spec : specs) {
    toml::table doc = toml::parse("v = " + spec.default_value);
    auto value = to_param_value(spec, Located{doc.get("v"), "default of " + spec.name, "."});
    EXPECT_TRUE(value.ok()) << spec.name << ": " << value.status().message();
    if (value.ok()) params.set(spec.name, *value);
  }
  return params;
}

TEST(Knobs, DefaultsAreTheMembersInitialisersAsAScenarioSpellsThem) {
  const auto specs = knobs().specs();
  std::map<std::string, std::string> literal;
  for (const auto& spec : specs) literal[spec.name] = spec.default_value;
  EXPECT_EQ(literal["count"], "7");
  EXPECT_EQ(literal["ratio"], "2.5");
  EXPECT_EQ(literal["on"], "true");
  EXPECT_EQ(literal["size"], "\"48MiB\"");
  EXPECT_EQ(literal["rate"], "\"48MiBps\"");
  EXPECT_EQ(literal["tick"], "\"15.625ms\"");
  EXPECT_EQ(literal["cost"], "\"220us\"");
  EXPECT_EQ(literal["colour"], "\"deep-blue\"");
  EXPECT_EQ(literal["delay"], "\"constant(1 ms)\"");
  EXPECT_EQ(literal["label"], "\"plain\"");
  EXPECT_EQ(literal["buffer"], "\"4120B\"");
  EXPECT_EQ(specs[0].min, 1);
  EXPECT_EQ(specs[6].engines, std::vector<Engine>{Engine::kSim});
  EXPECT_EQ(specs[7].choices, (std::vector<std::string>{"red", "deep-blue"}));
}

TEST(Knobs, TheDefaultsReadBackAreTheDefaults) {
  const Options read = knobs().options(defaults_through_the_loader(knobs().specs()));
  const Options initial;
  EXPECT_EQ(read.count, initial.count);
  EXPECT_EQ(read.ratio, initial.ratio);
  EXPECT_EQ(read.on, initial.on);
  EXPECT_EQ(read.size, initial.size);
  EXPECT_EQ(read.rate, initial.rate);
  EXPECT_EQ(read.tick, initial.tick);
  EXPECT_DOUBLE_EQ(read.cost, initial.cost);
  EXPECT_EQ(read.colour, initial.colour);
  EXPECT_EQ(read.delay.spec(), initial.delay.spec());
  EXPECT_EQ(read.label, initial.label);
  EXPECT_EQ(read.inner.buffer, initial.inner.buffer);
}

TEST(Knobs, OptionsCarryThePointsValues) {
  Params params = defaults_through_the_loader(knobs().specs());
  params.set("count", ParamValue{int64_t{3}, "3"});
  params.set("colour", ParamValue{std::string("red"), "red"});
  params.set("buffer", ParamValue{65536.0, "64KiB"});
  const Options o = knobs().options(params);
  EXPECT_EQ(o.count, 3);
  EXPECT_EQ(o.colour, Colour::kRed);
  EXPECT_EQ(o.inner.buffer, 65536u);
}

TEST(Knobs, ListsNamesAsATomlArray) {
  EXPECT_EQ(toml_string_list({"a", "b"}), "[\"a\", \"b\"]");
}

TEST(EnumNames, ParsesPrintsAndListsOneTable) {
  EXPECT_EQ(*kColourNames.parse("deep-blue"), Colour::kDeepBlue);
  EXPECT_STREQ(kColourNames.name(Colour::kRed), "red");
  EXPECT_EQ(kColourNames.parse("blue").status().message(),
            "unknown colour \"blue\", expected one of: red, deep-blue");
}

}  // namespace
}  // namespace perflab::testing
