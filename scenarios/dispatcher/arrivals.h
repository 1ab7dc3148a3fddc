// The incident's calls as the application makes them: open-loop Poisson arrivals to hosts picked by their
// popularity, and the streams (sim/study/seeding.h) they and the calls' server times draw from, for the
// incident's one driver (incident_driver.cpp): both engines draw the same arrivals.
#pragma once

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include "sim/sampling/rng.h"

namespace perflab::dispatcher_study {

constexpr std::string_view kArrivalStream = "dispatcher.arrivals";
constexpr std::string_view kHostChoiceStream = "dispatcher.host_choice";
constexpr std::string_view kServerTimeStream = "dispatcher.server_time";

// Which host each call goes to: uniform, or Zipf with exponent s (host i chosen ∝ 1 / i^s).
class HostPicker {
 public:
  HostPicker(int hosts, double zipf_s) : cumulative_(static_cast<size_t>(hosts)) {
    double total = 0;
    for (int i = 0; i < hosts; ++i) {
      total += zipf_s == 0 ? 1.0 : 1.0 / std::pow(i + 1, zipf_s);
      cumulative_[static_cast<size_t>(i)] = total;
    }
    for (auto& c : cumulative_) c /= total;
  }
  int pick(Rng& rng) const {
    double u = rng.uniform01();
    auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), u);
    return static_cast<int>(
        std::min<size_t>(static_cast<size_t>(it - cumulative_.begin()), cumulative_.size() - 1));
  }

 private:
  std::vector<double> cumulative_;
};

// One arrival after another: the gap since the previous one (exponential at `rate` per second) and its host.
class PoissonArrivals {
 public:
  struct Arrival {
    double gap_s;
    int host;
  };

  PoissonArrivals(double rate, int hosts, double zipf_s, Rng arrival_rng, Rng host_rng)
      : rate_(rate), picker_(hosts, zipf_s), arrival_rng_(arrival_rng), host_rng_(host_rng) {}

  Arrival next() {
    double gap = -std::log(1 - arrival_rng_.uniform01()) / rate_;
    return {gap, picker_.pick(host_rng_)};
  }

 private:
  double rate_;
  HostPicker picker_;
  Rng arrival_rng_;
  Rng host_rng_;
};

}  // namespace perflab::dispatcher_study
