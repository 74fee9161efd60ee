// Benchmark reports: per-query samples and per-map statistics recorded by bench::run, and the
// HTML / SVG reports: well-formed XML (checked by a small parser here), one series per
// algorithm, tables whose numbers are the rows' aggregates, a small file for many queries.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <pathlab/bench/bench.hpp>
#include <pathlab/bench/report.hpp>

using namespace pathlab;
namespace fs = std::filesystem;

namespace {

// --- a minimal XML well-formedness check -------------------------------------------------------

struct Element {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::size_t begin = 0, end = 0;  ///< content: s[begin, end)
};

struct Xml {
  std::string error;  ///< empty when well-formed
  std::vector<Element> elements;
};

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' ||
         c == '.';
}

/// Tags balance, attributes are quoted and unique, '<' and '&' only start markup and entities,
/// one root element. Prolog: <?...?>, <!DOCTYPE ...>, comments.
Xml parse_xml(const std::string& s) {
  Xml x;
  std::vector<std::size_t> open;
  std::size_t roots = 0, i = 0;
  auto fail = [&](const std::string& what) {
    x.error = what + " at offset " + std::to_string(i);
    return x;
  };
  while (i < s.size()) {
    if (s[i] == '&') {
      const std::size_t semi = s.find(';', i);
      if (semi == std::string::npos || semi - i > 10) return fail("bad entity");
      const std::string ent = s.substr(i + 1, semi - i - 1);
      if (ent != "amp" && ent != "lt" && ent != "gt" && ent != "quot" && ent != "apos" &&
          ent.rfind('#', 0) != 0) {
        return fail("unknown entity &" + ent + ";");
      }
      i = semi + 1;
      continue;
    }
    if (s[i] != '<') {
      ++i;
      continue;
    }
    if (s.compare(i, 4, "<!--") == 0) {
      const std::size_t e = s.find("-->", i);
      if (e == std::string::npos) return fail("unclosed comment");
      i = e + 3;
    } else if (s.compare(i, 2, "<?") == 0 || s.compare(i, 2, "<!") == 0) {
      const std::size_t e = s.find('>', i);
      if (e == std::string::npos) return fail("unclosed declaration");
      i = e + 1;
    } else if (s.compare(i, 2, "</") == 0) {
      std::size_t j = i + 2;
      while (j < s.size() && name_char(s[j])) ++j;
      const std::string name = s.substr(i + 2, j - i - 2);
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      if (j >= s.size() || s[j] != '>') return fail("bad end tag");
      if (open.empty() || x.elements[open.back()].name != name) {
        return fail("end tag </" + name + "> does not match");
      }
      x.elements[open.back()].end = i;
      open.pop_back();
      i = j + 1;
    } else {
      Element el;
      std::size_t j = i + 1;
      while (j < s.size() && name_char(s[j])) ++j;
      el.name = s.substr(i + 1, j - i - 1);
      if (el.name.empty()) return fail("empty tag name");
      bool self_closing = false;
      for (;;) {
        while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
        if (j >= s.size()) return fail("unclosed tag");
        if (s[j] == '>') break;
        if (s.compare(j, 2, "/>") == 0) {
          self_closing = true;
          ++j;
          break;
        }
        const std::size_t a = j;
        while (j < s.size() && name_char(s[j])) ++j;
        const std::string attr = s.substr(a, j - a);
        if (attr.empty() || j + 1 >= s.size() || s[j] != '=' ||
            (s[j + 1] != '"' && s[j + 1] != '\'')) {
          return fail("bad attribute in <" + el.name + ">");
        }
        const char quote = s[j + 1];
        const std::size_t e = s.find(quote, j + 2);
        if (e == std::string::npos) return fail("unclosed attribute value");
        const std::string value = s.substr(j + 2, e - j - 2);
        if (value.find('<') != std::string::npos) return fail("'<' in an attribute value");
        if (!el.attrs.emplace(attr, value).second) return fail("duplicate attribute " + attr);
        j = e + 1;
      }
      if (open.empty()) ++roots;
      el.begin = el.end = j + 1;
      x.elements.push_back(el);
      if (!self_closing) open.push_back(x.elements.size() - 1);
      i = j + 1;
    }
  }
  if (!open.empty()) return fail("unclosed <" + x.elements[open.back()].name + ">");
  if (roots != 1) return fail(std::to_string(roots) + " root elements");
  return x;
}

bool has_class(const Element& e, const std::string& cls) {
  const auto it = e.attrs.find("class");
  if (it == e.attrs.end()) return false;
  const std::string c = " " + it->second + " ";
  return c.find(" " + cls + " ") != std::string::npos;
}

std::string attr(const Element& e, const std::string& name) {
  const auto it = e.attrs.find(name);
  return it == e.attrs.end() ? std::string() : it->second;
}

/// Elements with this class (and data-algorithm when given).
std::vector<const Element*> with_class(const Xml& x, const std::string& cls,
                                       const std::string& algorithm = {}) {
  std::vector<const Element*> out;
  for (const auto& e : x.elements) {
    if (has_class(e, cls) && (algorithm.empty() || attr(e, "data-algorithm") == algorithm)) {
      out.push_back(&e);
    }
  }
  return out;
}

/// The text of the first element inside `outer` that has class `cls`.
std::string cell(const std::string& s, const Xml& x, const Element& outer, const std::string& cls) {
  for (const auto& e : x.elements) {
    if (e.begin > outer.begin && e.end <= outer.end && has_class(e, cls)) {
      return s.substr(e.begin, e.end - e.begin);
    }
  }
  return "<missing " + cls + ">";
}

/// A table cell's number equals the aggregate to the precision printed.
void expect_shown(const std::string& text, double value, const std::string& what) {
  char* end = nullptr;
  const double shown = std::strtod(text.c_str(), &end);
  ASSERT_NE(end, text.c_str()) << what << ": not a number: " << text;
  EXPECT_NEAR(shown, value, 0.005 + 5e-3 * std::abs(value)) << what << ": " << text;
}

// --- fixtures ----------------------------------------------------------------------------------

class ReportFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("pathlab_report_test_" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    // Two maps (the second with a name to escape), a few queries each.
    write("tiny.map", "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@@.\n.....\n.....\n");
    write("a&b.map", "type octile\nheight 3\nwidth 6\nmap\n......\n.@@@@.\n......\n");
    scens_.push_back(write("tiny.map.scen",
                           "version 1\n0\ttiny.map\t5\t4\t0\t0\t4\t0\t4\n"
                           "0\ttiny.map\t5\t4\t0\t2\t4\t0\t6\n0\ttiny.map\t5\t4\t0\t3\t4\t3\t4\n"
                           "0\ttiny.map\t5\t4\t0\t0\t0\t0\t0\n"));
    scens_.push_back(write("ab.scen",
                           "version 1\n0\ta&b.map\t6\t3\t0\t0\t5\t2\t7\n"
                           "0\ta&b.map\t6\t3\t0\t2\t5\t2\t5\n"));
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  bench::Report run(const std::vector<search::Algorithm>& algos) {
    std::vector<bench::LoadedScenario> sc;
    for (const auto& p : scens_) sc.push_back(bench::load_scenario(p, 0));
    bench::BenchOptions o;
    o.algorithms = algos;
    return bench::run(sc, o);
  }
  fs::path dir_;
  std::vector<std::string> scens_;
};

const std::vector<search::Algorithm> kAlgos{search::Algorithm::astar, search::Algorithm::dijkstra,
                                            search::Algorithm::bfs};

TEST_F(ReportFixture, RunKeepsEveryQueryAndPerMapStatistics) {
  const bench::Report r = run(kAlgos);
  ASSERT_EQ(r.rows.size(), 3u);
  for (const auto& row : r.rows) {
    ASSERT_EQ(row.samples.size(), row.queries);
    ASSERT_EQ(row.maps.size(), 2u);
    EXPECT_EQ(row.maps[1].map, "a&b.map");
    double sum = 0;
    std::vector<std::size_t> per_map(2);
    for (const auto& q : row.samples) {
      sum += q.time_us;
      ASSERT_LT(q.map, 2u);
      ++per_map[q.map];
      EXPECT_EQ(q.status, Status::found);
    }
    EXPECT_NEAR(sum / static_cast<double>(row.queries), row.mean_us, 1e-9);
    EXPECT_EQ(per_map[0], 4u);
    EXPECT_EQ(per_map[1], 2u);
    // Scenario order: the x axis is the scenario's optimum.
    EXPECT_DOUBLE_EQ(row.samples[1].optimal, 6.0);
    EXPECT_DOUBLE_EQ(row.samples[4].optimal, 7.0);
    for (const auto& m : row.maps) {
      EXPECT_GT(m.memory_bytes, 0u);
      EXPECT_LE(m.median_us, m.p99_us);
    }
    EXPECT_GE(row.memory_bytes, row.maps[0].memory_bytes);
  }
}

TEST_F(ReportFixture, PreprocessedAlgorithmsReportTheirData) {
  const auto jps_plus = search::parse_algorithm("jps+");
  if (!jps_plus) GTEST_SKIP() << "no jps+ in this build";
  const bench::Report r = run({*jps_plus});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_TRUE(r.passed());
  for (const auto& m : r.rows[0].maps) {
    EXPECT_GT(m.prep_bytes, 0u) << m.map;
    EXPECT_GE(r.rows[0].memory_bytes, m.memory_bytes + m.prep_bytes);
  }
}

TEST(ReportFormat, FollowsTheExtension) {
  EXPECT_EQ(bench::report_format("out.html"), bench::ReportFormat::html);
  EXPECT_EQ(bench::report_format("dir/OUT.HTM"), bench::ReportFormat::html);
  EXPECT_EQ(bench::report_format("/tmp/r.svg"), bench::ReportFormat::svg);
  EXPECT_FALSE(bench::report_format("out.png"));
  EXPECT_FALSE(bench::report_format("out"));
  EXPECT_FALSE(bench::report_format("x.svg/out"));
  EXPECT_EQ(bench::format_bytes(512), "512 B");
  EXPECT_EQ(bench::format_bytes(3 * 1024 + 512), "3.50 KiB");
  EXPECT_EQ(bench::format_bytes(std::size_t{12} << 20), "12.0 MiB");
}

TEST_F(ReportFixture, HtmlIsWellFormedWithOneSeriesPerAlgorithmAndTheRowsNumbers) {
  const bench::Report r = run(kAlgos);
  bench::ReportOptions ro;
  ro.notes = {"a note with <markup> & ampersands"};
  const std::string html = bench::report_html(r, ro);
  const Xml x = parse_xml(html);
  ASSERT_EQ(x.error, "") << html.substr(0, 2000);
  // Self-contained: nothing fetched, nothing run.
  for (const char* outside : {"<script", "src=", "href=", "@import", "url("}) {
    EXPECT_EQ(html.find(outside), std::string::npos) << outside;
  }
  EXPECT_EQ(with_class(x, "series").size(), r.rows.size());
  for (const auto& row : r.rows) {
    const auto series = with_class(x, "series", row.algorithm);
    ASSERT_EQ(series.size(), 1u) << row.algorithm;
    EXPECT_EQ(attr(*series[0], "data-mode"), "dots");
    EXPECT_EQ(attr(*series[0], "data-queries"), std::to_string(row.queries));
    EXPECT_EQ(with_class(x, "legend-item", row.algorithm).size(), 1u);

    // The summary row.
    const Element* tr = nullptr;
    for (const auto& e : x.elements) {
      if (e.name == "tr" && attr(e, "data-algorithm") == row.algorithm) {
        tr = &e;
        break;  // the first one is the summary table's
      }
    }
    ASSERT_NE(tr, nullptr) << row.algorithm;
    EXPECT_EQ(cell(html, x, *tr, "queries"), std::to_string(row.queries));
    EXPECT_EQ(cell(html, x, *tr, "solved"), std::to_string(row.solved));
    EXPECT_EQ(cell(html, x, *tr, "suboptimal"), std::to_string(row.suboptimal));
    expect_shown(cell(html, x, *tr, "mean_us"), row.mean_us, "mean_us");
    expect_shown(cell(html, x, *tr, "median_us"), row.median_us, "median_us");
    expect_shown(cell(html, x, *tr, "p99_us"), row.p99_us, "p99_us");
    expect_shown(cell(html, x, *tr, "mean_expanded"), row.mean_expanded, "mean_expanded");
    expect_shown(cell(html, x, *tr, "prep_s"), row.prep_s, "prep_s");
    EXPECT_EQ(cell(html, x, *tr, "verdict"), "passed");
    for (const auto& e : x.elements) {
      if (e.begin > tr->begin && e.end <= tr->end && has_class(e, "memory")) {
        EXPECT_EQ(attr(e, "data-bytes"), std::to_string(row.memory_bytes));
      }
    }
  }
  // One table per map, each with a row per algorithm and the map's numbers.
  const auto sections = with_class(x, "map");
  ASSERT_EQ(sections.size(), 2u);
  EXPECT_EQ(attr(*sections[1], "data-map"), "a&amp;b.map");
  for (std::size_t k = 0; k < sections.size(); ++k) {
    std::size_t rows_seen = 0;
    for (const auto& e : x.elements) {
      if (e.name != "tr" || e.begin < sections[k]->begin || e.end > sections[k]->end) continue;
      const std::string algo = attr(e, "data-algorithm");
      if (algo.empty()) continue;
      const bench::Row* row = nullptr;
      for (const auto& rr : r.rows) row = rr.algorithm == algo ? &rr : row;
      ASSERT_NE(row, nullptr);
      const bench::MapRow& m = row->maps[k];
      ++rows_seen;
      EXPECT_EQ(cell(html, x, e, "queries"), std::to_string(m.queries));
      expect_shown(cell(html, x, e, "mean_us"), m.mean_us, "map mean_us");
      expect_shown(cell(html, x, e, "median_us"), m.median_us, "map median_us");
      expect_shown(cell(html, x, e, "p99_us"), m.p99_us, "map p99_us");
      expect_shown(cell(html, x, e, "mean_expanded"), m.mean_expanded, "map mean_expanded");
    }
    EXPECT_EQ(rows_seen, r.rows.size());
  }
}

TEST_F(ReportFixture, SvgIsTheChartAndACompactTable) {
  const bench::Report r = run(kAlgos);
  const std::string svg = bench::report_svg(r);
  const Xml x = parse_xml(svg);
  ASSERT_EQ(x.error, "") << svg.substr(0, 2000);
  ASSERT_FALSE(x.elements.empty());
  EXPECT_EQ(x.elements.front().name, "svg");
  EXPECT_EQ(attr(x.elements.front(), "xmlns"), "http://www.w3.org/2000/svg");
  EXPECT_EQ(with_class(x, "series").size(), r.rows.size());
  const auto rows = with_class(x, "row");
  ASSERT_EQ(rows.size(), r.rows.size());
  for (const auto& row : r.rows) {
    const auto tr = with_class(x, "row", row.algorithm);
    ASSERT_EQ(tr.size(), 1u);
    EXPECT_EQ(cell(svg, x, *tr[0], "algorithm"), row.algorithm);
    expect_shown(cell(svg, x, *tr[0], "mean_us"), row.mean_us, "mean_us");
    expect_shown(cell(svg, x, *tr[0], "median_us"), row.median_us, "median_us");
    expect_shown(cell(svg, x, *tr[0], "p99_us"), row.p99_us, "p99_us");
    expect_shown(cell(svg, x, *tr[0], "mean_expanded"), row.mean_expanded, "mean_expanded");
    EXPECT_EQ(attr(*tr[0], "data-memory-bytes"), std::to_string(row.memory_bytes));
  }
}

/// Peers measured in the same run: a row per map and peer, set against the pathlab row of the
/// same family (or the fastest preprocessed one), the ratio computed from the two means; a peer
/// that failed on a map shows why.
TEST_F(ReportFixture, PeersStandBesideTheirPathlabCounterparts) {
  const bench::Report r = run(kAlgos);
  bench::ReportOptions ro;
  bench::PeerRow astar{bench::known_peers().front(), {}, 0, 0};
  ASSERT_EQ(astar.peer.counterpart, search::Algorithm::astar);
  bench::PeerMapRow m0;
  m0.map = "tiny.map";
  m0.queries = 4;
  m0.mean_us = 3 * r.rows[0].maps[0].mean_us;
  bench::PeerMapRow m1;
  m1.map = "a&b.map";
  m1.error = "timed out after 600 s";
  astar.maps = {m0, m1};
  ro.peers = {astar};
  const std::string html = bench::report_html(r, ro);
  const Xml x = parse_xml(html);
  ASSERT_EQ(x.error, "") << html.substr(0, 2000);
  std::vector<const Element*> rows;
  for (const auto& e : x.elements) {
    if (e.name == "tr" && !attr(e, "data-peer").empty()) rows.push_back(&e);
  }
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(attr(*rows[0], "data-map"), "tiny.map");
  EXPECT_EQ(cell(html, x, *rows[0], "pathlab"), "astar");
  expect_shown(cell(html, x, *rows[0], "peer_us"), m0.mean_us, "peer mean");
  expect_shown(cell(html, x, *rows[0], "pathlab_us"), r.rows[0].maps[0].mean_us, "pathlab");
  expect_shown(cell(html, x, *rows[0], "ratio"), 3.0, "ratio");
  EXPECT_EQ(attr(*rows[1], "data-map"), "a&amp;b.map");
  EXPECT_EQ(attr(*rows[1], "class"), "failed");
  EXPECT_EQ(cell(html, x, *rows[1], "verdict"), "timed out after 600 s");

  const std::string svg = bench::report_svg(r, ro);
  const Xml sx = parse_xml(svg);
  ASSERT_EQ(sx.error, "") << svg.substr(0, 2000);
  const auto peers = with_class(sx, "peer-row");
  ASSERT_EQ(peers.size(), 1u);
  expect_shown(cell(svg, sx, *peers[0], "ratio"), 3.0, "svg ratio");  // one map with a ratio
}

/// Many queries: every series becomes bands, and the file does not grow with the samples.
TEST(Report, ManyQueriesAreAggregatedIntoASmallFile) {
  bench::Report r;
  for (const char* name : {"astar", "jps", "<odd & name>"}) {
    bench::Row row;
    row.algorithm = name;
    row.maps.resize(14);
    for (std::size_t k = 0; k < row.maps.size(); ++k) row.maps[k].map = std::to_string(k) + ".map";
    std::uint64_t s = 7;
    for (int i = 0; i < 100000; ++i) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      const double len = static_cast<double>(s >> 40) / (1 << 24) * 1500.0;
      const double t = 0.5 + len * len * static_cast<double>((s >> 20) & 0xFFF) / 4096.0;
      row.samples.push_back({len, t, 10, static_cast<std::uint32_t>(i % 14), Status::found});
    }
    row.queries = row.solved = row.samples.size();
    r.rows.push_back(row);
  }
  for (const auto format : {bench::ReportFormat::html, bench::ReportFormat::svg}) {
    const std::string text = bench::render_report(r, format);
    const Xml x = parse_xml(text);
    ASSERT_EQ(x.error, "");
    EXPECT_LT(text.size(), 200u * 1024) << "format " << static_cast<int>(format);
    const auto series = with_class(x, "series");
    ASSERT_EQ(series.size(), 3u);
    for (const auto* e : series) EXPECT_EQ(attr(*e, "data-mode"), "bands");
    EXPECT_EQ(with_class(x, "band").size(), 3u);
    EXPECT_EQ(with_class(x, "median").size(), 3u);
    EXPECT_EQ(attr(*series[2], "data-algorithm"), "&lt;odd &amp; name&gt;");
  }
}

TEST(Report, EmptyReportIsStillWellFormed) {
  const bench::Report r;
  EXPECT_EQ(parse_xml(bench::report_html(r)).error, "");
  EXPECT_EQ(parse_xml(bench::report_svg(r)).error, "");
}

}  // namespace
