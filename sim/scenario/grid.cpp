// A scenario's grid, point by point from the index: see grid.h.
#include "sim/scenario/grid.h"

#include <algorithm>
#include <set>

#include "sim/sampling/rng.h"
#include "sim/text/value_format.h"

namespace perflab {
namespace {

// A value as the CSV holds it: numbers in base units, everything else as written.
std::string csv_value(const ParamSpec& spec, const ParamValue& value) {
  bool quantity =
      spec.type == ParamType::kDuration || spec.type == ParamType::kSize || spec.type == ParamType::kRate;
  if (!quantity) return value.text;
  const auto* whole = std::get_if<int64_t>(&value.typed);
  return format_number(whole != nullptr ? static_cast<double>(*whole) : std::get<double>(value.typed));
}

// One parameter column of a point: how the scenario spells it, and its value in base units.
Grid::Column param_column(const ParamSpec& spec, const Params& params) {
  const std::string& label = params.text(spec.name);
  bool quantity =
      spec.type == ParamType::kDuration || spec.type == ParamType::kSize || spec.type == ParamType::kRate;
  return {label, quantity ? format_number(params.real(spec.name)) : label};
}

}  // namespace

Grid::Grid(const Study* study, std::vector<std::string> param_columns,
           std::map<std::string, ParamValue> fixed, std::vector<Axis> sweep, std::vector<Case> cases,
           std::map<std::string, Column> extra_columns, std::string where)
    : study_(study),
      columns_(std::move(param_columns)),
      fixed_(std::move(fixed)),
      sweep_(std::move(sweep)),
      cases_(std::move(cases)),
      extra_columns_(std::move(extra_columns)),
      where_(std::move(where)) {
  if (cases_.empty()) cases_.push_back(Case{"", {}});
}

Grid Grid::of(std::vector<GridPoint> points) {
  Grid grid;
  grid.points_ = std::move(points);
  grid.explicit_points_ = true;
  return grid;
}

size_t Grid::size() const {
  if (explicit_points_) return points_.size();
  size_t n = cases_.size();
  for (const auto& axis : sweep_) n *= axis.values.size();
  return n;
}

std::pair<size_t, std::vector<size_t>> Grid::position(size_t index) const {
  std::vector<size_t> at(sweep_.size(), 0);
  for (size_t axis = sweep_.size(); axis-- > 0;) {
    at[axis] = index % sweep_[axis].values.size();
    index /= sweep_[axis].values.size();
  }
  return {index, at};
}

GridPoint Grid::make(size_t case_index, const std::vector<size_t>& at) const {
  const Case& c = cases_[case_index];
  std::map<std::string, ParamValue> values = fixed_;
  for (const auto& [key, v] : c.values) values[key] = v;
  for (size_t i = 0; i < sweep_.size(); ++i) values[sweep_[i].name] = sweep_[i].values[at[i]];
  GridPoint point;
  for (const auto& spec : study_->params) {
    auto it = values.find(spec.name);
    if (it != values.end()) point.params.set(spec.name, it->second);  // the loader made sure all are set
  }
  // Parameters that follow from others (share's file_size from its file): an error here is reported by
  // point_status(), which runs before the point does.
  if (study_->complete) (void)study_->complete(point.params);
  std::string identity_text;  // the values as the CSV holds them, whatever their spelling
  for (const auto& column : columns_) {
    Column cell;
    if (column == "case") {
      cell = {c.name, c.name};
    } else if (auto extra = extra_columns_.find(column); extra != extra_columns_.end()) {
      cell = extra->second;
    } else {
      cell = param_column(*study_->find_param(column), point.params);
    }
    point.column_labels.push_back(cell.label);
    point.column_values.push_back(cell.value);
    identity_text.append(column).append("=").append(cell.value).append("\n");
  }
  point.identity = fnv1a(identity_text);
  return point;
}

GridPoint Grid::operator[](size_t index) const {
  if (explicit_points_) return points_[index];
  auto [case_index, at] = position(index);
  return make(case_index, at);
}

Status Grid::point_status(size_t index) const {
  if (explicit_points_ || (!study_->validate && !study_->complete)) return Status::OK();
  auto [case_index, at] = position(index);
  const Params params = make(case_index, at).params;  // completed already: a second pass finds its error
  Status s = Status::OK();
  if (study_->complete) {
    Params again = params;
    s = study_->complete(again);
  }
  if (s.ok() && study_->validate) s = study_->validate(params);
  if (s.ok()) return s;
  const std::string& case_name = cases_[case_index].name;
  return Status::Error((case_name.empty() ? where_ : where_ + " case \"" + case_name + "\"") + ": " +
                       s.message());
}

std::vector<size_t> Grid::varying_columns() const {
  std::vector<size_t> varying;
  for (size_t c = 0; c < columns_.size(); ++c) {
    std::set<std::string> labels;
    if (explicit_points_) {
      for (const auto& point : points_) labels.insert(point.column_labels[c]);
    } else if (columns_[c] == "case") {
      for (const auto& each : cases_) labels.insert(each.name);
    } else {
      const std::string& name = columns_[c];
      auto axis = std::find_if(sweep_.begin(), sweep_.end(), [&](const Axis& a) { return a.name == name; });
      if (axis != sweep_.end()) {
        for (const auto& v : axis->values) labels.insert(v.text);
      } else {
        for (const auto& each : cases_) {  // a parameter a [[case]] sets varies with the case
          auto set = std::find_if(each.values.begin(), each.values.end(),
                                  [&](const auto& kv) { return kv.first == name; });
          if (set != each.values.end()) {
            labels.insert(set->second.text);
          } else if (auto fixed = fixed_.find(name); fixed != fixed_.end()) {
            labels.insert(fixed->second.text);
          }
        }
      }
    }
    if (labels.size() > 1) varying.push_back(c);
  }
  return varying;
}

std::vector<size_t> Grid::representatives(const std::vector<std::string>& params) const {
  std::vector<size_t> points;
  if (params.empty() || explicit_points_) {
    for (size_t p = 0; p < size(); ++p) points.push_back(p);
    return points;
  }
  size_t per_case = size() / cases_.size();
  for (size_t c = 0; c < cases_.size(); ++c) {
    // The odometer over the axes `params` names; the other axes stay at their first value.
    std::vector<size_t> at(sweep_.size(), 0);
    while (true) {
      size_t index = 0;
      for (size_t i = 0; i < sweep_.size(); ++i) index = index * sweep_[i].values.size() + at[i];
      points.push_back(c * per_case + index);
      size_t axis = sweep_.size();
      while (axis-- > 0) {
        bool read = std::find(params.begin(), params.end(), sweep_[axis].name) != params.end();
        if (read && ++at[axis] < sweep_[axis].values.size()) break;
        at[axis] = 0;
      }
      if (axis == static_cast<size_t>(-1)) break;
    }
  }
  return points;
}

uint64_t Grid::fingerprint() const {
  std::string text;
  if (explicit_points_) {
    for (const auto& point : points_) text += std::to_string(point.identity) + "|";
    return fnv1a(text);
  }
  // The values as the CSV holds them (not their spelling: "48MiB" and "50331648B" are one grid).
  auto value_of = [&](const std::string& name, const ParamValue& value) {
    const ParamSpec* spec = study_->find_param(name);
    return spec != nullptr ? csv_value(*spec, value) : value.text;
  };
  text = join(columns_) + "\n";
  for (const auto& [name, value] : fixed_) text += name + "=" + value_of(name, value) + "\n";
  for (const auto& axis : sweep_) {
    text += "sweep " + axis.name;
    for (const auto& v : axis.values) text += "|" + value_of(axis.name, v);
    text += "\n";
  }
  for (const auto& c : cases_) {
    text += "case " + c.name;
    for (const auto& [name, value] : c.values) text += "|" + name + "=" + value_of(name, value);
    text += "\n";
  }
  for (const auto& [name, column] : extra_columns_) text += name + "=" + column.value + "\n";
  return fnv1a(text);
}

}  // namespace perflab
