// The sweep runner: lays out the run table, resumes from the journal, prepares each point, then feeds the
// pending runs to a pool of forked children and records how each ended. See runner.h.
#include "sim/runner.h"

#include <sys/wait.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "sim/child_pool.h"
#include "sim/interrupt_guard.h"
#include "sim/journal.h"
#include "sim/micro_engine.h"
#include "sim/progress.h"
#include "sim/row_codec.h"
#include "sim/timeline.h"

namespace perflab {
namespace {

std::string describe_exit(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    return "crashed (signal " + std::to_string(sig) + ": " + strsignal(sig) + ")";
  }
  if (WIFEXITED(status)) return "child exited with status " + std::to_string(WEXITSTATUS(status));
  return "child ended abnormally";
}

Status check_metrics(const Study& study, Engine engine, const Metrics& metrics) {
  for (const auto& spec : study.metrics_for(engine)) {
    if (metrics.count(spec.name) == 0)
      return Status::Error("driver did not report metric \"" + spec.name + "\"");
  }
  return Status::OK();
}

}  // namespace

namespace {

// The row of a child that has ended: what it sent, unless it was killed, crashed or sent no whole row.
RunRow row_of(const ChildPool::Ended& ended, const RunRow& slot) {
  RunRow row = slot;
  if (!ended.kill_reason.empty()) {
    row.outcome = Outcome::kTimedOut;
    row.error = ended.kill_reason;
    return row;
  }
  auto newline = ended.output.find('\n');
  std::optional<RunRow> sent;
  if (newline != std::string::npos) sent = decode_row(ended.output.substr(0, newline));
  bool clean_exit = WIFEXITED(ended.wait_status) && WEXITSTATUS(ended.wait_status) == 0;
  if (sent && clean_exit) return *sent;
  row.outcome = Outcome::kFailed;
  row.error = describe_exit(ended.wait_status) + (sent && !sent->error.empty() ? ": " + sent->error : "");
  return row;
}

// Points with the same key share one prepare(): the values of what it reads (every point its own when
// the study does not say).
std::string prepare_key(const Scenario& scenario, size_t point) {
  const Study& study = *scenario.study;
  if (study.prepare_reads.empty()) return std::to_string(point);
  std::string key;
  for (const auto& name : study.prepare_reads) key += scenario.grid[point].params.text(name) + "\n";
  return key;
}

}  // namespace

Result<PointInputs> prepare_point(const Scenario& scenario, size_t point) {
  if (!scenario.study->prepare) return PointInputs{};
  return scenario.study->prepare(scenario.grid[point].params);
}

RunRow run_one(const Scenario& scenario, size_t point, int replication, const PointInputs& inputs,
               const RunOptions& options) {
  RunRow row;
  row.point = point;
  row.replication = replication;
  row.seed = RunTable::seed_of(scenario, replication);
  row.outcome = Outcome::kFailed;
  const Study& study = *scenario.study;
  const Params& params = scenario.grid[point].params;
  Timeline timeline;
  Timeline* timeline_ptr = options.timeline ? &timeline : nullptr;

  Result<Metrics> metrics = Status::Error("no engine");
  if (scenario.engine == Engine::kMicro) {
    auto micro = run_micro(study, params, inputs, scenario.repetitions);
    if (micro.ok()) row.repetitions = micro->repetitions;
    metrics = micro.ok() ? Result<Metrics>(micro->metrics) : Result<Metrics>(micro.status());
  } else {
    RunContext context{params, inputs, scenario.network,
                       row.seed, timeline_ptr};
    metrics = study.run_sim(context);
  }
  Status status = metrics.ok() ? check_metrics(study, scenario.engine, *metrics) : metrics.status();
  if (status.ok() && timeline_ptr != nullptr) status = timeline.write(*options.timeline);
  if (!status.ok()) {
    row.error = status.message();
    return row;
  }
  row.outcome = Outcome::kOk;
  row.metrics = *metrics;
  return row;
}

Result<RunTable> run_scenario(const Scenario& scenario, const RunOptions& options) {
  RunTable table = RunTable::empty(scenario);
  if (options.timeline && table.rows.size() != 1) {
    return Status::Error("--timeline needs a single run (one grid point, --seeds 1); this run has " +
                         std::to_string(table.rows.size()) + ", narrow it with --set and --seeds 1");
  }

  std::optional<Journal> journal;
  if (options.journal) {
    auto opened = Journal::open(*options.journal, scenario, options.resume);
    if (!opened.ok()) return opened.status();
    journal.emplace(std::move(opened).value());
    for (const auto& finished : journal->rows()) table.place(finished);
  }

  std::vector<bool> wanted(table.rows.size(), !options.tasks);
  if (options.tasks) {
    for (size_t task : *options.tasks) {
      if (task >= table.rows.size()) {
        return Status::Error("run " + std::to_string(task) + " does not exist, expected one of 0.." +
                             std::to_string(table.rows.size() - 1));
      }
      wanted[task] = true;
    }
  }
  std::vector<size_t> pending;
  for (size_t t = 0; t < table.rows.size(); ++t) {
    if (wanted[t] && !table.rows[t].ran()) pending.push_back(t);
  }

  // Each point's inputs, loaded here before any fork, once for the points that agree on what prepare()
  // reads; only for the points this run needs (a shard may need few).
  std::vector<std::optional<PointInputs>> inputs(scenario.grid.size());
  std::map<std::string, PointInputs> prepared_for;
  for (size_t task : pending) {
    size_t point = table.rows[task].point;
    if (inputs[point]) continue;
    const std::string key = prepare_key(scenario, point);
    if (auto done = prepared_for.find(key); done != prepared_for.end()) {
      inputs[point] = done->second;
      continue;
    }
    auto prepared = prepare_point(scenario, point);
    if (!prepared.ok()) return prepared.status();
    inputs[point] = prepared_for[key] = std::move(prepared).value();
  }
  const std::string timeout_reason =
      "timed out: exceeded --point-timeout " + format_quantity(options.point_timeout_s, Quantity::kDuration);

  InterruptGuard interrupt;
  ChildPool children(options.jobs);
  size_t wanted_runs = static_cast<size_t>(std::count(wanted.begin(), wanted.end(), true));
  Progress progress(wanted_runs, wanted_runs - pending.size(), options.progress);
  for (size_t next = 0; next < pending.size() || !children.empty();) {
    if (InterruptGuard::interrupted()) {
      children.kill_all();
      table.interrupted = true;
      break;
    }
    while (!children.full() && next < pending.size()) {
      size_t task = pending[next++];
      const RunRow& slot = table.rows[task];
      auto spawned = children.spawn(task, [&] {
        return encode_row(run_one(scenario, slot.point, slot.replication, *inputs[slot.point], options));
      });
      if (!spawned.ok()) return spawned;
    }
    auto ended = children.collect(std::chrono::milliseconds(100));
    if (!ended.ok()) return ended.status();
    for (const auto& child : *ended) {
      bool killed_by_ctrl_c = InterruptGuard::interrupted() && WIFSIGNALED(child.wait_status) &&
                              WTERMSIG(child.wait_status) == SIGINT;
      if (killed_by_ctrl_c) continue;  // Ctrl-C reached the child too: not a failure, just not run
      RunRow& row = table.rows[child.task];
      row = row_of(child, row);
      if (row.ok() && journal) journal->append(row);
      if (options.on_row) options.on_row(row);
      progress.advance(row.failed());
    }
    children.kill_overdue(options.point_timeout_s, timeout_reason);
    progress.tick();
  }
  progress.finish();
  return table;
}

}  // namespace perflab
