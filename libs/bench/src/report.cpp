// Benchmark reports: the competition-style chart (time per query, log scale, against optimal
// path length), drawn as dots or, for many queries, as per-bucket medians with p10–p90 bands,
// and the summary / per-map tables. SVG and HTML are written by hand: no dependency, and the
// output is well-formed XML that the tests parse.
#include <pathlab/bench/report.hpp>

#include <pathlab/core/xml.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace pathlab::bench {

namespace {

// --- text ------------------------------------------------------------------------------------

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

/// Coordinates: one decimal is finer than a pixel.
std::string coord(double v) {
  return fixed(v, 1);
}

/// Microseconds with three or four significant digits.
std::string format_us(double v) {
  return fixed(v, v < 10 ? 2 : v < 1000 ? 1 : 0);
}

std::string format_count(double v) {
  return fixed(v, v < 1000 ? 1 : 0);
}

std::string format_memory(std::size_t bytes, bool estimated) {
  return (estimated ? "\xE2\x89\x88" : "") + format_bytes(bytes);  // U+2248 almost equal
}

/// Distinct colours (Tableau 10), then golden-angle hues.
std::string colour(std::size_t i) {
  static constexpr std::array<const char*, 10> kPalette{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                                        "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                                        "#9c755f", "#bab0ac"};
  if (i < kPalette.size()) return kPalette[i];
  return "hsl(" + std::to_string((i * 137) % 360) + ",60%,45%)";
}

double percentile_sorted(const std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  const std::size_t k = std::min(v.size() - 1, static_cast<std::size_t>(p * (v.size() - 1) + 0.5));
  return v[k];
}

// --- the chart -------------------------------------------------------------------------------

constexpr double kChartWidth = 960, kChartHeight = 540;
constexpr double kLeft = 72, kRight = 210, kTop = 44, kBottom = 70;
constexpr double kMinTime = 0.01;  // µs: the log axis needs a positive floor

/// A step of 1, 2 or 5 × 10^k that cuts `range` into about `target` parts.
double nice_step(double range, double target) {
  const double raw = range / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / mag;
  return (norm < 1.5 ? 1 : norm < 3.5 ? 2 : norm < 7.5 ? 5 : 10) * mag;
}

std::string decade_label(int k) {
  if (k >= 0 && k <= 6) return fixed(std::pow(10.0, k), 0);
  if (k < 0 && k >= -3) return fixed(std::pow(10.0, k), -k);
  return "1e" + std::to_string(k);
}

struct Scales {
  double x_hi = 1, x_step = 1;
  int y_lo = 0, y_hi = 1;  // decades of µs
  double pw = kChartWidth - kLeft - kRight, ph = kChartHeight - kTop - kBottom;

  [[nodiscard]] double x(double v) const { return kLeft + v / x_hi * pw; }
  [[nodiscard]] double y(double t) const {
    const double l = std::log10(std::max(t, kMinTime));
    return kTop + ph - (l - y_lo) / (y_hi - y_lo) * ph;
  }
};

Scales scales_for(const Report& report) {
  Scales s;
  double x_max = 0, t_min = 0, t_max = 0;
  bool any = false;
  for (const Row& r : report.rows) {
    for (const QuerySample& q : r.samples) {
      const double t = std::max(q.time_us, kMinTime);
      x_max = std::max(x_max, q.optimal);
      t_min = any ? std::min(t_min, t) : t;
      t_max = any ? std::max(t_max, t) : t;
      any = true;
    }
  }
  if (x_max <= 0) x_max = 1;
  s.x_step = nice_step(x_max, 8);
  s.x_hi = std::ceil(x_max / s.x_step) * s.x_step;
  if (any) {
    s.y_lo = static_cast<int>(std::floor(std::log10(t_min)));
    s.y_hi = static_cast<int>(std::ceil(std::log10(t_max)));
  }
  if (s.y_hi <= s.y_lo) s.y_hi = s.y_lo + 1;
  return s;
}

void axes(std::string& o, const Scales& s) {
  o += "<g class=\"axes\">\n";
  // Decade grid lines with labels, and faint lines at 2..9 within each decade.
  for (int k = s.y_lo; k <= s.y_hi; ++k) {
    const double y = s.y(std::pow(10.0, k));
    o += "<line class=\"grid\" x1=\"" + coord(kLeft) + "\" y1=\"" + coord(y) + "\" x2=\"" +
         coord(kLeft + s.pw) + "\" y2=\"" + coord(y) + "\"/>";
    o += "<text class=\"tick\" x=\"" + coord(kLeft - 6) + "\" y=\"" + coord(y + 4) +
         "\" text-anchor=\"end\">" + decade_label(k) + "</text>\n";
    for (int m = 2; m <= 9 && k < s.y_hi; ++m) {
      const double ym = s.y(m * std::pow(10.0, k));
      o += "<line class=\"minor\" x1=\"" + coord(kLeft) + "\" y1=\"" + coord(ym) + "\" x2=\"" +
           coord(kLeft + s.pw) + "\" y2=\"" + coord(ym) + "\"/>";
    }
    o += "\n";
  }
  for (double v = 0; v <= s.x_hi + s.x_step * 1e-9; v += s.x_step) {
    const double x = s.x(v);
    o += "<line class=\"grid\" x1=\"" + coord(x) + "\" y1=\"" + coord(kTop) + "\" x2=\"" +
         coord(x) + "\" y2=\"" + coord(kTop + s.ph) + "\"/>";
    o += "<text class=\"tick\" x=\"" + coord(x) + "\" y=\"" + coord(kTop + s.ph + 16) +
         "\" text-anchor=\"middle\">" + fixed(v, s.x_step < 1 ? 1 : 0) + "</text>\n";
  }
  o += "<rect class=\"frame\" x=\"" + coord(kLeft) + "\" y=\"" + coord(kTop) + "\" width=\"" +
       coord(s.pw) + "\" height=\"" + coord(s.ph) + "\"/>\n";
  o += "<text class=\"label\" x=\"" + coord(kLeft + s.pw / 2) + "\" y=\"" +
       coord(kTop + s.ph + 36) +
       "\" text-anchor=\"middle\">optimal path length (the scenario's)</text>\n";
  o += "<text class=\"label\" transform=\"translate(18," + coord(kTop + s.ph / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">time per query (\xC2\xB5s, log scale)</text>\n";
  o += "</g>\n";
}

/// One dot per query: zero-length subpaths with round caps, about 13 bytes a dot.
void dots(std::string& o, const Row& r, const Scales& s, const std::string& col) {
  o += "<path class=\"dots\" stroke=\"" + col + "\" d=\"";
  for (const QuerySample& q : r.samples) {
    o += "M" + coord(s.x(q.optimal)) + " " + coord(s.y(q.time_us)) + "h0";
  }
  o += "\"/>\n";
}

/// Per length bucket: the median time as a line with markers, p10–p90 as a band.
void bands(std::string& o, const Row& r, const Scales& s, const std::string& col, int buckets) {
  std::vector<std::vector<double>> by_bucket(static_cast<std::size_t>(buckets));
  for (const QuerySample& q : r.samples) {
    const int b = std::clamp(static_cast<int>(q.optimal / s.x_hi * buckets), 0, buckets - 1);
    by_bucket[static_cast<std::size_t>(b)].push_back(q.time_us);
  }
  struct Point {
    double x, p10, p50, p90;
  };
  std::vector<Point> pts;
  for (int b = 0; b < buckets; ++b) {
    auto& v = by_bucket[static_cast<std::size_t>(b)];
    if (v.empty()) continue;
    std::sort(v.begin(), v.end());
    const double x = s.x((b + 0.5) * s.x_hi / buckets);
    pts.push_back({x, s.y(percentile_sorted(v, 0.1)), s.y(percentile_sorted(v, 0.5)),
                   s.y(percentile_sorted(v, 0.9))});
  }
  if (pts.empty()) return;
  o += "<path class=\"band\" fill=\"" + col + "\" d=\"";
  for (std::size_t i = 0; i < pts.size(); ++i) {
    o += (i == 0 ? "M" : "L") + coord(pts[i].x) + " " + coord(pts[i].p90);
  }
  for (std::size_t i = pts.size(); i-- > 0;) o += "L" + coord(pts[i].x) + " " + coord(pts[i].p10);
  o += "Z\"/>\n<path class=\"median\" stroke=\"" + col + "\" d=\"";
  for (std::size_t i = 0; i < pts.size(); ++i) {
    o += (i == 0 ? "M" : "L") + coord(pts[i].x) + " " + coord(pts[i].p50);
  }
  o += "\"/>\n<path class=\"marks\" stroke=\"" + col + "\" d=\"";
  for (const Point& p : pts) o += "M" + coord(p.x) + " " + coord(p.p50) + "h0";
  o += "\"/>\n";
}

bool banded(const Report& report, const ReportOptions& options) {
  std::size_t n = 0;
  for (const Row& r : report.rows) n += r.samples.size();
  return n > options.max_points;
}

/// The chart's elements, in a kChartWidth × kChartHeight box at the origin.
void chart(std::string& o, const Report& report, const ReportOptions& options) {
  const Scales s = scales_for(report);
  const bool band = banded(report, options);
  const int buckets = std::max(1, options.buckets);
  o += "<text class=\"title\" x=\"" + coord(kLeft) +
       "\" y=\"26\">Time per query against path length</text>\n";
  axes(o, s);
  o += "<g class=\"plot\">\n";
  for (std::size_t i = 0; i < report.rows.size(); ++i) {
    const Row& r = report.rows[i];
    const std::string col = colour(i);
    o += "<g class=\"series\" data-algorithm=\"" + xml_escape(r.algorithm) + "\" data-queries=\"" +
         std::to_string(r.samples.size()) + "\" data-mode=\"" + (band ? "bands" : "dots") + "\">\n";
    if (band) {
      bands(o, r, s, col, buckets);
    } else {
      dots(o, r, s, col);
    }
    o += "</g>\n";
  }
  o += "</g>\n<g class=\"legend\">\n";
  const double lx = kLeft + s.pw + 18;
  for (std::size_t i = 0; i < report.rows.size(); ++i) {
    const Row& r = report.rows[i];
    const double ly = kTop + 8 + 40 * static_cast<double>(i);
    o += "<g class=\"legend-item\" data-algorithm=\"" + xml_escape(r.algorithm) + "\">";
    o += "<rect x=\"" + coord(lx) + "\" y=\"" + coord(ly) +
         "\" width=\"14\" height=\"14\" fill=\"" + colour(i) + "\"/>";
    o += "<text class=\"name\" x=\"" + coord(lx + 22) + "\" y=\"" + coord(ly + 12) + "\">" +
         xml_escape(r.algorithm) + "</text>";
    o += "<text class=\"small\" x=\"" + coord(lx + 22) + "\" y=\"" + coord(ly + 28) + "\">" +
         std::to_string(r.samples.size()) + " queries, mean " + format_us(r.mean_us) +
         " \xC2\xB5s</text></g>\n";
  }
  o += "</g>\n";
  const std::string how = band ? "Line: median per path-length bucket (" + std::to_string(buckets) +
                                     " buckets); band: 10th to 90th percentile."
                               : std::string("One dot per query.");
  o += "<text class=\"small\" x=\"" + coord(kLeft) + "\" y=\"" + coord(kChartHeight - 10) + "\">" +
       xml_escape(how) + " Search time only: map loading and preprocessing excluded.</text>\n";
}

const char* kSvgStyle =
    "text{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:12px;fill:#222}"
    ".title{font-size:16px;font-weight:600}.label{font-size:13px}.tick{fill:#555}"
    ".small{font-size:11px;fill:#555}.name{font-size:13px;font-weight:600}"
    ".grid{stroke:#d8d8d8;stroke-width:1}.minor{stroke:#f0f0f0;stroke-width:1}"
    ".frame{fill:none;stroke:#888}"
    ".dots{fill:none;stroke-width:3.2;stroke-linecap:round;stroke-opacity:.5}"
    ".band{stroke:none;fill-opacity:.18}.median{fill:none;stroke-width:2}"
    ".marks{fill:none;stroke-width:5;stroke-linecap:round}"
    ".cell{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:12px}"
    ".head{font-weight:600}.failed{fill:#b00020}";

std::string verdict(const Row& r) {
  if (r.passed()) return "passed";
  std::string s = "FAILED:";
  if (r.suboptimal) s += " " + std::to_string(r.suboptimal) + " suboptimal";
  if (r.illegal) s += " " + std::to_string(r.illegal) + " illegal";
  if (r.missed) s += " " + std::to_string(r.missed) + " missed";
  if (r.below_exact) s += " " + std::to_string(r.below_exact) + " below exact";
  return s;
}

struct Column {
  const char* key;
  const char* head;
  double x;
};

/// The summary table drawn in SVG text below the chart (the .svg variant).
void svg_table(std::string& o, const Report& report, double top) {
  static constexpr std::array<Column, 9> kColumns{{{"algorithm", "algorithm", 16},
                                                   {"queries", "queries", 150},
                                                   {"mean_us", "mean \xC2\xB5s", 225},
                                                   {"median_us", "median \xC2\xB5s", 310},
                                                   {"p99_us", "p99 \xC2\xB5s", 405},
                                                   {"mean_expanded", "expanded", 490},
                                                   {"memory", "memory", 590},
                                                   {"prep_s", "prep s", 690},
                                                   {"verdict", "verification", 765}}};
  o += "<g class=\"table\">\n<g class=\"head\">";
  for (const Column& c : kColumns) {
    o += "<text class=\"cell head\" x=\"" + coord(c.x) + "\" y=\"" + coord(top) + "\">" + c.head +
         "</text>";
  }
  o += "</g>\n";
  for (std::size_t i = 0; i < report.rows.size(); ++i) {
    const Row& r = report.rows[i];
    const double y = top + 20 * static_cast<double>(i + 1);
    const std::array<std::string, 9> cells{xml_escape(r.algorithm),
                                           std::to_string(r.queries),
                                           format_us(r.mean_us),
                                           format_us(r.median_us),
                                           format_us(r.p99_us),
                                           format_count(r.mean_expanded),
                                           format_memory(r.memory_bytes, r.memory_estimated),
                                           fixed(r.prep_s, 3),
                                           verdict(r)};
    o += "<g class=\"row\" data-algorithm=\"" + xml_escape(r.algorithm) +
         "\" data-memory-bytes=\"" + std::to_string(r.memory_bytes) + "\">";
    o += "<rect x=\"4\" y=\"" + coord(y - 12) + "\" width=\"8\" height=\"12\" fill=\"" + colour(i) +
         "\"/>";
    for (std::size_t k = 0; k < kColumns.size(); ++k) {
      const bool bad = kColumns[k].key == std::string_view("verdict") && !r.passed();
      o += "<text class=\"cell " + std::string(kColumns[k].key) + (bad ? " failed" : "") +
           "\" x=\"" + coord(kColumns[k].x) + "\" y=\"" + coord(y) + "\">" + cells[k] + "</text>";
    }
    o += "</g>\n";
  }
  o += "</g>\n";
}

// --- HTML tables -----------------------------------------------------------------------------

void td(std::string& o, const char* key, const std::string& text, const std::string& attrs = {}) {
  o += "<td class=\"";
  o += key;
  o += "\"" + attrs + ">" + text + "</td>";
}

/// The algorithm's cell: its colour in the chart, then its name.
void algorithm_td(std::string& o, std::size_t i, const std::string& algorithm) {
  td(o, "algorithm",
     "<span class=\"swatch\" style=\"background:" + colour(i) + "\"></span>" +
         xml_escape(algorithm));
}

void summary_table(std::string& o, const Report& report) {
  o += "<div class=\"scroll\"><table "
       "class=\"summary\">\n<thead><tr><th>algorithm</th><th>queries</th><th>solved</th>"
       "<th>subopt.</th><th>illegal</th><th>gave up</th><th>mean \xC2\xB5s</th>"
       "<th>median \xC2\xB5s</th><th>p99 \xC2\xB5s</th><th>expanded</th><th>Mexp/s</th>"
       "<th>memory</th><th>prep s</th><th>verified</th></tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < report.rows.size(); ++i) {
    const Row& r = report.rows[i];
    o += "<tr data-algorithm=\"" + xml_escape(r.algorithm) + "\"" +
         (r.passed() ? "" : " class=\"failed\"") + ">";
    algorithm_td(o, i, r.algorithm);
    td(o, "queries", std::to_string(r.queries));
    td(o, "solved", std::to_string(r.solved));
    td(o, "suboptimal", std::to_string(r.suboptimal));
    td(o, "illegal", std::to_string(r.illegal));
    td(o, "gave_up", std::to_string(r.gave_up));
    td(o, "mean_us", format_us(r.mean_us));
    td(o, "median_us", format_us(r.median_us));
    td(o, "p99_us", format_us(r.p99_us));
    td(o, "mean_expanded", format_count(r.mean_expanded));
    td(o, "expansions_per_s", fixed(r.expansions_per_s / 1e6, 2));
    td(o, "memory", format_memory(r.memory_bytes, r.memory_estimated),
       " data-bytes=\"" + std::to_string(r.memory_bytes) + "\"");
    td(o, "prep_s", fixed(r.prep_s, 3));
    td(o, "verdict", xml_escape(verdict(r)));
    o += "</tr>\n";
  }
  o += "</tbody></table></div>\n";
}

void map_tables(std::string& o, const Report& report) {
  if (report.rows.empty()) return;
  const std::size_t maps = report.rows.front().maps.size();
  for (std::size_t k = 0; k < maps; ++k) {
    const std::string name = xml_escape(report.rows.front().maps[k].map);
    o += "<section class=\"map\" data-map=\"" + name + "\"><h3>" + name + "</h3>\n";
    o += "<div class=\"scroll\"><table "
         "class=\"per-map\">\n<thead><tr><th>algorithm</th><th>queries</th><th>solved</th>"
         "<th>subopt.</th><th>mean \xC2\xB5s</th><th>median \xC2\xB5s</th><th>p99 \xC2\xB5s</th>"
         "<th>expanded</th><th>search state</th><th>prep data</th><th>prep s</th></tr>"
         "</thead>\n<tbody>\n";
    for (std::size_t i = 0; i < report.rows.size(); ++i) {
      const Row& r = report.rows[i];
      if (k >= r.maps.size()) continue;
      const MapRow& m = r.maps[k];
      o += "<tr data-algorithm=\"" + xml_escape(r.algorithm) + "\">";
      algorithm_td(o, i, r.algorithm);
      td(o, "queries", std::to_string(m.queries));
      td(o, "solved", std::to_string(m.solved));
      td(o, "suboptimal", std::to_string(m.suboptimal));
      td(o, "mean_us", format_us(m.mean_us));
      td(o, "median_us", format_us(m.median_us));
      td(o, "p99_us", format_us(m.p99_us));
      td(o, "mean_expanded", format_count(m.mean_expanded));
      td(o, "memory", format_memory(m.memory_bytes, r.memory_estimated),
         " data-bytes=\"" + std::to_string(m.memory_bytes) + "\"");
      td(o, "prep_bytes", m.prep_bytes ? format_bytes(m.prep_bytes) : std::string("-"),
         " data-bytes=\"" + std::to_string(m.prep_bytes) + "\"");
      td(o, "prep_s", fixed(m.prep_s, 3) + (m.prep_loaded ? " (loaded)" : ""));
      o += "</tr>\n";
    }
    o += "</tbody></table></div></section>\n";
  }
}

/// pathlab's speed-up over a peer on map k (peer µs / pathlab µs: > 1 means pathlab is faster),
/// with the pathlab row it is set against; NaN when either side has no verified figure.
struct PeerRatio {
  const Row* pathlab = nullptr;
  double ratio = std::nan("");
};

PeerRatio peer_ratio(const PeerRow& p, const Report& report, std::size_t k) {
  PeerRatio r;
  if (k >= p.maps.size() || !p.maps[k].ok() || p.maps[k].suboptimal > 0) return r;
  r.pathlab = counterpart(p.peer, report, k);
  if (r.pathlab != nullptr && r.pathlab->maps[k].mean_us > 0) {
    r.ratio = p.maps[k].mean_us / r.pathlab->maps[k].mean_us;
  }
  return r;
}

/// The geometric mean of a peer's ratios over the maps that have one.
double mean_ratio(const PeerRow& p, const Report& report) {
  double log_sum = 0;
  int n = 0;
  for (std::size_t k = 0; k < p.maps.size(); ++k) {
    const double r = peer_ratio(p, report, k).ratio;
    if (r == r && r > 0) {
      log_sum += std::log(r);
      ++n;
    }
  }
  return n ? std::exp(log_sum / n) : std::nan("");
}

std::string format_ratio(double r) {
  return r == r ? fixed(r, 2) : std::string("-");
}

/// Peers beside pathlab, one row per map and peer.
void peer_table(std::string& o, const Report& report, const std::vector<PeerRow>& peers) {
  o += "<div class=\"scroll\"><table class=\"peers\">\n<thead><tr><th>map</th><th>peer</th>"
       "<th>queries</th><th>subopt.</th><th>prep s</th><th>peer mean \xC2\xB5s</th>"
       "<th>pathlab</th><th>pathlab mean \xC2\xB5s</th><th>ratio</th></tr></thead>\n<tbody>\n";
  const std::size_t maps = peers.empty() ? 0 : peers.front().maps.size();
  for (std::size_t k = 0; k < maps; ++k) {
    for (const PeerRow& p : peers) {
      if (k >= p.maps.size()) continue;
      const PeerMapRow& m = p.maps[k];
      const PeerRatio r = peer_ratio(p, report, k);
      o += "<tr data-map=\"" + xml_escape(m.map) + "\" data-peer=\"" + xml_escape(p.peer.label) +
           "\"" + (m.ok() && m.suboptimal == 0 && m.below == 0 ? "" : " class=\"failed\"") + ">";
      o += "<td class=\"algorithm\">" + xml_escape(m.map) + "</td>";
      o += "<td class=\"algorithm\">" + xml_escape(p.peer.label) + "</td>";
      if (!m.ok()) {
        o += "<td class=\"verdict\" colspan=\"7\">" + xml_escape(m.error) + "</td></tr>\n";
        continue;
      }
      td(o, "queries", std::to_string(m.queries));
      std::string subopt = m.checked ? std::to_string(m.suboptimal) : std::string("unchecked");
      if (m.check != LengthCheck::scenario_optimum) {
        subopt +=
            m.check == LengthCheck::pathlab_exact ? " (vs anyangle-exact" : " (vs octile bound";
        subopt += m.below > 0 ? ", " + std::to_string(m.below) + " below)" : ")";
      }
      td(o, "suboptimal", subopt);
      td(o, "prep_s", p.peer.preprocessed ? fixed(m.prep_s, 2) : std::string("-"));
      td(o, "peer_us", format_us(m.mean_us));
      td(o, "pathlab", r.pathlab ? xml_escape(r.pathlab->algorithm) : std::string("-"));
      td(o, "pathlab_us", r.pathlab ? format_us(r.pathlab->maps[k].mean_us) : std::string("-"));
      td(o, "ratio", format_ratio(r.ratio));
      o += "</tr>\n";
    }
  }
  o += "</tbody></table></div>\n";
}

/// The peers in SVG text (the .svg variant): each peer's mean over the maps it ran and the
/// geometric mean of pathlab's per-map ratios against it.
void svg_peers(std::string& o, const Report& report, const std::vector<PeerRow>& peers,
               double top) {
  o += "<g class=\"peers\">\n<text class=\"cell head\" x=\"16\" y=\"" + coord(top) +
       "\">beside the peers (same run): peer mean \xC2\xB5s, and peer / pathlab (geometric mean "
       "over the maps; &gt; 1: pathlab is faster)</text>\n";
  for (std::size_t i = 0; i < peers.size(); ++i) {
    const PeerRow& p = peers[i];
    const double y = top + 20 * static_cast<double>(i + 1);
    o += "<g class=\"peer-row\" data-peer=\"" + xml_escape(p.peer.label) + "\">";
    o += "<text class=\"cell algorithm\" x=\"16\" y=\"" + coord(y) + "\">" +
         xml_escape(p.peer.label) + "</text>";
    o += "<text class=\"cell mean_us\" x=\"310\" y=\"" + coord(y) + "\">" +
         (p.queries ? format_us(p.mean_us) + " \xC2\xB5s" : std::string("no figures")) + "</text>";
    o += "<text class=\"cell ratio\" x=\"490\" y=\"" + coord(y) + "\">" +
         format_ratio(mean_ratio(p, report)) + "</text></g>\n";
  }
  o += "</g>\n";
}

const char* kHtmlStyle =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;margin:24px auto;"
    "max-width:1000px;padding:0 12px}h1{font-size:22px;margin:0 0 4px}"
    "h2{font-size:17px;margin:28px 0 8px}h3{font-size:14px;margin:18px 0 6px}"
    ".notes{color:#555;font-size:13px;margin:0 0 12px}.notes p{margin:2px 0}"
    "svg{max-width:100%;height:auto;display:block}"
    ".scroll{overflow-x:auto}table{border-collapse:collapse;font-size:13px;width:100%}"
    "th,td{padding:3px 6px;border-bottom:1px solid #e4e4e4;text-align:right;white-space:nowrap}"
    "th{background:#f5f5f5;font-weight:600}th:first-child,td.algorithm{text-align:left}"
    "td.verdict{text-align:left}tr.failed td{background:#fdecee}tr.failed td.verdict{color:#b00020}"
    ".swatch{display:inline-block;width:10px;height:10px;margin-right:6px;border-radius:2px}"
    ".explain{color:#555;font-size:12px}";

}  // namespace

std::optional<ReportFormat> report_format(std::string_view path) noexcept {
  const std::size_t dot = path.rfind('.');
  const std::size_t slash = path.find_last_of("/\\");
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) {
    return std::nullopt;
  }
  std::string ext;
  for (const char c : path.substr(dot + 1)) {
    ext += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (ext == "html" || ext == "htm") return ReportFormat::html;
  if (ext == "svg") return ReportFormat::svg;
  return std::nullopt;
}

std::string format_bytes(std::size_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  static constexpr std::array<const char*, 4> kUnits{"KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes) / 1024;
  std::size_t u = 0;
  while (v >= 1024 && u + 1 < kUnits.size()) {
    v /= 1024;
    ++u;
  }
  return fixed(v, v < 10 ? 2 : v < 100 ? 1 : 0) + " " + kUnits[u];
}

std::string report_svg(const Report& report, const ReportOptions& options) {
  const double table_top = kChartHeight + 24;
  const double peers_top = table_top + 20 * static_cast<double>(report.rows.size()) + 30;
  const double height =
      peers_top +
      (options.peers.empty() ? 10 : 20 * static_cast<double>(options.peers.size() + 1)) + 20;
  std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"pathlab-report\" width=\"" +
       coord(kChartWidth) + "\" height=\"" + coord(height) + "\" viewBox=\"0 0 " +
       coord(kChartWidth) + " " + coord(height) + "\">\n";
  o += "<title>" + xml_escape(options.title) + "</title>\n<style>" + kSvgStyle + "</style>\n";
  o += "<rect x=\"0\" y=\"0\" width=\"" + coord(kChartWidth) + "\" height=\"" + coord(height) +
       "\" fill=\"#fff\"/>\n";
  chart(o, report, options);
  svg_table(o, report, table_top);
  if (!options.peers.empty()) svg_peers(o, report, options.peers, peers_top);
  std::string notes;
  for (const auto& n : options.notes) notes += (notes.empty() ? "" : "; ") + n;
  if (!report.rows.empty() && report.rows.front().memory_estimated) {
    notes += std::string(notes.empty() ? "" : "; ") + "\xE2\x89\x88 memory estimated";
  }
  o += "<text class=\"small\" x=\"16\" y=\"" + coord(height - 12) + "\">" + xml_escape(notes) +
       "</text>\n</svg>\n";
  return o;
}

std::string report_html(const Report& report, const ReportOptions& options) {
  std::string o = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n";
  o += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n";
  o += "<title>" + xml_escape(options.title) + "</title>\n<style>" + kHtmlStyle + "\n" + kSvgStyle +
       "</style>\n</head>\n<body>\n";
  o += "<h1>" + xml_escape(options.title) + "</h1>\n<div class=\"notes\">";
  for (const auto& n : options.notes) o += "<p>" + xml_escape(n) + "</p>";
  o += "</div>\n";
  o += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"" + coord(kChartWidth) +
       "\" height=\"" + coord(kChartHeight) + "\" viewBox=\"0 0 " + coord(kChartWidth) + " " +
       coord(kChartHeight) + "\">\n";
  chart(o, report, options);
  o += "</svg>\n<h2>Summary</h2>\n";
  summary_table(o, report);
  o += "<p class=\"explain\">Times are search time per query (map loading and preprocessing "
       "excluded); p99 is the 99th percentile. Memory: the search state of one finder (one "
       "thread) on the largest map, plus the algorithm's preprocessed data for it";
  if (!report.rows.empty() && report.rows.front().memory_estimated) {
    o += "; \xE2\x89\x88 marks an estimate from the map size (a node record per cell and the "
         "open list at its peak), as the library does not report it";
  }
  o += ". prep s: preprocessing, total seconds over the maps.</p>\n";
  if (!options.peers.empty()) {
    o += "<h2>Beside the peers</h2>\n";
    peer_table(o, report, options.peers);
    o += "<p class=\"explain\">The research implementations of docs/PEERS.md, run in the same "
         "session on the same scenario files (the same queries). ratio = the peer's mean "
         "\xC2\xB5s / pathlab's: above 1 pathlab is faster. A peer is set against pathlab's "
         "algorithm of the same family; a preprocessed peer against the fastest verified "
         "preprocessed pathlab algorithm measured. Peer lengths are checked against the "
         "scenario's optima where the peer prints them; the any-angle entries' lengths, "
         "between cell corners, against pathlab's anyangle-exact between the same corners "
         "when it ran with --endpoints corner (1e-6 relative; below it is a problem too), "
         "else only against the octile optimum as an upper bound. prep s is the wall time "
         "of its preprocessing step, index writing included.</p>\n";
  }
  o += "<h2>Per map</h2>\n";
  map_tables(o, report);
  o += "</body>\n</html>\n";
  return o;
}

std::string render_report(const Report& report, ReportFormat format, const ReportOptions& options) {
  return format == ReportFormat::svg ? report_svg(report, options) : report_html(report, options);
}

}  // namespace pathlab::bench
