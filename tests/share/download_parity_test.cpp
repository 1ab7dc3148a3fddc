// DownloadParity: the share study's one driver (scenarios/share/downloader.h) on both transports, at points
// where timing cannot change what happens (constant latency, far above the CPU a turn takes): the SimGrid
// engine and the real one (a process per storage server on loopback sockets) run the same loop() passes,
// make the same remote calls, read the same bytes and put the same bytes on the wire for every message
// kind, because both send the messages protocol.h encodes. In the spirit of turmoil's tests/parity.rs.
// DownloadLostServer: the same driver when a storage server dies mid-download (the hub picks a server in
// use, so the test does not depend on which shares DYHB's timing chose): its share dies and another takes
// its place, on both engines.
// Each engine runs in a forked child: SimGrid allows one engine per process, and the real engine asks for
// real-time scheduling, which this test process should not keep.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <functional>
#include <sstream>
#include <string>

#include "scenarios/share/downloader.h"
#include "scenarios/share/protocol.h"
#include "scenarios/share/share_study.h"
#include "sim/engines/transport/real_transport.h"
#include "sim/engines/transport/sim_transport.h"
#include "sim/sampling/rng.h"
#include "sim/study/params.h"
#include "tests/sim/in_child.h"

namespace perflab::share {
// The loop policy's name in the tests' names and messages.
void PrintTo(LoopPolicy loop, std::ostream* out) {
  *out << kLoopPolicyNames.name(loop);
}
}  // namespace perflab::share

namespace perflab::share_study {
namespace {

using test_support::in_child;

// Every count of the download that timing cannot move, then the bytes of each message kind: one "name
// value" a line. With span_ops, the shares read and the blocks rebuilt: which shares the fetcher takes is
// DYHB's order, compared at dyhb_rtt_resolution by both engines (round trips µs apart in real, tied in the
// sim, choose the same shares), and the hash-tree operations loop() counts depend on it.
std::string describe(const DownloadResult& r) {
  std::ostringstream out;
  const share::ShareStats& s = r.shares;
  out << "loop_calls " << s.loop_calls << "\nwasted_loops " << s.wasted_loops << "\ndesire_calls "
      << s.desire_calls << "\nsatisfaction_calls " << s.satisfaction_calls << "\nreads " << s.reads
      << "\nremote_calls " << s.remote_calls << "\nbytes_read " << s.bytes_read << "\nspan_ops " << s.span_ops
      << "\ndead_shares " << r.dead_shares << "\nrebuilt_blocks " << r.totals.rebuilt_blocks
      << "\nshares_read";
  for (int shnum : r.shares_read) out << " " << shnum;
  out << "\n";
  for (const auto& [kind, bytes] : r.bytes_sent) out << "bytes_sent." << kind << " " << bytes << "\n";
  return out.str();
}

// A 1 MiB download, 3 of 10, 128 KiB segments, at the given loop policy: the CPU both engines charge is
// the measured C++ one with free calls (a few us a turn), the latency a constant 2 ms.
ShareOptions options(share::LoopPolicy loop) {
  ShareOptions o;
  o.file_size = 1024 * 1024;
  o.k = 3;
  o.n = 10;
  o.loop = loop;
  o.cpu = CpuCalibration::kMeasured;
  o.call_cost_us = 0;
  // Round trips compared at 100 ms: every DYHB answer ties in both engines however loaded the machine
  // (real round trips of a few ms can straddle a 1 ms step under ctest -j), so which shares are read is
  // the tie rule's, not the scheduler's.
  o.dyhb_rtt_resolution_s = 0.1;
  return o;
}

NetworkSpec lan() {
  NetworkSpec network;
  network.latency = Distribution::constant(0.002, Quantity::kDuration);
  network.bandwidth = 125e6;
  return network;
}

// The headline's LAN (download-12mib.toml): one switch hop, with jitter.
NetworkSpec jittered_lan() {
  NetworkSpec network;
  network.latency = *Distribution::parse("uniform(50us, 150us)", Quantity::kDuration, ".");
  network.bandwidth = 125e6;
  return network;
}

// The shares one download read (its "shares_read" line), on the sim or the real engine.
std::string shares_read(const RunContext& context, const ShareOptions& o, bool real) {
  return in_child([&] {
    if (real) {
      auto r = run_real_download(context, o);
      if (!r.ok()) return "error: " + r.status().message();
      std::string d = describe(r->download);
      return d.substr(d.find("shares_read"), d.find('\n', d.find("shares_read")) - d.find("shares_read"));
    }
    auto r = run_download(context, o);
    if (!r.ok()) return "error: " + r.status().message();
    std::string d = describe(*r);
    return d.substr(d.find("shares_read"), d.find('\n', d.find("shares_read")) - d.find("shares_read"));
  });
}

class DownloadParity : public ::testing::TestWithParam<share::LoopPolicy> {};

TEST_P(DownloadParity, BothEnginesRunTheSameLoopsAndCallsAndSendTheSameBytesPerMessageKind) {
  ShareOptions o = options(GetParam());
  auto file = encoded_file(o);
  ASSERT_TRUE(file.ok()) << file.status().message();
  const Params params;  // unread: the options are given
  const PointInputs point(*file);
  const NetworkSpec network = lan();
  const RunContext context{params, point, network, /*seed=*/1, /*timeline=*/nullptr};

  const std::string sim = in_child([&] {
    auto r = run_download(context, o);
    return r.ok() ? describe(*r) : "error: " + r.status().message();
  });
  const std::string real = in_child([&] {
    auto r = run_real_download(context, o);
    return r.ok() ? describe(r->download) : "error: " + r.status().message();
  });
  ASSERT_EQ(sim.find("error"), std::string::npos) << sim;
  ASSERT_EQ(real.find("error"), std::string::npos) << real;
  EXPECT_EQ(sim, real);
  // Both directions were counted: the client's queries and calls, the servers' answers.
  for (const char* kind : {"bytes_sent.dyhb ", "bytes_sent.calls ", "bytes_sent.bye ",
                           "bytes_sent.dyhb_answer ", "bytes_sent.answers "}) {
    EXPECT_NE(sim.find(kind), std::string::npos) << kind << " in\n" << sim;
  }
}

// Per-link latency from the same named streams on both engines (transport::latency_stream): a node sends
// the hub five messages and the hub five to it, each stamped with its send time; every delay is the link
// direction's next draw, exactly in the sim, within the real engine's wake-up lateness in real.
std::string link_delays(const RunContext& context, bool real) {
  constexpr int kMessages = 5;
  const auto stamped = [](double now) { return std::to_string(now); };
  return in_child([&] {
    std::ostringstream out;
    out.precision(9);
    const auto hub = [&](transport::Node& node) -> Status {
      auto peer = node.spawn("server-0", [&](transport::Node& server) -> Status {
        std::ostringstream delays;  // of the hub's messages, each measured as it arrives
        delays.precision(9);
        for (int got = 0; got < kMessages;) {
          auto batch = server.receive();
          if (!batch.ok()) return batch.status();
          for (const auto& m : *batch) delays << server.now() - std::stod(m.payload) << " ", ++got;
        }
        server.sleep_until(server.now() + 0.2);  // the hub is waiting by then
        for (int i = 0; i < kMessages; ++i) {
          Status sent = server.send(0, 1, static_cast<std::uint64_t>(i), stamped(server.now()));
          if (!sent.ok()) return sent;
          server.sleep_until(server.now() + 0.1);
        }
        return server.send(0, 2, 0, delays.str());
      });
      if (!peer.ok()) return peer.status();
      for (int i = 0; i < kMessages; ++i) {
        Status sent = node.send(*peer, 1, static_cast<std::uint64_t>(i), stamped(node.now()));
        if (!sent.ok()) return sent;
        node.sleep_until(node.now() + 0.1);
      }
      for (bool done = false; !done;) {
        auto batch = node.receive();
        if (!batch.ok()) return batch.status();
        for (const auto& m : *batch) {
          if (m.kind == 1) out << "up " << node.now() - std::stod(m.payload) << "\n";
          if (m.kind == 2) out << "down " << m.payload << "\n", done = true;
        }
      }
      return Status::OK();
    };
    Status ran = real ? transport::run_on_real(context, "client", hub).status()
                      : transport::run_on_simgrid(context, {"client", "server-0"}, hub,
                                                  transport::SimLatency::kPerLink);
    return ran.ok() ? out.str() : "error: " + ran.message();
  });
}

std::vector<double> numbers_after(const std::string& text, const std::string& label) {
  std::vector<double> values;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(label + " ", 0) != 0) continue;
    std::istringstream fields(line.substr(label.size() + 1));
    for (double v; fields >> v;) values.push_back(v);
  }
  return values;
}

TEST(LinkLatency, BothEnginesDrawEachDirectionFromItsNamedStream) {
  const Params params;
  const PointInputs point;
  NetworkSpec network;
  network.latency = *Distribution::parse("uniform(5ms, 50ms)", Quantity::kDuration, ".");
  network.bandwidth = 1e9;  // 28-38 B messages: tens of ns
  const RunContext context{params, point, network, /*seed=*/7, /*timeline=*/nullptr};
  std::vector<double> up;
  std::vector<double> down;
  for (bool to_hub : {true, false}) {
    Rng rng = context.rng(transport::latency_stream("server-0", to_hub));
    for (int i = 0; i < 5; ++i) (to_hub ? up : down).push_back(network.latency.sample(rng));
  }
  const std::string sim = link_delays(context, /*real=*/false);
  const std::string real = link_delays(context, /*real=*/true);
  ASSERT_EQ(sim.find("error"), std::string::npos) << sim;
  ASSERT_EQ(real.find("error"), std::string::npos) << real;
  for (const auto& [label, draws] : {std::pair{"up", up}, std::pair{"down", down}}) {
    const std::vector<double> in_sim = numbers_after(sim, label);
    const std::vector<double> in_real = numbers_after(real, label);
    ASSERT_EQ(in_sim.size(), draws.size()) << sim;
    ASSERT_EQ(in_real.size(), draws.size()) << real;
    for (size_t i = 0; i < draws.size(); ++i) {
      EXPECT_NEAR(in_sim[i], draws[i], 1e-6) << label << " message " << i;
      EXPECT_NEAR(in_real[i], draws[i] + 0.0025, 0.0025) << label << " message " << i << " (late, not early)";
    }
  }
}

// The rule both engines share (downloader.h, dyhb_rtt_resolution): at the headline's jittered LAN the DYHB
// round trips (100-300 us, drawn in the sim, measured in real, more under load) tie at options()'s 100 ms,
// and both engines take the primary shares, so neither rebuilds a block; at a resolution finer than the
// jitter the sim takes the shares its draws made fastest.
TEST(DownloadShares, BothEnginesChooseTheSameSharesForASeed) {
  ShareOptions o = options(share::LoopPolicy::kCoalesced);
  auto file = encoded_file(o);
  ASSERT_TRUE(file.ok()) << file.status().message();
  const Params params;
  const PointInputs point(*file);
  const NetworkSpec network = jittered_lan();
  for (std::uint64_t seed : {1, 2, 3}) {
    const RunContext context{params, point, network, seed, /*timeline=*/nullptr};
    const std::string sim = shares_read(context, o, /*real=*/false);
    EXPECT_EQ(sim, "shares_read 0 1 2") << "seed " << seed;
    EXPECT_EQ(shares_read(context, o, /*real=*/true), sim) << "seed " << seed;
  }
  ShareOptions fine = o;
  fine.dyhb_rtt_resolution_s = 1e-9;  // the µs draws decide: some seed takes a parity share
  bool parity = false;
  for (std::uint64_t seed : {1, 2, 3}) {
    const RunContext context{params, point, network, seed, /*timeline=*/nullptr};
    parity = parity || shares_read(context, fine, /*real=*/false) != "shares_read 0 1 2";
  }
  EXPECT_TRUE(parity);
}

// One table of costs, charged through the same hooks on both engines (downloader.h ChargedCosts): the sim
// as simulated CPU, the real client as CPU it burns, the real servers as time they wait. Every charged
// total is the same, and the real download lasts at least the CPU its client burnt.
TEST(DownloadCosts, BothEnginesChargeTheSameTable) {
  ShareOptions o = options(share::LoopPolicy::kEager);
  o.cpu = CpuCalibration::kTahoe19;  // Tahoe's per-op and per-byte costs on a real loop
  o.call_cost_us = 100;              // cheaper calls than Tahoe's 2.2 ms: a short test
  auto file = encoded_file(o);
  ASSERT_TRUE(file.ok()) << file.status().message();
  const Params params;
  const PointInputs point(*file);
  const NetworkSpec network = lan();
  const RunContext context{params, point, network, /*seed=*/1, /*timeline=*/nullptr};
  const auto charges = [](const DownloadResult& r) {
    std::ostringstream out;
    out.precision(12);
    out << "loop cpu_s " << r.totals.cpu_s << "\ncall_cpu_s " << r.totals.call_cpu_s << "\ndecode_cpu_s "
        << r.totals.decode_cpu_s << "\nserver_cpu_s " << r.totals.server_cpu_s << "\ntokens "
        << r.totals.tokens << "\n";
    return out.str();
  };
  const std::string sim = in_child([&] {
    auto r = run_download(context, o);
    return r.ok() ? charges(*r) : "error: " + r.status().message();
  });
  const std::string real = in_child([&] {
    auto r = run_real_download(context, o);
    if (!r.ok()) return "error: " + r.status().message();
    const Totals& t = r->download.totals;
    const double burnt = t.cpu_s + t.call_cpu_s + t.decode_cpu_s;
    if (!(t.done_at >= burnt)) return "real download of " + std::to_string(t.done_at) + " s, below its CPU";
    return charges(r->download);
  });
  ASSERT_EQ(sim.find("error"), std::string::npos) << sim;
  EXPECT_EQ(sim, real);
  EXPECT_EQ(sim.find("cpu_s 0\n"), std::string::npos) << sim;  // every kind of charge was made
}

INSTANTIATE_TEST_SUITE_P(Loops, DownloadParity,
                         ::testing::Values(share::LoopPolicy::kEager, share::LoopPolicy::kCoalesced,
                                           share::LoopPolicy::kReadv),
                         [](const auto& info) { return share::kLoopPolicyNames.name(info.param); });

constexpr std::uint32_t kDie = 0xDEAD;  // the test's own message kind: "die now"

// A storage server's node that dies when told kDie: by SIGKILL on the real engine (its process is gone, as
// a crashed server's), by ending its body with an error on SimGrid. Everything else is the node's.
class MortalServer : public transport::NodeWrapper {
 public:
  MortalServer(Node& node, bool real) : NodeWrapper(node), real_(real) {}
  Result<std::vector<transport::Message>> receive(double deadline) override {
    auto batch = target().receive(deadline);
    if (!batch.ok()) return batch;
    for (const auto& message : *batch) {
      if (message.kind != kDie) continue;
      if (real_) raise(SIGKILL);
      return Status::Error("killed by the test");
    }
    return batch;
  }

 private:
  bool real_;
};

// The client's node, which sends kDie instead of its `nth` message of calls (so to a server in use: its
// calls go unanswered) and spawns MortalServers.
class KillingClient : public transport::NodeWrapper {
 public:
  KillingClient(Node& node, bool real, int nth) : NodeWrapper(node), real_(real), nth_(nth) {}
  Status send(transport::Peer to, std::uint32_t kind, std::uint64_t id, std::string payload) override {
    if (kind == kCalls && ++calls_ == nth_) return target().send(to, kDie, id, "");
    return target().send(to, kind, id, std::move(payload));
  }
  Result<transport::Peer> spawn(const std::string& name, std::function<Status(Node&)> body) override {
    return target().spawn(name, [body = std::move(body), real = real_](Node& node) {
      MortalServer server(node, real);
      return body(server);
    });
  }

 private:
  bool real_;
  int nth_;
  int calls_ = 0;
};

class DownloadLostServer : public ::testing::TestWithParam<bool> {};

// share.py _got_error: the dead server's calls errback, its share dies, the fetcher takes the next share.
TEST_P(DownloadLostServer, ItsShareDiesAndAnotherTakesItsPlace) {
  const bool real = GetParam();
  ShareOptions o = options(share::LoopPolicy::kCoalesced);
  auto file = encoded_file(o);
  ASSERT_TRUE(file.ok()) << file.status().message();
  const Params params;
  const PointInputs point(*file);
  const NetworkSpec network = lan();
  const RunContext context{params, point, network, /*seed=*/1, /*timeline=*/nullptr};
  const DownloadSetup setup{**file,         static_cast<int>(o.n),   o.loop, o.segment_size_guess,
                            ChargedCosts{}, o.dyhb_rtt_resolution_s, 0,      nullptr};

  const std::string out = in_child([&] {
    DownloadResult result;
    const auto client = [&](transport::Node& node) {
      KillingClient killing(node, real, /*nth=*/5);  // the second round's calls to its second server
      return run_downloader(killing, setup, result);
    };
    std::vector<std::string> hosts = {kDownloaderName};
    for (int s = 0; s < setup.servers; ++s) hosts.push_back(server_name(s));
    Status ran = real ? transport::run_on_real(context, kDownloaderName, client).status()
                      : transport::run_on_simgrid(context, hosts, client);
    return ran.ok() ? describe(result) : "error: " + ran.message();
  });
  ASSERT_EQ(out.find("error"), std::string::npos) << out;
  EXPECT_NE(out.find("dead_shares 1\n"), std::string::npos) << out;
}

INSTANTIATE_TEST_SUITE_P(Engines, DownloadLostServer, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "real" : "sim"; });

}  // namespace
}  // namespace perflab::share_study
