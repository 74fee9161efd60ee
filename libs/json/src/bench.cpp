// Benchmark results as JSON (see bench.hpp).
#include <pathlab/json/bench.hpp>

namespace pathlab::json {

nlohmann::json bench_lengths(const bench::Lengths& l) {
  nlohmann::json j{{"vs_octile", l.vs_octile}, {"exact_queries", l.exact_queries}};
  if (l.exact_queries > 0) j["vs_exact"] = l.vs_exact;
  return j;
}

nlohmann::json bench_row(const bench::Row& r, bool smooth, bool churn) {
  nlohmann::json maps = nlohmann::json::array();
  for (const auto& m : r.maps) {
    nlohmann::json mj{{"map", m.map},
                      {"queries", m.queries},
                      {"solved", m.solved},
                      {"suboptimal", m.suboptimal},
                      {"mean_us", m.mean_us},
                      {"mean_expanded", m.mean_expanded},
                      {"median_us", m.median_us},
                      {"p99_us", m.p99_us},
                      {"memory_bytes", m.memory_bytes},
                      {"prep_bytes", m.prep_bytes}};
    if (m.edits > 0) {
      mj["edit_us"] = m.edit_us;
      mj["edits"] = m.edits;
    }
    if (m.dynamic) {
      mj["patches"] = m.patches;
      mj["patch_us"] = m.patch_us;
      mj["total_s"] = m.total_s;
      mj["late_us"] = m.late_us;
    }
    if (r.any_angle || !r.optimal) mj["length"] = bench_lengths(m.length);
    if (r.any_angle) mj["los_checks_per_query"] = m.mean_los_checks;
    if (smooth) mj["smoothed_length"] = bench_lengths(m.smoothed_length);
    maps.push_back(std::move(mj));
  }
  nlohmann::json j{{"algorithm", r.algorithm},
                   {"queries", r.queries},
                   {"solved", r.solved},
                   {"suboptimal", r.suboptimal},
                   {"illegal", r.illegal},
                   {"gave_up", r.gave_up},
                   {"missed", r.missed},
                   {"max_error", r.max_error},
                   {"mean_us", r.mean_us},
                   {"median_us", r.median_us},
                   {"p99_us", r.p99_us},
                   {"mean_expanded", r.mean_expanded},
                   {"expansions_per_s", r.expansions_per_s},
                   {"prep_s", r.prep_s},
                   {"memory_bytes", r.memory_bytes},
                   {"memory_estimated", r.memory_estimated},
                   {"optimal", r.optimal},
                   {"maps", maps}};
  if (!r.optimal) j["mean_ratio"] = r.mean_ratio;
  if (churn) {
    j["edit_us"] = r.edit_us;
    j["edits"] = r.edits;
  }
  if (r.dynamic) {
    j["patches"] = r.patches;
    j["patch_us"] = r.patch_us;
    j["total_s"] = r.total_s;
  }
  if (r.any_angle) {
    j["any_angle"] = true;
    j["below_exact"] = r.below_exact;
    j["los_checks_per_query"] = r.mean_los_checks;
    j["length"] = bench_lengths(r.length);
  }
  if (smooth) {
    j["smoothed_length"] = bench_lengths(r.smoothed_length);
    j["smooth_us"] = r.mean_smooth_us;
    j["smooth_los_checks"] = r.mean_smooth_los;
  }
  return j;
}

nlohmann::json bench_peers(const bench::Report& report, const std::vector<bench::PeerRow>& peers) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : peers) {
    nlohmann::json maps = nlohmann::json::array();
    for (std::size_t k = 0; k < p.maps.size(); ++k) {
      const auto& m = p.maps[k];
      nlohmann::json mj{{"map", m.map}};
      if (!m.ok()) {
        mj["error"] = m.error;
      } else {
        mj.update({{"queries", m.queries},
                   {"checked", m.checked},
                   {"suboptimal", m.suboptimal},
                   {"below", m.below},
                   {"length_check", std::string(bench::to_string(m.check))},
                   {"mean_us", m.mean_us},
                   {"prep_s", m.prep_s}});
        const auto [row, ratio] = bench::versus(p, report, k);
        if (row != nullptr) {
          mj["pathlab"] = row->algorithm;
          mj["pathlab_us"] = row->maps[k].mean_us;
          mj["ratio"] = ratio;
        }
      }
      maps.push_back(std::move(mj));
    }
    out.push_back({{"peer", p.peer.label},
                   {"executable", p.peer.executable},
                   {"preprocessed", p.peer.preprocessed},
                   {"any_angle", p.peer.any_angle},
                   {"queries", p.queries},
                   {"mean_us", p.mean_us},
                   {"maps", maps}});
  }
  return out;
}

}  // namespace pathlab::json
