// The real Linux pump on real children: exact bytes (checksum), exit status, a child killed early, a stuck
// child, and real git (pack-objects, upload-pack) on a small generated repository. Every run has a deadline
// and touches only files under a fresh temp folder.
#include "models/pipe/real_pump.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "models/pipe/real_git.h"
#include "tests/pipe/temp_folder.h"

namespace perflab::pipe {
namespace {

RealPumpOptions shell(const std::string& script, double timeout_s = 20) {
  RealPumpOptions o;
  o.argv = {"sh", "-c", script};
  o.timeout_s = timeout_s;
  return o;
}

TEST(RealPump, ReadsExactlyWhatTheChildWrote) {
  TempFolder dir;
  Bytes data = content(7, 0, 3 * 1024 * 1024 + 17);
  std::ofstream(dir.path() / "data.bin", std::ios::binary)
      .write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  Checksum expected;
  expected.add(data);
  RealPumpOptions o;
  o.argv = {"cat", (dir.path() / "data.bin").string()};
  o.pipe_size = 4120;
  o.timeout_s = 20;
  auto r = run_real_pump(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->checksum, expected);
  EXPECT_EQ(r->pipe_size, 8192u);  // 4,120 rounded up to two pages
  EXPECT_TRUE(r->exited);
  EXPECT_EQ(r->exit_status, 0);
}

// The preloaded recorder sees each of cat's writes on its stdout, timed on the pump's clock.
TEST(RealPump, TheWriteRecorderTimesEveryWriteTheChildMakes) {
  if (built_write_recorder().empty()) GTEST_SKIP() << "perflab_write_recorder is not built";
  TempFolder dir;
  Bytes data = content(3, 0, 1024 * 1024 + 5);
  std::ofstream(dir.path() / "data.bin", std::ios::binary)
      .write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  RealPumpOptions o;
  o.argv = {"cat", (dir.path() / "data.bin").string()};
  o.pipe_size = 65536;
  o.timeout_s = 20;
  o.write_recorder = built_write_recorder();
  o.log_reads = true;
  auto r = run_real_pump(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_FALSE(r->writes.empty());
  uint64_t written = 0;
  double last_end = 0;
  for (const ChildWrite& w : r->writes) {
    EXPECT_GT(w.result, 0);
    EXPECT_LE(w.start_s, w.end_s);
    EXPECT_GE(w.start_s, last_end);  // one writer: its writes follow each other
    last_end = w.end_s;
    written += static_cast<uint64_t>(w.result);
  }
  EXPECT_EQ(written, data.size());
  EXPECT_EQ(r->unrecorded_bytes, 0u);
  EXPECT_EQ(r->dropped_writes, 0u);
  ASSERT_EQ(r->read_log.size(), r->reads);
  EXPECT_LT(r->read_log.back().handled_s, r->seconds);
  EXPECT_GE(r->read_log.front().ready_s, r->writes.front().start_s);  // nothing to read before a write
}

TEST(RealPump, ReportsTheExitStatus) {
  auto r = run_real_pump(shell("printf abc; exit 3"));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->bytes, 3u);
  EXPECT_TRUE(r->exited);
  EXPECT_EQ(r->exit_status, 3);
}

TEST(RealPump, AChildKilledEarlyIsReportedNotHungOn) {
  auto r = run_real_pump(shell("head -c 100000 /dev/zero; kill -9 $$"));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->bytes, 100000u);
  EXPECT_FALSE(r->exited);
  EXPECT_EQ(r->signal, 9);
}

TEST(RealPump, AStuckChildIsKilledAtTheDeadline) {
  auto r = run_real_pump(shell("printf x; exec sleep 30", 0.5));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("still running"), std::string::npos) << r.status().message();
}

TEST(RealPump, AMissingProgramIsAnError) {
  RealPumpOptions o;
  o.argv = {"/nonexistent/program"};
  EXPECT_FALSE(run_real_pump(o).ok());
}

TEST(RealPump, RealGitPackObjectsAndUploadPack) {
  TempFolder dir;
  auto head = make_repo(PERFLAB_PIPE_SCRIPTS "/make_repo.sh", dir.path() / "repo", 2);
  ASSERT_TRUE(head.ok()) << head.status().message();
  RealPumpOptions pack = pack_objects_child(dir.path() / "repo");
  pack.timeout_s = 60;
  auto packed = run_real_pump(pack);
  ASSERT_TRUE(packed.ok()) << packed.status().message();
  EXPECT_EQ(packed->exit_status, 0);
  EXPECT_EQ(packed->head.substr(0, 4), "PACK");
  EXPECT_GT(packed->bytes, 2u * 1024 * 1024);
  RealPumpOptions serve = upload_pack_child(dir.path() / "repo", *head);
  serve.timeout_s = 60;
  auto served = run_real_pump(serve);
  ASSERT_TRUE(served.ok()) << served.status().message();
  EXPECT_EQ(served->exit_status, 0);
  EXPECT_GT(served->bytes, packed->bytes);  // the pack, plus advertisement, framing and progress
  // Band 1 carries exactly the pack pack-objects makes (same repository, same objects), in packets of at
  // most 65,515 bytes (git >= 2.35; 8,192 before).
  EXPECT_EQ(served->band1_bytes, packed->bytes);
  EXPECT_GE(served->band1_packets, packed->bytes / 65515);
  EXPECT_GT(served->child_cpu_s, 0.0);        // upload-pack's own CPU, read before reaping
  EXPECT_GT(served->descendants_cpu_s, 0.0);  // its pack-objects
  EXPECT_LT(served->child_cpu_s, 60.0);
}

TEST(SideBandCounter, CountsBandOnePacketsFedInAnyPieces) {
  // "0009\x01abcd" (band 1, 4 bytes), "0006\x02x" (band 2), a flush, "0007\x01yz" (band 1, 2 bytes).
  const std::string stream = std::string(
                                 "0009\x01"
                                 "abcd") +
                             "0006\x02x" + "0000" + "0007\x01yz";
  for (size_t piece : {size_t{1}, size_t{3}, stream.size()}) {
    SideBandCounter counter;
    for (size_t i = 0; i < stream.size(); i += piece) {
      size_t n = std::min(piece, stream.size() - i);
      counter.add(reinterpret_cast<const uint8_t*>(stream.data() + i), n);
    }
    EXPECT_FALSE(counter.malformed());
    EXPECT_EQ(counter.band1_packets(), 2u);
    EXPECT_EQ(counter.band1_bytes(), 6u);
  }
  SideBandCounter bad;
  const std::string junk = "zz01";
  bad.add(reinterpret_cast<const uint8_t*>(junk.data()), junk.size());
  EXPECT_TRUE(bad.malformed());
}

}  // namespace
}  // namespace perflab::pipe
