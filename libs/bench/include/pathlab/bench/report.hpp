// Benchmark reports in the manner of the Grid-Based Path Planning Competition's plots: time per
// query (log scale) against the scenario's optimal path length, one colour per algorithm, and
// tables of mean / median / p99 µs, expansions, memory and preprocessing time, overall and per
// map. Self-contained files: a standalone SVG, or one HTML page with the SVG and CSS inline.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pathlab/bench/bench.hpp>
#include <pathlab/bench/peers.hpp>

namespace pathlab::bench {

/// The file a report is written as (render_report()).
enum class ReportFormat : std::uint8_t {
  html,  ///< one HTML page with the SVG chart and the tables, CSS inline
  svg    ///< a standalone SVG of the chart
};

/// From a file name's extension (.html, .htm, .svg; any case); nullopt for anything else.
[[nodiscard]] std::optional<ReportFormat> report_format(std::string_view path) noexcept;

/// What a report shows besides the rows.
struct ReportOptions {
  std::string title = "pathlab bench";  ///< the page's and the chart's title
  std::vector<std::string> notes;       ///< lines under the title (command, threads, machine…)
  /// Up to this many queries over all algorithms are drawn one dot each; above it every series
  /// becomes a per-length-bucket median line with a p10–p90 band, so the file stays small
  /// (≈ 13 bytes a dot; the banded chart does not grow with the number of queries).
  std::size_t max_points = 10000;
  int buckets = 40;  ///< length buckets of the banded chart [Limit: >= 1]
  /// Peers measured in the same run (run_peers): a table sets each beside its pathlab
  /// counterpart (counterpart()), map by map, with the ratio (> 1: pathlab is faster).
  std::vector<PeerRow> peers;
};

/// The standalone SVG: the chart and, below it, a compact summary table in SVG text.
[[nodiscard]] std::string report_svg(const Report& report, const ReportOptions& options = {});

/// The HTML page: title and notes, the chart (inline SVG), the summary table and one table per
/// map. Inline CSS, no script, no external resource; well-formed XML (XHTML syntax).
[[nodiscard]] std::string report_html(const Report& report, const ReportOptions& options = {});

/// The report in the given format.
[[nodiscard]] std::string render_report(const Report& report, ReportFormat format,
                                        const ReportOptions& options = {});

/// "512 B", "3.4 KiB", "12.0 MiB", "1.50 GiB".
[[nodiscard]] std::string format_bytes(std::size_t bytes);

}  // namespace pathlab::bench
