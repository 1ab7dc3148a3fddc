#include "sim/runner/shard.h"

#include <fstream>
#include <sstream>

#include "sim/runner/journal.h"
#include "sim/runner/row_codec.h"

namespace perflab {
namespace {

constexpr const char* kShardMagic = "perflab-shard-v1";

}  // namespace

Result<Shard> parse_shard_flag(const std::string& text) {
  Shard shard;
  char slash = 0;
  std::istringstream in(text);
  if ((in >> shard.index >> slash >> shard.count) && slash == '/' && in.peek() == EOF && shard.count >= 1 &&
      shard.index >= 1 && shard.index <= shard.count) {
    return shard;
  }
  return Status::Error("--shard \"" + text +
                       "\" is not valid, expected I/N with 1 <= I <= N, e.g. --shard 2/8");
}

TaskSelection shard_tasks(const Scenario& scenario, int index, int count) {
  TaskSelection tasks;
  size_t runs = scenario.grid.size() * static_cast<size_t>(scenario.seeds);
  if (static_cast<size_t>(index - 1) < runs) tasks.ranges = {{static_cast<size_t>(index - 1), runs - 1}};
  tasks.step = static_cast<size_t>(count);
  return tasks;
}

Status write_shard(const std::filesystem::path& file, const Shard& shard) {
  std::ofstream out(file);
  out << kShardMagic << "\n";
  out << "scenario " << shard.scenario_file.string() << "\n";
  for (const auto& o : shard.overrides) out << "set " << o.key << "=" << o.value << "\n";
  out << "shard " << shard.index << "/" << shard.count << "\n";
  out << "fingerprint " << shard.fingerprint << "\n";
  out << "rows\n";
  for (const auto& row : shard.rows) out << encode_row(row);
  out.close();
  return out ? Status::OK() : Status::Error(file.string() + ": cannot write the shard file");
}

Result<Shard> read_shard(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return Status::Error(file.string() + ": cannot read the shard file");
  auto bad = [&](int line, const std::string& what) {
    return Status::Error(file.string() + ":" + std::to_string(line) + ": " + what);
  };
  Shard shard;
  std::string line;
  int number = 1;
  if (!std::getline(in, line) || line != kShardMagic)
    return bad(1, "not a shard file, expected a first line \"" + std::string(kShardMagic) + "\"");
  bool header_done = false;
  while (!header_done && std::getline(in, line)) {
    ++number;
    auto space = line.find(' ');
    std::string key = line.substr(0, space);
    std::string value = space == std::string::npos ? "" : line.substr(space + 1);
    if (key == "scenario") {
      shard.scenario_file = value;
    } else if (key == "set") {
      auto o = parse_override(value);
      if (!o.ok()) return bad(number, o.status().message());
      shard.overrides.push_back(*o);
    } else if (key == "shard") {
      auto s = parse_shard_flag(value);
      if (!s.ok()) return bad(number, s.status().message());
      shard.index = s->index;
      shard.count = s->count;
    } else if (key == "fingerprint") {
      shard.fingerprint = std::strtoull(value.c_str(), nullptr, 10);
    } else if (key == "rows") {
      header_done = true;
    } else {
      return bad(number, "unknown line \"" + key + "\", expected scenario, set, shard, fingerprint or rows");
    }
  }
  if (!header_done || shard.scenario_file.empty() || shard.fingerprint == 0)
    return bad(number, "the header is incomplete, expected scenario, shard, fingerprint and rows lines");
  while (std::getline(in, line)) {
    ++number;
    auto row = decode_row(line);
    if (!row) return bad(number, "not a run row (the file was cut or edited)");
    shard.rows.push_back(std::move(*row));
  }
  return shard;
}

Result<RunTable> merge_shards(const Scenario& scenario, const std::vector<Shard>& shards,
                              const std::vector<std::filesystem::path>& files) {
  const Shard& first = shards.front();
  std::vector<const std::filesystem::path*> holder(static_cast<size_t>(first.count), nullptr);
  for (size_t i = 0; i < shards.size(); ++i) {
    const Shard& shard = shards[i];
    if (shard.fingerprint != first.fingerprint || shard.count != first.count) {
      return Status::Error(files[i].string() + ": a shard of a different scenario (or split) than " +
                           files[0].string() + ", expected shards of one `perflab run … --shard I/" +
                           std::to_string(first.count) + "`");
    }
    auto& slot = holder[static_cast<size_t>(shard.index - 1)];
    if (slot != nullptr) {
      return Status::Error(files[i].string() + ": shard " + std::to_string(shard.index) + "/" +
                           std::to_string(shard.count) + " is also in " + slot->string() +
                           ", expected each shard once");
    }
    slot = &files[i];
  }
  for (size_t i = 0; i < holder.size(); ++i) {
    if (holder[i] == nullptr) {
      return Status::Error("shard " + std::to_string(i + 1) + "/" + std::to_string(first.count) +
                           " is missing, expected all " + std::to_string(first.count) + " shards");
    }
  }
  if (scenario_fingerprint(scenario) != first.fingerprint) {
    return Status::Error(first.scenario_file.string() +
                         ": the scenario file changed since the shards ran (its grid is not theirs), "
                         "expected the file the shards were run from");
  }

  RunTable table = RunTable::empty(scenario);
  for (size_t i = 0; i < shards.size(); ++i) {
    const Shard& shard = shards[i];
    auto tasks = shard_tasks(scenario, shard.index, shard.count);
    size_t found = 0;
    for (const auto& row : shard.rows) {
      size_t task = table.task_of(row.point, row.replication);
      bool in_shard = task % static_cast<size_t>(shard.count) == static_cast<size_t>(shard.index - 1);
      bool in_table = row.replication >= 0 && row.replication < scenario.seeds && row.point < scenario.grid.size();
      if (!in_shard || !in_table) {
        return Status::Error(files[i].string() + ": holds a run that is not part of shard " +
                             std::to_string(shard.index) + "/" + std::to_string(shard.count));
      }
      table.rows.push_back(row);  // sorted once all are in: placing them one by one would be quadratic
      if (row.ran()) ++found;
    }
    if (found != tasks.count()) {
      return Status::Error(
          files[i].string() + ": incomplete shard (" + std::to_string(found) + " of " +
          std::to_string(tasks.count()) +
          " runs; it was interrupted), expected a finished shard: continue it with --resume");
    }
  }
  table.sort();
  return table;
}

}  // namespace perflab
