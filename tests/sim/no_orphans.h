// For end-to-end tests of what perflab forks: a test process that adopts whatever its descendants leave
// behind (PR_SET_CHILD_SUBREAPER), so a run, a peer process or a captured program that outlived perflab
// would be found here, and SIGINT or SIGTERM, to perflab alone or to its process group, that must leave
// no process behind.
#pragma once

#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <map>
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

// The processes descended from `ancestor` (not zombies), each as its name (/proc/PID/comm) and command
// line (arguments separated by spaces): "perflab-control\tjava -jar ...".
inline std::vector<std::string> descendants_of(pid_t ancestor) {
  std::map<long, long> parent_of;
  std::map<long, std::string> text_of;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string stat = read_file(entry.path() / "stat");
    auto after_name = stat.rfind(')');
    if (after_name == std::string::npos) continue;
    std::istringstream fields(stat.substr(after_name + 2));
    std::string state;
    long parent = 0;
    fields >> state >> parent;
    if (state == "Z") continue;
    std::string cmdline = read_file(entry.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    std::string comm = read_file(entry.path() / "comm");
    if (!comm.empty() && comm.back() == '\n') comm.pop_back();
    parent_of[std::stol(name)] = parent;
    text_of[std::stol(name)] = comm + "\t" + cmdline;
  }
  std::vector<std::string> found;
  for (const auto& [pid, text] : text_of) {
    long up = parent_of[pid];
    for (int depth = 0; depth < 64 && up > 1 && up != ancestor; ++depth)
      up = parent_of.count(up) ? parent_of[up] : 0;
    if (up == ancestor) found.push_back(text);
  }
  return found;
}

enum class SignalTo { kPerflabAlone, kProcessGroup };

// Starts the perflab binary `perflab` (PERFLAB_BINARY) with `args` in its own process group (a shell's
// foreground job), stdout to /dev/null and stderr to `err`; waits until one of its descendants has `marker`
// in its name or command line (a run's peer process: "perflab-control"; a captured program: its arguments);
// sends `signal` to perflab alone (kill PID) or to its whole group (kill -PGID, as a terminal's Ctrl-C or
// `timeout` does); and expects perflab to exit 128 + signal (130 for SIGINT, 143 for SIGTERM), saying it was
// interrupted, and leave no process behind.
inline void expect_signal_leaves_no_process(const char* perflab, const std::vector<std::string>& args,
                                            const std::string& marker, int signal, SignalTo to,
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
  auto started = [&] {
    for (const auto& text : descendants_of(pid))
      if (text.find(marker) != std::string::npos) return true;
    return false;
  };
  // Seen once is enough: a short run's peer (share's runs take ~0.2 s) may be gone at a second look.
  bool ready = started();
  for (int i = 0; i < 600 && !ready; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // however long a loaded machine takes
    ready = started();
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_EQ(kill(to == SignalTo::kProcessGroup ? -pid : pid, ready ? signal : SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(ready) << "no process with \"" << marker << "\" started; perflab said: " << read_file(err);
  ASSERT_TRUE(WIFEXITED(status)) << "perflab died of signal " << WTERMSIG(status) << ": " << read_file(err);
  EXPECT_EQ(WEXITSTATUS(status), 128 + signal) << read_file(err);
  EXPECT_NE(read_file(err).find("interrupted"), std::string::npos) << read_file(err);
  EXPECT_TRUE(no_process_left());
}

// The four ways a run is stopped by a signal: SIGINT and SIGTERM, to perflab alone or to its group.
struct StopSignal {
  int signal;
  SignalTo to;
};
inline const std::vector<StopSignal> kStopSignals = {{SIGINT, SignalTo::kPerflabAlone},
                                                     {SIGINT, SignalTo::kProcessGroup},
                                                     {SIGTERM, SignalTo::kPerflabAlone},
                                                     {SIGTERM, SignalTo::kProcessGroup}};
inline std::string stop_signal_name(const ::testing::TestParamInfo<StopSignal>& info) {
  return std::string(info.param.signal == SIGINT ? "Sigint" : "Sigterm") +
         (info.param.to == SignalTo::kPerflabAlone ? "ToPerflabAlone" : "ToTheProcessGroup");
}

// A test fixture whose process adopts orphans.
class AdoptsOrphans : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0); }
};

}  // namespace perflab::testing
