// Benchmark results as JSON: the rows of `pathlab bench --json` (shared docs/DESIGN.md, "JSON
// fields (fixed)"): one row per algorithm over every scenario given, with its maps, and the
// research peers measured beside them.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include <pathlab/bench/bench.hpp>
#include <pathlab/bench/peers.hpp>

namespace pathlab::json {

/// {"vs_octile","exact_queries"} plus "vs_exact" when exact references were computed.
[[nodiscard]] nlohmann::json bench_lengths(const bench::Lengths& l);
/// One algorithm's row with its "maps"; `smooth` adds the smoothed lengths and times, `churn`
/// the edit times (bench --smooth, --churn).
[[nodiscard]] nlohmann::json bench_row(const bench::Row& r, bool smooth, bool churn);
/// [{"peer","executable","preprocessed","queries","mean_us","maps":[…]}…]: each peer's maps
/// with its figures (or "error") and, where one verified, pathlab's row set against it
/// ("pathlab", "pathlab_us", "ratio": bench::versus).
[[nodiscard]] nlohmann::json bench_peers(const bench::Report& report,
                                         const std::vector<bench::PeerRow>& peers);

}  // namespace pathlab::json
