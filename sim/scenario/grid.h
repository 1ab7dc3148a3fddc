// A scenario's grid: its [[case]]s × the cartesian product of its [sweep] axes (the last axis moving
// fastest), over the fixed parameters. Points are made when asked, from their index, and never all held at
// once: a 10^7-point sweep costs the memory of its axes, so `run`, a shard of it and a Dask slice start at
// once. The scenario loader (scenario.h) builds it and checks every point of a grid up to
// kGridCheckedUpFront points before anything runs; a larger grid's points are checked as their runs start.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/common/status.h"
#include "sim/study/params.h"
#include "sim/study/study.h"

namespace perflab {

// Grids up to this size are expanded and checked point by point when loaded (a second or so of
// cross-parameter checks); larger ones are checked point by point as they run.
constexpr size_t kGridCheckedUpFront = 100000;

struct GridPoint {
  Params params;
  // Aligned with Scenario::param_columns. Values are what CSV files hold: numbers in base units (sizes in
  // bytes, durations in seconds, rates in bytes/s), everything else as written. Labels are how the scenario
  // spells them ("64KiB"), for tables a person reads.
  std::vector<std::string> column_values;
  std::vector<std::string> column_labels;
  // Hash of the point's columns and values (not labels): fingerprints a grid made of these very points
  // (Grid::of). It seeds nothing: a run's seed never depends on its point (sim/study/seeding.h).
  uint64_t identity = 0;
};

class Grid {
 public:
  struct Axis {
    std::string name;
    std::vector<ParamValue> values;
  };
  struct Case {
    std::string name;
    std::vector<std::pair<std::string, ParamValue>> values;
  };
  // A column outside the study's parameters (the network's): its label and CSV value on every point.
  struct Column {
    std::string label;
    std::string value;
  };

  Grid() = default;
  // `cases` empty: one unnamed case. `where` is the scenario file, for errors.
  Grid(const Study* study, std::vector<std::string> param_columns, std::map<std::string, ParamValue> fixed,
       std::vector<Axis> sweep, std::vector<Case> cases, std::map<std::string, Column> extra_columns,
       std::string where);
  // A grid of these very points (tests build tables this way).
  static Grid of(std::vector<GridPoint> points);

  size_t size() const;
  bool empty() const { return size() == 0; }
  // Point `index` (< size()), made now; its cross-parameter check is point_status().
  GridPoint operator[](size_t index) const;
  // The study's cross-parameter check of point `index` ("file case "x": what is wrong").
  Status point_status(size_t index) const;
  // The columns (indices into param_columns) whose label differs between points.
  std::vector<size_t> varying_columns() const;
  // One point per distinct combination of the values of `params` (in grid order): the points whose inputs
  // differ, when a study's prepare() reads only `params`. Every point when `params` is empty.
  std::vector<size_t> representatives(const std::vector<std::string>& params) const;
  // A hash of everything the points are made of (journal and shard fingerprints), without making them.
  uint64_t fingerprint() const;

 private:
  // The case and sweep-axis indices of point `index`.
  std::pair<size_t, std::vector<size_t>> position(size_t index) const;
  GridPoint make(size_t case_index, const std::vector<size_t>& at) const;

  const Study* study_ = nullptr;
  std::vector<std::string> columns_;
  std::map<std::string, ParamValue> fixed_;
  std::vector<Axis> sweep_;
  std::vector<Case> cases_;
  std::map<std::string, Column> extra_columns_;
  std::string where_;
  std::vector<GridPoint> points_;  // Grid::of: the points themselves
  bool explicit_points_ = false;
};

}  // namespace perflab
