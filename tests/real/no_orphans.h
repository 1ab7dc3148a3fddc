// For the real engine's end-to-end tests: a test process that adopts whatever its descendants leave behind
// (PR_SET_CHILD_SUBREAPER), so a peer process that outlived its run would be found here, and a Ctrl-C that
// must leave no process behind.
#pragma once

#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/sim/cli_runner.h"

namespace perflab::testing {

// Orphans killed with their parent (PR_SET_PDEATHSIG, delivered asynchronously) are reaped; true when no
// child is left alive within a second.
inline bool no_process_left() {
  for (int attempt = 0; attempt < 100; ++attempt) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid == -1 && errno == ECHILD) return true;
    if (pid == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));  // one still alive: wait
  }
  return false;
}

// How many processes are in process group `group` (/proc/PID/stat's fifth field).
inline int processes_in_group(pid_t group) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string stat = read_file(entry.path() / "stat");
    auto after_name = stat.rfind(')');
    if (after_name == std::string::npos) continue;
    std::istringstream fields(stat.substr(after_name + 2));
    std::string state;
    long parent = 0, pgrp = 0;
    fields >> state >> parent >> pgrp;
    if (pgrp == group && state != "Z") ++count;
  }
  return count;
}

// Starts the perflab binary `perflab` (PERFLAB_BINARY) with `args` in its own process group (a shell's
// foreground job), waits until the run and its real engine's peer process exist (three processes in the
// group), sends the group SIGINT as Ctrl-C does, and expects perflab to exit 130 ("interrupted") leaving no
// process behind. perflab's stderr goes to `err`.
inline void expect_ctrl_c_leaves_no_process(const char* perflab, const std::vector<std::string>& args,
                                            const std::filesystem::path& err) {
  std::vector<char*> argv = {const_cast<char*>(perflab)};
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    freopen(err.c_str(), "w", stderr);
    freopen("/dev/null", "w", stdout);
    execv(perflab, argv.data());
    _exit(127);
  }
  setpgid(pid, pid);
  for (int i = 0; i < 600 && processes_in_group(pid) < 3; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // however long a loaded machine takes
  ASSERT_GE(processes_in_group(pid), 3);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_EQ(kill(-pid, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "perflab died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 130) << read_file(err);
  EXPECT_NE(read_file(err).find("interrupted"), std::string::npos) << read_file(err);
  EXPECT_TRUE(no_process_left());
}

// A test fixture whose process adopts orphans.
class AdoptsOrphans : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0); }
};

}  // namespace perflab::testing
