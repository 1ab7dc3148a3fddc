// upload-pack's relay cost (git_writer.h) on the NuProcess 64 KiB pipe under the poll tick: the closed form
// of issue #22 for the packets one tick moves, no slowdown once the relay is slower than pack-objects, and a
// free relay (relay_cost = 0) reproducing the model's numbers from before the cost existed, bit for bit.
#include <gtest/gtest.h>

#include <cmath>

#include "models/pipe/event_loop.h"
#include "models/pipe/pipeline.h"
#include "tests/pipe/run_to_end.h"

namespace perflab::pipe {
namespace {

constexpr double kTimerTick = 0.015625;
constexpr double kPacket = 8192;

// NuProcess 2.0.1 on Windows: pack-objects takes `t_c` per 8 KiB flush, upload-pack `c_u` per packet.
PipelineOptions clone(double t_c, double c_u, size_t pipe_buffer = 65536) {
  PipelineOptions o;
  o.reader.pump = Pump::kNuProcessIocp;
  o.pipe_buffer = pipe_buffer;
  o.mechanism = Mechanism::kPollTick;
  o.pack_rate = kPacket / t_c;
  o.relay_cost = c_u;
  o.transfer_bytes = 4 * 1024 * 1024;
  o.timer_phase = 0.0043;
  o.completion_delay = [] { return 0.0; };
  return o;
}

// Packets one tick moves: the two pack-objects had buffered (8 KiB in the inner pipe's quota, 8 KiB
// stalled), plus every flush it completes before the relay's next poll while the relay works through them.
double closed_form_packets(double t_c, double c_u) {
  return 2 + std::floor(c_u / (t_c - c_u));
}

TEST(RelayCost, OneTickMovesTheClosedFormsPacketsWhenPackObjectsIsSlower) {
  const double t_c = 100e-6;
  // c_u / (t_c - c_u) = 0.67, 1.22, 2.33, 3.55: 2, 3, 4 and 5 packets per tick, none near a boundary.
  for (double c_u : {40e-6, 55e-6, 70e-6, 78e-6}) {
    SCOPED_TRACE("relay_cost " + std::to_string(c_u * 1e6) + " us");
    PipelineResult r = run(clone(t_c, c_u));
    ASSERT_TRUE(r.conserved);
    double packets_per_sleep =
        static_cast<double>(r.payload_bytes) / kPacket / static_cast<double>(r.poll_sleeps);
    EXPECT_NEAR(packets_per_sleep, closed_form_packets(t_c, c_u), 0.05);
    double mib_s = static_cast<double>(r.payload_bytes) / r.duration_s / (1024.0 * 1024.0);
    EXPECT_NEAR(mib_s, closed_form_packets(t_c, c_u) * kPacket / kTimerTick / (1024.0 * 1024.0),
                0.03 * mib_s);
  }
}

TEST(RelayCost, NoSlowdownWhenTheRelayIsNoFasterThanPackObjects) {
  const double t_c = 100e-6;
  for (double c_u : {105e-6, 150e-6}) {
    SCOPED_TRACE("relay_cost " + std::to_string(c_u * 1e6) + " us");
    PipelineResult r = run(clone(t_c, c_u));
    EXPECT_LE(r.poll_sleeps, 2u);  // the poll finds the inner pipe empty only before the first flush
    // After the first poll's sleep (to the tick at the grid's phase), one packet per period of the slower
    // stage, the relay here.
    double expected = 0.0043 + static_cast<double>(r.payload_bytes) / kPacket * std::max(t_c, c_u);
    EXPECT_NEAR(r.duration_s, expected, 0.01 * expected);
  }
}

TEST(RelayCost, RelayIterationsCountEveryReadIncludingTheEndOfStream) {
  PipelineResult r = run(clone(100e-6, 70e-6));
  // 4 MiB in 8,192-byte reads (the first reads 8,193), then the read that returns end of stream.
  EXPECT_EQ(r.relays, 4u * 1024 * 1024 / 8192 + 1);
}

// Captured from the model before relay_cost existed (commit d709a64): duration, reads, poll
// sleeps, writer blocked time of five pipelines. A free relay must give exactly these.
TEST(RelayCost, AFreeRelayReproducesTheModelBeforeTheCostBitForBit) {
  struct Golden {
    Pump pump;
    size_t pipe;
    Platform platform;
    Mechanism mechanism;
    double pack_mib_s;
    double duration_s;
    uint64_t reads;
    uint64_t poll_sleeps;
    double blocked_s;
  };
  const Golden goldens[] = {
      {Pump::kNuProcessIocp, 65536, Platform::kWindows, Mechanism::kPollTick, 48, 2.0035407919999999, 258,
       129, 0},
      {Pump::kNuProcessIocp, 4120, Platform::kWindows, Mechanism::kPollTick, 48, 0.061959222999999869, 258, 1,
       0.058410234999999873},
      {Pump::kJdkBlocking, 4120, Platform::kWindows, Mechanism::kPollTick, 48, 0.061959223000000195, 258, 1,
       0.058408965000000194},
      {Pump::kNuProcessIocp, 16384, Platform::kWindows, Mechanism::kPollTick, 96, 0.033799223000000093, 130,
       1, 0.030242037000000097},
      {Pump::kNuProcessEpoll, 65536, Platform::kLinux, Mechanism::kNone, 48, 0.042081983416666677, 181, 0, 0},
  };
  for (const Golden& g : goldens) {
    SCOPED_TRACE(std::string(kPumpNames.name(g.pump)) + " " + std::to_string(g.pipe));
    PipelineOptions o;
    o.reader.pump = g.pump;
    o.pipe_buffer = g.pipe;
    o.platform = g.platform;
    o.mechanism = g.mechanism;
    o.pack_rate = g.pack_mib_s * 1024 * 1024;
    o.transfer_bytes = 2 * 1024 * 1024 + 777;
    o.timer_phase = 0.0031;
    o.completion_delay = [] { return 0.0; };
    o.relay_cost = 0;
    PipelineResult r = run(o);
    EXPECT_EQ(r.duration_s, g.duration_s);
    EXPECT_EQ(r.reads, g.reads);
    EXPECT_EQ(r.poll_sleeps, g.poll_sleeps);
    EXPECT_EQ(r.writer_blocked_s, g.blocked_s);
  }
}

TEST(RelayCost, ANegativeCostIsRefused) {
  PipelineOptions o = clone(100e-6, -1e-6);
  EXPECT_NE(validate(o).message().find("relay_cost"), std::string::npos);
}

}  // namespace
}  // namespace perflab::pipe
