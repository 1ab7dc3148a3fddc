// The share study through the perflab binary: the headline's loop counts on the simulated LAN, the same
// CSV whatever --jobs, the timeline's loop spans, and bad parameters refused before anything runs.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/share/layout.h"
#include "scenarios/share/share_study.h"
#include "sim/scenario/scenario.h"
#include "tests/sim/cli_runner.h"

namespace perflab::testing {
namespace {

const std::string kHeadline = std::string(PERFLAB_SCENARIOS) + "/share/download-12mib.toml";

TEST(ShareStudy, HeadlineLoopCountsAndTimes) {
  TempDir dir;
  auto r =
      run_perflab("run " + kHeadline + " --seeds 2 --set 'sweep.loop=[\"eager\",\"coalesced\",\"readv\"]' " +
                  "--set 'sweep.cpu=[\"tahoe-1.9\"]' --out " + dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "share-download-12mib.csv"));
  ASSERT_EQ(rows.size(), 6U);
  for (const auto& row : rows) {
    const std::string& loop = row.at("loop");
    EXPECT_EQ(row.at("loop_calls"), loop == "eager" ? "1155" : "576") << loop;
    EXPECT_EQ(row.at("wasted_loops"), loop == "eager" ? "579" : "0") << loop;
    EXPECT_EQ(row.at("reads"), "867");
    EXPECT_EQ(row.at("remote_calls"), loop == "readv" ? "288" : "867");
  }
  // Removing the redundant passes saves ~0.2 s of Tahoe 1.9's CPU and nothing else changes.
  double eager = std::stod(rows[0].at("duration_s"));
  double coalesced = std::stod(rows[2].at("duration_s"));
  EXPECT_NEAR(eager - coalesced, 0.2, 0.01);
  EXPECT_NEAR(coalesced, 4.0, 0.05);
}

// With remote calls free and the op and byte costs of the calibration before calls were charged (0.2 s /
// 19,686 ops = 10.16 us; 267 ns, the rest of the 4.0 s at k = 3), the times are those before issue 22.
TEST(ShareStudy, FreeCallsReproduceTheTimesBeforeCallCosts) {
  TempDir dir;
  auto r = run_perflab(
      "run " + kHeadline + " --seeds 2 --set 'sweep.cpu=[\"tahoe-1.9\"]' " +
      "--set params.call_cost=0 --set params.ns_per_op=10159.5 --set params.hash_ns_per_byte=267 --out " +
      dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "share-download-12mib.csv"));
  ASSERT_EQ(rows.size(), 4U);
  for (const auto& row : rows) {
    bool eager = row.at("loop") == "eager";
    EXPECT_NEAR(std::stod(row.at("duration_s")), eager ? 4.2041 : 4.0044, 0.002) << row.at("loop");
    EXPECT_EQ(row.at("call_cpu_s"), "0");
    EXPECT_EQ(row.at("server_cpu_s"), "0");
  }
}

// Each plain read is its own call: 17 Banana tokens (call and answer) on each side; a readv of m spans is
// one call of 21 + 6m tokens. CPU is tokens x call_cost / 17 on the client and the same on the servers.
TEST(ShareStudy, EveryCallIsChargedItsTokensOnBothSides) {
  TempDir dir;
  auto r = run_perflab("run " + kHeadline + " --seeds 1 --set 'sweep.cpu=[\"tahoe-1.9\"]' " +
                       "--set 'sweep.loop=[\"coalesced\",\"readv\"]' --set params.call_cost=1000 --out " +
                       dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "share-download-12mib.csv"));
  ASSERT_EQ(rows.size(), 2U);
  const auto& coalesced = rows[0];
  const auto& readv = rows[1];
  ASSERT_EQ(coalesced.at("loop"), "coalesced");
  EXPECT_EQ(coalesced.at("remote_calls"), "867");
  EXPECT_EQ(coalesced.at("call_tokens"), std::to_string(867 * 17));
  EXPECT_NEAR(std::stod(coalesced.at("call_cpu_s")), 0.867, 1e-6);
  EXPECT_NEAR(std::stod(coalesced.at("server_cpu_s")), 0.867, 1e-6);
  EXPECT_EQ(readv.at("remote_calls"), "288");
  EXPECT_EQ(readv.at("call_tokens"), std::to_string(288 * 21 + 867 * 6));
  EXPECT_NEAR(std::stod(readv.at("call_cpu_s")), (288 * 21 + 867 * 6) / 17.0 * 1e-3, 1e-6);
  // Same loops, fewer tokens: readv is faster once calls cost something.
  EXPECT_EQ(readv.at("loop_calls"), coalesced.at("loop_calls"));
  EXPECT_LT(std::stod(readv.at("duration_s")), std::stod(coalesced.at("duration_s")) - 0.1);
}

// The real client's own CPU (sim only, native_message_cost) is charged per message of calls, half when it is
// written and half when its answer is parsed, whatever calls it holds: readv's fewer calls in the same
// messages cost the same (calibration_fit.cpp says why).
TEST(ShareStudy, TheRealClientsOwnCostIsChargedPerMessage) {
  TempDir dir;
  auto r = run_perflab("run " + kHeadline + " --seeds 1 --set 'sweep.cpu=[\"none\"]' " +
                       "--set 'sweep.loop=[\"coalesced\",\"readv\"]' --set params.native_message_cost=100 " +
                       "--out " + dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "share-download-12mib.csv"));
  ASSERT_EQ(rows.size(), 2U);
  for (const auto& row : rows) {
    const double messages = std::stod(row.at("call_messages"));
    EXPECT_GT(messages, 0) << row.at("loop");
    EXPECT_NEAR(std::stod(row.at("call_cpu_s")), messages * 100e-6, 1e-9) << row.at("loop");
  }
  EXPECT_EQ(rows[0].at("call_messages"), rows[1].at("call_messages"));
  EXPECT_NE(rows[0].at("remote_calls"), rows[1].at("remote_calls"));
  EXPECT_EQ(rows[0].at("call_cpu_s"), rows[1].at("call_cpu_s"));
}

// The real run's own time per round trip (sim only, native_wait_cost) is charged once per I/O pass of the
// client that waited, however many messages the round holds: at constant latency a round's answers arrive at
// one instant, so the waits are the same and the download is waits x the cost longer.
TEST(ShareStudy, TheRealRunsOwnTimePerRoundIsChargedPerWait) {
  std::map<std::string, std::map<std::string, std::string>> rows;
  for (const char* cost : {"0", "1000"}) {
    TempDir dir;
    auto r = run_perflab("run " + kHeadline + " --seeds 1 --set 'sweep.cpu=[\"none\"]' " +
                         "--set 'sweep.loop=[\"coalesced\"]' --set network.latency='\"constant(1ms)\"' " +
                         "--set params.native_wait_cost=" + cost + " --out " + dir.path().string());
    ASSERT_EQ(r.status, 0) << r.err;
    rows[cost] = parse_csv(read_file(dir / "share-download-12mib.csv")).at(0);
  }
  const double waits = std::stod(rows["0"].at("waits"));
  EXPECT_EQ(rows["1000"].at("waits"), rows["0"].at("waits"));
  EXPECT_GE(waits, 96);  // a round trip per segment at least (12 MiB of 128 KiB segments)
  EXPECT_LT(waits, 96 * 2);
  EXPECT_NEAR(std::stod(rows["1000"].at("duration_s")) - std::stod(rows["0"].at("duration_s")), waits * 1e-3,
              1e-9);
  EXPECT_EQ(rows["1000"].at("call_messages"), rows["0"].at("call_messages"));
}

// 1 MiB segments: guessing 128 KiB (Tahoe 1.9) costs segment 0 one more round of loops than guessing the
// real size (later Tahoe's 1 MiB guess) at k = 3.
TEST(ShareStudy, SegmentSizeGuessDecidesSegmentZerosRoundTrips) {
  std::map<std::string, std::string> loops;
  for (const char* guess : {"128KiB", "1MiB"}) {
    TempDir dir;
    auto r = run_perflab("run " + kHeadline + " --seeds 1 --set 'sweep.cpu=[\"tahoe-1.9\"]' " +
                         "--set 'sweep.loop=[\"coalesced\"]' --set params.segment_size='\"1MiB\"' " +
                         "--set params.segment_size_guess='\"" + guess + "\"' --out " + dir.path().string());
    ASSERT_EQ(r.status, 0) << r.err;
    loops[guess] = parse_csv(read_file(dir / "share-download-12mib.csv")).at(0).at("loop_calls");
  }
  EXPECT_EQ(loops["128KiB"], "78");
  EXPECT_EQ(loops["1MiB"], "72");
}

TEST(ShareStudy, SameCsvWhateverJobs) {
  TempDir one;
  TempDir two;
  std::string args =
      "run " + kHeadline + " --seeds 2 --set 'sweep.cpu=[\"measured\"]' --set params.file_size='\"1MiB\"'";
  ASSERT_EQ(run_perflab(args + " --jobs 1 --out " + one.path().string()).status, 0);
  ASSERT_EQ(run_perflab(args + " --jobs 2 --out " + two.path().string()).status, 0);
  EXPECT_EQ(read_file(one / "share-download-12mib.csv"), read_file(two / "share-download-12mib.csv"));
}

TEST(ShareStudy, TimelineHasLoopsPassesReadsAndSegments) {
  TempDir dir;
  auto r = run_perflab("run " + kHeadline +
                       " --seeds 1 --set 'sweep.loop=[\"eager\"]' --set 'sweep.cpu=[\"tahoe-1.9\"]' " +
                       "--set params.file_size='\"1MiB\"' --timeline " + (dir / "t.json").string());
  ASSERT_EQ(r.status, 0) << r.err;
  std::string json = read_file(dir / "t.json");
  for (const char* name :
       {"\"wasted loop\"", "\"get_satisfaction\"", "\"desire\"", "\"segment 7\"", "\"read 1\""}) {
    EXPECT_NE(json.find(name), std::string::npos) << name;
  }
}

// validate.toml's repetitions per latency: 0.5 ms's downloads are a third as long, so they get three times
// the runs; the other latencies keep [validate] repetitions.
TEST(ShareStudy, ShortDownloadsAtHalfAMillisecondAreValidatedOverMoreRuns) {
  auto validation = load_scenario(std::string(PERFLAB_SCENARIOS) + "/share/validate.toml", {});
  ASSERT_TRUE(validation.ok()) << validation.status().message();
  const ValidateSpec& spec = *validation->validate;
  EXPECT_EQ(spec.repetitions_at_latency("constant(0.5ms)"), 15);
  EXPECT_EQ(spec.repetitions_at_latency("constant(2ms)"), spec.repetitions);
  EXPECT_EQ(spec.repetitions_at_latency("constant(5ms)"), spec.repetitions);
}

TEST(ShareStudy, BadParametersAreRefusedBeforeAnythingRuns) {
  struct Case {
    const char* set;
    const char* message;
  };
  for (Case c : {Case{"--set params.k=11", "k <= n"}, Case{"--set params.k=0", "k >= 1"},
                 Case{"--set params.segment_size='\"0B\"'", "segment_size is 0"},
                 Case{"--set params.file_size='\"0B\"'", "file_size is 0"},
                 Case{"--set params.segment_size_guess='\"0B\"'", "segment_size_guess is 0"}}) {
    TempDir dir;
    auto r = run_perflab("run " + kHeadline + " --seeds 1 " + c.set + " --out " + dir.path().string());
    EXPECT_EQ(r.status, 2) << c.set << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.set << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "share-download-12mib.csv")) << c.set;
  }
}

// `file`: a real file's bytes (the perflab binary itself) encoded, served and downloaded; the download fails
// unless the bytes that come back are the file's. file_size becomes the file's size.
TEST(ShareStudy, DownloadsARealFile) {
  TempDir dir;
  const std::string binary = PERFLAB_BINARY;
  const auto size = std::filesystem::file_size(binary);
  auto r =
      run_perflab("run " + kHeadline + " --seeds 1 --set 'sweep.cpu=[\"tahoe-1.9\"]' --set 'params.file=\"" +
                  binary + "\"' --out " + dir.path().string());
  ASSERT_EQ(r.status, 0) << r.err;
  auto rows = parse_csv(read_file(dir / "share-download-12mib.csv"));
  ASSERT_EQ(rows.size(), 2U);
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("error"), "");
    EXPECT_EQ(row.at("file"), binary);
    EXPECT_EQ(row.at("file_size"), std::to_string(size));
    // k = 3: a third of every segment's bytes from each of three servers, plus the hashes.
    EXPECT_GT(std::stod(row.at("bytes_read")), static_cast<double>(size));
  }
}

// How both engines tell that a download brought back the file: its segments, as delivered, against the
// file's bytes; a changed byte, a segment too many or too few bytes is a failed download.
TEST(ShareStudy, DeliveredBytesAreComparedWithTheFile) {
  const std::string contents = share::make_contents(300 * 1024 + 7, 3);
  auto file = share::encode_file(contents, 3, 10, 128 * 1024);
  ASSERT_TRUE(file.ok()) << file.status().message();
  const auto segments = [&](char flip) {
    std::vector<std::string> out;
    for (uint64_t at = 0; at < contents.size(); at += file->sizes.segment_size)
      out.push_back(contents.substr(at, file->sizes.segment_size));
    out[1][5] ^= flip;
    return out;
  };
  share::DownloadResult result;
  result.done = true;
  result.bytes = contents.size();
  share_study::DeliveredBytes same(*file);
  for (const auto& segment : segments(0)) same.add(segment);
  EXPECT_EQ(share_study::download_failure(result, *file, same), "");
  share_study::DeliveredBytes changed(*file);
  for (const auto& segment : segments(1)) changed.add(segment);
  EXPECT_EQ(share_study::download_failure(result, *file, changed),
            "the downloaded bytes differ from the file");
  share_study::DeliveredBytes longer(*file);
  for (const auto& segment : segments(0)) longer.add(segment);
  longer.add("x");
  EXPECT_FALSE(longer.equal_so_far());
  share_study::DeliveredBytes shorter(*file);
  shorter.add(segments(0)[0]);
  result.bytes = file->sizes.segment_size;
  EXPECT_EQ(share_study::download_failure(result, *file, shorter),
            "the downloaded bytes differ from the file");
}

TEST(ShareStudy, FileBadInputs) {
  TempDir dir;
  write_file(dir / "empty.bin", "");
  auto empty =
      run_perflab("run " + kHeadline + " --set 'params.file=\"" + (dir / "empty.bin").string() + "\"'");
  EXPECT_EQ(empty.status, 2);
  EXPECT_NE(empty.err.find("empty.bin\" is empty, expected at least 1 byte"), std::string::npos) << empty.err;
  auto missing =
      run_perflab("run " + kHeadline + " --set 'params.file=\"" + (dir / "none.bin").string() + "\"'");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("none.bin\" does not exist"), std::string::npos) << missing.err;
  // Not a file: each says what it is, not "does not exist".
  std::filesystem::create_directories(dir / "folder");
  ASSERT_EQ(mkfifo((dir / "fifo").c_str(), 0600), 0);
  for (const auto& [path, what] : std::vector<std::pair<std::string, std::string>>{
           {(dir / "folder").string(), "is a folder"},
           {"/dev/zero", "is a device"},
           {(dir / "fifo").string(), "is a named pipe (FIFO)"}}) {
    auto r = run_perflab("run " + kHeadline + " --set 'params.file=\"" + path + "\"'");
    EXPECT_EQ(r.status, 2) << path;
    EXPECT_NE(r.err.find("\"" + path + "\" " + what + ", expected a readable file"), std::string::npos)
        << r.err;
  }
  write_file(dir / "small.bin", "0123456789");
  auto conflict = run_perflab("run " + kHeadline + " --set 'params.file=\"" + (dir / "small.bin").string() +
                              "\"' --set params.file_size='\"1MiB\"'");
  EXPECT_EQ(conflict.status, 2);
  EXPECT_NE(conflict.err.find("file_size = 1048576 B conflicts with file"), std::string::npos)
      << conflict.err;
  EXPECT_NE(conflict.err.find("of 10 B, expected file_size left out"), std::string::npos) << conflict.err;
}

}  // namespace
}  // namespace perflab::testing
