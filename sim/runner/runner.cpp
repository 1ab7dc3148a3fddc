// The sweep runner: lays out the run table, resumes from the journal, prepares each point, then feeds the
// pending runs to a pool of forked children and records how each ended. See runner.h.
#include "sim/runner/runner.h"

#include <sys/wait.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "sim/engines/micro_engine.h"
#include "sim/engines/timeline.h"
#include "sim/runner/child_pool.h"
#include "sim/runner/interrupt_guard.h"
#include "sim/runner/journal.h"
#include "sim/runner/progress.h"
#include "sim/runner/row_codec.h"

namespace perflab {
namespace fs = std::filesystem;
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
std::string prepare_key(const Study& study, size_t point, const Params& params) {
  if (study.prepare_reads.empty()) return std::to_string(point);
  std::string key;
  for (const auto& name : study.prepare_reads) key += params.text(name) + "\n";
  return key;
}

// What prepare() loaded, by prepare_key, loaded once per key.
class PreparedInputs {
 public:
  explicit PreparedInputs(const Scenario& scenario) : scenario_(scenario) {}
  Result<PointInputs> of(size_t point, const Params& params) {
    if (!scenario_.study->prepare) return PointInputs{};
    std::string key = prepare_key(*scenario_.study, point, params);
    if (auto done = loaded_.find(key); done != loaded_.end()) return done->second;
    auto prepared = scenario_.study->prepare(params);
    if (prepared.ok()) loaded_[key] = *prepared;
    return prepared;
  }

 private:
  const Scenario& scenario_;
  std::map<std::string, PointInputs> loaded_;
};

}  // namespace

bool TaskSelection::contains(size_t task) const {
  return std::any_of(ranges.begin(), ranges.end(), [&](const auto& range) {
    return task >= range.first && task <= range.second && (task - range.first) % step == 0;
  });
}

size_t TaskSelection::count() const {
  size_t n = 0;
  for (const auto& [first, last] : ranges) n += (last - first) / step + 1;
  return n;
}

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
  const GridPoint grid_point = scenario.grid[point];
  const Params& params = grid_point.params;
  Timeline timeline;
  Timeline* timeline_ptr = options.timeline ? &timeline : nullptr;

  Result<Metrics> metrics = Status::Error("no engine");
  if (scenario.engine == Engine::kMicro) {
    auto micro = run_micro(study, params, inputs, scenario.repetitions, scenario.long_repetitions);
    if (micro.ok()) row.repetitions = micro->repetitions;
    metrics = micro.ok() ? Result<Metrics>(micro->metrics) : Result<Metrics>(micro.status());
  } else {
    RunContext context{params, inputs, scenario.network, row.seed, timeline_ptr};
    if (point < options.wake_up.size()) context.wake_up = options.wake_up[point];
    metrics = scenario.engine == Engine::kReal ? study.run_real(context) : study.run_sim(context);
  }
  Status status = metrics.ok() ? check_metrics(study, scenario.engine, *metrics) : metrics.status();
  if (status.ok() && timeline_ptr != nullptr && timeline.size() == 0) {
    status = Status::Error(std::string("--timeline: the run recorded no spans: the ") +
                           engine_name(scenario.engine) + " engine of study " + study.name +
                           " keeps no timeline (" + kEnginesWithATimeline + ")");
  }
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
  const size_t total = table.total_runs();
  if (options.timeline && total != 1) {
    return Status::Error("--timeline needs a single run (one grid point, --seeds 1); this run has " +
                         std::to_string(total) + ", narrow it with --set, --case and --seeds 1");
  }
  TaskSelection selection = options.tasks.value_or(TaskSelection{});
  if (!options.tasks && total > 0) selection.ranges = {{0, total - 1}};
  for (const auto& [first, last] : selection.ranges) {
    if (last >= total || first > last || selection.step == 0) {
      return Status::Error("run " + std::to_string(std::max(first, last)) +
                           " does not exist, expected one of 0.." + std::to_string(total - 1));
    }
  }
  table.planned = selection.count();
  if (!options.wake_up.empty()) {
    if (options.wake_up.size() != scenario.grid.size())
      return Status::Error("a wake-up for each of the " + std::to_string(scenario.grid.size()) +
                           " grid points, expected; got " + std::to_string(options.wake_up.size()));
    table.wake_up = options.wake_up;
  }

  // Inputs are loaded in this process before any fork (the children share them), once per distinct
  // prepare() key. A run that writes (a journal) or runs the whole grid checks every input file the
  // scenario names first, so a bad one leaves nothing behind; a slice of a sweep (a Dask task) loads
  // those of its own points as it meets them.
  PreparedInputs inputs(scenario);
  if (options.journal || !options.tasks) {
    if (scenario.study->prepare) {
      for (size_t point : scenario.grid.representatives(scenario.study->prepare_reads)) {
        auto prepared = inputs.of(point, scenario.grid[point].params);
        if (!prepared.ok()) return prepared.status();
      }
    }
  }

  std::optional<Journal> journal;
  std::vector<size_t> finished;  // tasks the journal already holds (--resume), sorted
  if (options.journal) {
    std::error_code ec;
    if (options.resume && !fs::exists(*options.journal, ec)) {
      // Said before the folder is made: a mistyped --out must not leave an empty one behind.
      return Journal::open(*options.journal, scenario, true).status();
    }
    fs::create_directories(options.journal->parent_path(), ec);
    if (ec)
      return Status::Error(options.journal->parent_path().string() +
                           ": cannot create the output folder: " + ec.message());
    auto opened = Journal::open(*options.journal, scenario, options.resume);
    if (!opened.ok()) return opened.status();
    journal.emplace(std::move(opened).value());
    for (const auto& row : journal->rows()) {
      if (table.place(row)) finished.push_back(table.task_of(row.point, row.replication));
    }
    std::sort(finished.begin(), finished.end());
  }
  auto already_done = [&](size_t task) { return std::binary_search(finished.begin(), finished.end(), task); };
  size_t done_before = static_cast<size_t>(
      std::count_if(finished.begin(), finished.end(), [&](size_t task) { return selection.contains(task); }));
  const std::string timeout_reason =
      "timed out: exceeded --point-timeout " + format_quantity(options.point_timeout_s, Quantity::kDuration);
  const bool check_each_point = scenario.grid.size() > kGridCheckedUpFront;  // smaller: checked when loaded

  InterruptGuard interrupt;
  ChildPool children(options.jobs);
  Progress progress(table.planned, done_before, options.progress);
  // The runs still to make, in task order, one cursor over the selection (never listed).
  std::vector<std::pair<size_t, size_t>> ranges = selection.ranges;
  size_t range = 0, next_task = ranges.empty() ? 0 : ranges.front().first;
  auto next_pending = [&]() -> std::optional<size_t> {
    while (range < ranges.size()) {
      if (next_task > ranges[range].second) {
        if (++range < ranges.size()) next_task = ranges[range].first;
        continue;
      }
      size_t task = next_task;
      next_task += selection.step;
      if (!already_done(task)) return task;
    }
    return std::nullopt;
  };
  std::map<size_t, RunRow> running;  // task -> its row as laid out, for the runs of live children
  auto record = [&](RunRow row) {
    if (row.ok() && journal) journal->append(row);
    if (options.on_row) options.on_row(row);
    progress.advance(row.failed());
    table.place(std::move(row));
  };
  std::optional<size_t> pending = next_pending();
  // Ctrl-C, and a SIGTERM sent to the process group, reach the children too, sometimes first.
  int child_saw_signal = 0;
  while (true) {
    if (InterruptGuard::interrupted() || child_saw_signal != 0) {
      children.kill_all();
      table.interrupted = InterruptGuard::interrupted() ? InterruptGuard::signal_caught() : child_saw_signal;
      break;
    }
    if (!pending && children.empty()) break;
    while (!children.full() && pending) {
      size_t task = *pending;
      pending = next_pending();
      RunRow row;
      row.point = task / static_cast<size_t>(scenario.seeds);
      row.replication = static_cast<int>(task % static_cast<size_t>(scenario.seeds));
      row.seed = RunTable::seed_of(scenario, row.replication);
      if (check_each_point) {
        Status valid = scenario.grid.point_status(row.point);
        if (!valid.ok()) {  // a point of a grid too large to check up front: a failed row, no fork
          row.outcome = Outcome::kFailed;
          row.error = valid.message();
          record(std::move(row));
          continue;
        }
      }
      auto point_inputs = inputs.of(row.point, scenario.grid[row.point].params);
      if (!point_inputs.ok()) return point_inputs.status();
      auto spawned = children.spawn(task, [&] {
        return encode_row(run_one(scenario, row.point, row.replication, *point_inputs, options));
      });
      if (!spawned.ok()) return spawned;
      running.emplace(task, std::move(row));
    }
    auto ended = children.collect(std::chrono::milliseconds(100));
    if (!ended.ok()) return ended.status();
    for (const auto& child : *ended) {
      RunRow slot = std::move(running.at(child.task));
      running.erase(child.task);
      if (WIFSIGNALED(child.wait_status) &&
          (WTERMSIG(child.wait_status) == SIGINT || WTERMSIG(child.wait_status) == SIGTERM)) {
        child_saw_signal = WTERMSIG(child.wait_status);  // not a failure, just not run
        continue;
      }
      record(row_of(child, slot));
    }
    children.kill_overdue(options.point_timeout_s, timeout_reason);
    progress.tick();
  }
  progress.finish();
  return table;
}

}  // namespace perflab
