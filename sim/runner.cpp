#include "sim/runner.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>

#include "sim/journal.h"
#include "sim/micro_engine.h"
#include "sim/progress.h"
#include "sim/timeline.h"

namespace perflab {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;
void on_interrupt(int) {
  g_interrupted = 1;
}

// Child → parent protocol, one line each: "metric NAME VALUE", "rep SECONDS", "error MESSAGE", "ok".
std::string encode(const RunRow& row) {
  std::string out;
  char number[40];
  for (const auto& [name, value] : row.metrics) {
    std::snprintf(number, sizeof number, "%.17g", value);
    out += "metric " + name + " " + number + "\n";
  }
  for (double seconds : row.repetitions) {
    std::snprintf(number, sizeof number, "%.17g", seconds);
    out += std::string("rep ") + number + "\n";
  }
  if (!row.error.empty()) {
    std::string flat = row.error;
    for (char& c : flat) {
      if (c == '\n') c = ' ';
    }
    out += "error " + flat + "\n";
  }
  return out + "ok\n";
}

// Returns false if the child never said "ok" (it died mid-run).
bool decode(const std::string& text, RunRow& row) {
  std::istringstream in(text);
  bool complete = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("metric ", 0) == 0) {
      auto space = line.rfind(' ');
      row.metrics[line.substr(7, space - 7)] = std::strtod(line.c_str() + space + 1, nullptr);
    } else if (line.rfind("rep ", 0) == 0) {
      row.repetitions.push_back(std::strtod(line.c_str() + 4, nullptr));
    } else if (line.rfind("error ", 0) == 0) {
      row.error = line.substr(6);
    } else if (line == "ok") {
      complete = true;
    }
  }
  return complete;
}

std::string describe_exit(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    return "crashed (signal " + std::to_string(sig) + ": " + strsignal(sig) + ")";
  }
  if (WIFEXITED(status)) return "child exited with status " + std::to_string(WEXITSTATUS(status));
  return "child ended abnormally";
}

Status check_metrics(const Study& study, const std::string& engine, const Metrics& metrics) {
  for (const auto& spec : study.metrics_for(engine)) {
    if (metrics.count(spec.name) == 0)
      return Status::Error("driver did not report metric \"" + spec.name + "\"");
  }
  return Status::OK();
}

struct Child {
  size_t task;
  int fd;
  std::string output;
  std::chrono::steady_clock::time_point started;
  std::string kill_reason;
};

}  // namespace

RunRow run_one(const Scenario& scenario, size_t point, int replication, const RunOptions& options) {
  RunRow row;
  row.point = point;
  row.replication = replication;
  row.seed = scenario.seed + static_cast<uint64_t>(replication);
  row.done = true;
  const Study& study = *scenario.study;
  const Params& params = scenario.grid[point].params;
  Timeline timeline;
  Timeline* timeline_ptr = options.timeline ? &timeline : nullptr;

  Result<Metrics> metrics = Status::Error("no engine");
  if (scenario.engine == "micro") {
    auto micro = run_micro(study, params, scenario.repetitions);
    if (micro.ok()) row.repetitions = micro->repetitions;
    metrics = micro.ok() ? Result<Metrics>(micro->metrics) : Result<Metrics>(micro.status());
  } else {
    RunContext context{params, scenario.network, derive_seed(row.seed, scenario.grid[point].identity, 0),
                       timeline_ptr};
    metrics = study.run_sim(context);
  }
  if (!metrics.ok()) {
    row.error = metrics.status().message();
    return row;
  }
  auto complete = check_metrics(study, scenario.engine, *metrics);
  if (!complete.ok()) row.error = complete.message();
  row.metrics = *metrics;
  if (timeline_ptr != nullptr) {
    auto written = timeline.write(*options.timeline);
    if (!written.ok()) row.error = written.message();
  }
  return row;
}

Result<RunTable> run_scenario(const Scenario& scenario, const RunOptions& options) {
  RunTable table;
  table.scenario = &scenario;
  for (size_t p = 0; p < scenario.grid.size(); ++p) {
    for (int r = 0; r < scenario.seeds; ++r) {
      RunRow row;
      row.point = p;
      row.replication = r;
      row.seed = scenario.seed + static_cast<uint64_t>(r);
      table.rows.push_back(row);
    }
  }
  if (options.timeline && table.rows.size() != 1) {
    return Status::Error("--timeline needs a single run (one grid point, --seeds 1); this run has " +
                         std::to_string(table.rows.size()) + ", narrow it with --set and --seeds 1");
  }

  std::optional<Journal> journal;
  if (options.journal) {
    auto opened = Journal::open(*options.journal, scenario, options.resume);
    if (!opened.ok()) return opened.status();
    journal.emplace(std::move(opened).value());
    for (const auto& finished : journal->rows()) {
      size_t task =
          finished.point * static_cast<size_t>(scenario.seeds) + static_cast<size_t>(finished.replication);
      if (task < table.rows.size()) table.rows[task] = finished;
    }
  }

  if (scenario.study->prepare) {
    for (const auto& point : scenario.grid) {
      auto prepared = scenario.study->prepare(point.params);
      if (!prepared.ok()) return prepared;
    }
  }

  std::vector<size_t> pending;
  for (size_t t = 0; t < table.rows.size(); ++t) {
    if (!table.rows[t].done) pending.push_back(t);
  }

  struct sigaction action {};
  struct sigaction previous {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous);
  g_interrupted = 0;

  Progress progress(table.rows.size(), table.rows.size() - pending.size(), options.progress);
  std::map<pid_t, Child> children;
  size_t next = 0;
  int jobs = std::max(1, options.jobs);

  auto finish = [&](pid_t pid, Child& child, int status) {
    RunRow& row = table.rows[child.task];
    if (g_interrupted && WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) {
      close(child.fd);  // Ctrl-C reached the child too: not a failure, just not run
      children.erase(pid);
      return;
    }
    row.done = true;
    bool complete = decode(child.output, row);
    if (!child.kill_reason.empty()) {
      row.error = child.kill_reason;
    } else if (!complete || !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
      row.error = describe_exit(status) + (row.error.empty() ? "" : ": " + row.error);
    }
    if (!row.error.empty()) row.metrics.clear();
    if (row.error.empty() && journal) journal->append(row);
    close(child.fd);
    children.erase(pid);
    progress.advance(!row.error.empty());
  };

  while ((next < pending.size() || !children.empty())) {
    if (g_interrupted) {
      for (auto& [pid, child] : children) kill(pid, SIGKILL);
      for (auto& [pid, child] : children) {
        waitpid(pid, nullptr, 0);
        close(child.fd);
      }
      children.clear();
      table.interrupted = true;
      break;
    }
    while (static_cast<int>(children.size()) < jobs && next < pending.size()) {
      size_t task = pending[next++];
      int fds[2];
      if (pipe(fds) != 0) return Status::Error(std::string("cannot create a pipe: ") + std::strerror(errno));
      std::fflush(stdout);
      std::fflush(stderr);
      pid_t pid = fork();
      if (pid < 0) return Status::Error(std::string("cannot fork: ") + std::strerror(errno));
      if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        close(fds[0]);
        const RunRow& slot = table.rows[task];
        RunRow row = run_one(scenario, slot.point, slot.replication, options);
        std::string text = encode(row);
        for (size_t written = 0; written < text.size();) {
          ssize_t n = write(fds[1], text.data() + written, text.size() - written);
          if (n <= 0) break;
          written += static_cast<size_t>(n);
        }
        close(fds[1]);
        std::fflush(stdout);
        std::fflush(stderr);
        _exit(0);
      }
      close(fds[1]);
      children[pid] = Child{task, fds[0], "", std::chrono::steady_clock::now(), ""};
    }

    std::vector<pollfd> polls;
    std::vector<pid_t> owners;
    for (auto& [pid, child] : children) {
      polls.push_back({child.fd, POLLIN, 0});
      owners.push_back(pid);
    }
    int ready = poll(polls.data(), polls.size(), 100);
    if (ready < 0 && errno != EINTR)
      return Status::Error(std::string("poll failed: ") + std::strerror(errno));
    for (size_t i = 0; ready > 0 && i < polls.size(); ++i) {
      if ((polls[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      pid_t pid = owners[i];
      Child& child = children[pid];
      char buffer[4096];
      ssize_t n = read(child.fd, buffer, sizeof buffer);
      if (n > 0) {
        child.output.append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        int status = 0;
        waitpid(pid, &status, 0);
        finish(pid, child, status);
      }
    }
    if (options.point_timeout_s > 0) {
      auto now = std::chrono::steady_clock::now();
      for (auto& [pid, child] : children) {
        double elapsed = std::chrono::duration<double>(now - child.started).count();
        if (elapsed > options.point_timeout_s && child.kill_reason.empty()) {
          child.kill_reason = "timed out: exceeded --point-timeout " +
                              format_quantity(options.point_timeout_s, Quantity::kDuration);
          kill(pid, SIGKILL);
        }
      }
    }
    progress.tick();
  }
  progress.finish();
  sigaction(SIGINT, &previous, nullptr);
  return table;
}

}  // namespace perflab
