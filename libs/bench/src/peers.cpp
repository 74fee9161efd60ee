// Running the research peers beside pathlab: one child process per step, in a scratch folder,
// with its output in a file there and a time limit; then the per-query figures are read back.
#include <pathlab/bench/peers.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace pathlab::bench {

namespace fs = std::filesystem;

const std::vector<Peer>& known_peers() {
  static const std::vector<Peer> peers{
      {"warthog-astar", "warthog A*", PeerKind::warthog, "astar", false, search::Algorithm::astar},
      {"warthog-jps", "warthog JPS", PeerKind::warthog, "jps", false, search::Algorithm::jps},
      {"warthog-jps", "warthog JPS2+", PeerKind::warthog, "jps2+", false,
       search::Algorithm::jps_plus},
      {"nlevel-sg-2014", "N-level subgoal graphs, GPPC 2014", PeerKind::gppc2014, "", true, {}},
      {"sgch-jpd-2023", "SGCH-JPD, GPPC 2023", PeerKind::gppc2023, "", true, {}},
      // The any-angle track (cell-corner endpoints). -pre: Polyanya builds its mesh (a
      // constrained Delaunay one, or merged rectangles), End Point Search its mesh, visibility
      // graph and path database; RayScan's and Gap_Search's do nothing.
      {"anyangle-polyanya-mcdt", "Polyanya_MCDT, GPPC 2023 any-angle", PeerKind::gppc2023, "", true,
       search::Algorithm::anyangle_exact, true},
      {"anyangle-eps-mcdt", "EPS_MCDT, GPPC 2023 any-angle", PeerKind::gppc2023, "", true,
       search::Algorithm::anyangle_exact, true},
      {"anyangle-rayscan", "RayScan, GPPC 2023 any-angle", PeerKind::gppc2023, "", false,
       search::Algorithm::anyangle_exact, true},
      {"anyangle-eps-rec", "EPS_Rec, GPPC 2023 any-angle", PeerKind::gppc2023, "", true,
       search::Algorithm::anyangle_exact, true},
      {"anyangle-polyanya-rec", "Polyanya_Rec, GPPC 2023 any-angle", PeerKind::gppc2023, "", true,
       search::Algorithm::anyangle_exact, true},
      {"anyangle-gap-search", "Gap_Search, GPPC 2023 any-angle", PeerKind::gppc2023, "", false,
       search::Algorithm::anyangle_exact, true},
  };
  return peers;
}

std::string_view to_string(LengthCheck check) noexcept {
  switch (check) {
    case LengthCheck::scenario_optimum:
      return "scenario optimum";
    case LengthCheck::octile_bound:
      return "octile bound";
    case LengthCheck::pathlab_exact:
      return "pathlab anyangle-exact";
  }
  return "?";
}

namespace {

std::vector<std::string_view> split(std::string_view line, char sep) {
  std::vector<std::string_view> out;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = line.find(sep, begin);
    out.push_back(line.substr(begin, end == std::string_view::npos ? end : end - begin));
    if (end == std::string_view::npos) return out;
    begin = end + 1;
  }
}

std::optional<double> number(std::string_view s) {
  const std::string copy(s);
  if (copy.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

template <typename PerLine>
void each_line(std::string_view text, PerLine per_line) {
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    per_line(line);
    begin = end + 1;
  }
}

}  // namespace

std::vector<PeerQuery> parse_warthog(std::string_view text) {
  std::vector<PeerQuery> out;
  std::size_t time_col = 7;  // without a header: nanoseconds in column 8, no length
  std::optional<std::size_t> cost_col;
  each_line(text, [&](std::string_view line) {
    const auto f = split(line, '\t');
    if (!f.empty() && f[0] == "id") {  // the header names the columns
      for (std::size_t i = 0; i < f.size(); ++i) {
        if (f[i] == "nanos") time_col = i;
        if (f[i] == "pcost") cost_col = i;
      }
      return;
    }
    if (f.size() <= time_col || f[0].empty() ||
        !std::isdigit(static_cast<unsigned char>(f[0][0]))) {
      return;
    }
    const auto ns = number(f[time_col]);
    if (!ns) return;
    PeerQuery q{*ns / 1e3, -1};
    if (cost_col && *cost_col < f.size()) q.length = number(f[*cost_col]).value_or(-1);
    out.push_back(q);
  });
  return out;
}

std::vector<PeerQuery> parse_gppc2014(std::string_view text) {
  std::vector<PeerQuery> out;
  each_line(text, [&](std::string_view line) {
    const auto f = split(line, '\t');
    if (f.size() < 3 || f[1] != "total-time") return;
    const auto s = number(f[2]);
    if (!s) return;
    PeerQuery q{*s * 1e6, -1};
    for (std::size_t i = 3; i + 1 < f.size(); ++i) {
      if (f[i] == "total-len") q.length = number(f[i + 1]).value_or(-1);
    }
    out.push_back(q);
  });
  return out;
}

std::vector<PeerQuery> parse_gppc2023(std::string_view text) {
  std::vector<PeerQuery> out;
  std::optional<std::size_t> time_col, length_col;
  std::size_t columns = 0;
  each_line(text, [&](std::string_view line) {
    const auto f = split(line, ',');
    if (!time_col) {  // the header names the columns
      for (std::size_t i = 0; i < f.size(); ++i) {
        if (f[i] == "time_cost") time_col = i;
        if (f[i] == "path_length") length_col = i;
      }
      columns = f.size();
      return;
    }
    if (f.size() != columns) return;
    const auto ns = number(f[*time_col]);
    if (!ns) return;
    PeerQuery q{*ns / 1e3, -1};
    if (length_col) q.length = number(f[*length_col]).value_or(-1);
    out.push_back(q);
  });
  return out;
}

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs argv in `dir` with stdout to `out` (stderr discarded); "" when it exited 0, else why not.
std::string run_process(const std::vector<std::string>& argv, const fs::path& dir,
                        const fs::path& out, double timeout_s) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return "cannot start " + argv[0];
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(timeout_s));
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0) return "lost " + argv[0];
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      char buf[64];
      std::snprintf(buf, sizeof buf, "timed out after %g s", timeout_s);
      return buf;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  if (WEXITSTATUS(status) != 0) return "exit status " + std::to_string(WEXITSTATUS(status));
  return {};
}

/// A fresh scratch folder, removed when it goes out of scope.
class Scratch {
 public:
  explicit Scratch(const std::string& parent) {
    const fs::path base = parent.empty() ? fs::temp_directory_path() : fs::path(parent);
    std::string tmpl = (base / "pathlab-peer-XXXXXX").string();
    if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~Scratch() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

PeerMapRow run_peer(const Peer& peer, const LoadedScenario& scenario, const PeerOptions& options,
                    const std::vector<double>* reference) {
  PeerMapRow row;
  row.map = scenario.map_name;
  const fs::path exe = fs::absolute(fs::path(options.folder) / peer.executable);
  if (!fs::exists(exe)) {
    row.error = "not found";
    return row;
  }
  Scratch scratch(options.scratch);
  if (scratch.path().empty()) {
    row.error = "no scratch folder";
    return row;
  }
  const fs::path dir = scratch.path();
  const std::string map = fs::absolute(scenario.file.map_path()).string();
  const std::string scen = fs::absolute(scenario.file.path).string();
  std::string error;
  std::vector<PeerQuery> queries;
  std::error_code ec;
  switch (peer.kind) {
    case PeerKind::warthog:
      error = run_process({exe.string(), "--alg", peer.variant, "--scen", scen, "--map", map}, dir,
                          dir / "out.txt", options.timeout_s);
      if (error.empty()) queries = parse_warthog(slurp(dir / "out.txt"));
      break;
    case PeerKind::gppc2014: {
      // It writes its index beside the map, so it gets copies of both.
      const std::string m = fs::path(map).filename().string(), s = m + ".scen";
      fs::copy_file(map, dir / m, ec);
      if (!ec) fs::copy_file(scen, dir / s, ec);
      if (ec) {
        error = "cannot copy the map: " + ec.message();
        break;
      }
      const auto t0 = std::chrono::steady_clock::now();
      error = run_process({exe.string(), "-pre", m, s}, dir, dir / "pre.txt", options.timeout_s);
      row.prep_s = seconds_since(t0);
      if (error.empty()) {
        error = run_process({exe.string(), "-run", m, s}, dir, dir / "run.txt", options.timeout_s);
      }
      if (error.empty()) queries = parse_gppc2014(slurp(dir / "run.txt"));
      break;
    }
    case PeerKind::gppc2023: {
      fs::create_directory(dir / "index_data", ec);
      const auto t0 = std::chrono::steady_clock::now();
      error =
          run_process({exe.string(), "-pre", map, scen}, dir, dir / "pre.txt", options.timeout_s);
      row.prep_s = seconds_since(t0);
      if (error.empty()) {
        error =
            run_process({exe.string(), "-run", map, scen}, dir, dir / "run.txt", options.timeout_s);
      }
      if (error.empty()) queries = parse_gppc2023(slurp(dir / "result.csv"));
      break;
    }
  }
  if (!error.empty()) {
    row.error = error;
    return row;
  }
  const auto& entries = scenario.file.entries;
  if (queries.size() != entries.size()) {
    row.error = "output has " + std::to_string(queries.size()) + " queries, the scenario " +
                std::to_string(entries.size());
    return row;
  }
  if (peer.any_angle) {
    const bool exact = reference != nullptr && reference->size() == scenario.selected.size();
    row.check = exact ? LengthCheck::pathlab_exact : LengthCheck::octile_bound;
  }
  double total = 0;
  for (std::size_t k = 0; k < scenario.selected.size(); ++k) {
    const std::size_t i = scenario.selected[k];
    const PeerQuery& q = queries[i];
    total += q.time_us;
    ++row.queries;
    if (q.length < 0) continue;
    const io::ScenarioEntry& e = entries[i];
    switch (row.check) {
      case LengthCheck::scenario_optimum:
        ++row.checked;
        if (!within_tolerance(q.length, e.optimal)) ++row.suboptimal;
        break;
      case LengthCheck::octile_bound: {
        // No path is shorter than the straight line between the corners.
        ++row.checked;
        const double line = std::hypot(e.goal.x - e.start.x, e.goal.y - e.start.y);
        if (q.length > e.optimal + kOctileSlack) ++row.suboptimal;
        if (q.length < line * (1 - kExactRelative) - 1e-9) ++row.below;
        break;
      }
      case LengthCheck::pathlab_exact: {
        const double ref = (*reference)[k];
        if (ref < 0) break;  // pathlab found none: nothing to check against
        ++row.checked;
        const double slack = kExactRelative * std::max(1.0, ref);
        if (q.length > ref + slack) ++row.suboptimal;
        if (q.length < ref - slack) ++row.below;
        break;
      }
    }
  }
  row.mean_us = row.queries ? total / static_cast<double>(row.queries) : 0;
  return row;
}

std::vector<PeerRow> run_peers(const std::vector<LoadedScenario>& scenarios,
                               const PeerOptions& options, const Progress& progress) {
  std::vector<PeerRow> rows;
  const std::vector<Peer>& peers = options.peers.empty() ? known_peers() : options.peers;
  std::vector<const Peer*> found;
  for (const Peer& p : peers) {
    if (fs::exists(fs::path(options.folder) / p.executable)) found.push_back(&p);
  }
  const std::size_t total = found.size() * scenarios.size();
  std::size_t done = 0;
  if (progress) progress(done, total);
  for (const Peer* p : found) {
    PeerRow row{*p, {}, 0, 0};
    double sum = 0;
    for (std::size_t k = 0; k < scenarios.size(); ++k) {
      const std::vector<double>* reference = p->any_angle && k < options.anyangle_reference.size()
                                                 ? &options.anyangle_reference[k]
                                                 : nullptr;
      row.maps.push_back(run_peer(*p, scenarios[k], options, reference));
      const PeerMapRow& m = row.maps.back();
      if (m.ok()) {
        row.queries += m.queries;
        sum += m.mean_us * static_cast<double>(m.queries);
      }
      if (progress) progress(++done, total);
    }
    row.mean_us = row.queries ? sum / static_cast<double>(row.queries) : 0;
    rows.push_back(std::move(row));
  }
  return rows;
}

const Row* counterpart(const Peer& peer, const Report& report, std::size_t k) {
  auto verified = [k](const Row& r) {
    return k < r.maps.size() && r.illegal == 0 && r.maps[k].suboptimal == 0 &&
           r.maps[k].solved == r.maps[k].queries && r.maps[k].queries > 0;
  };
  const Row* best = nullptr;
  for (const Row& r : report.rows) {
    if (!verified(r)) continue;
    const auto algorithm = search::parse_algorithm(r.algorithm);
    if (!algorithm) continue;
    if (peer.any_angle) {
      // pathlab's fastest exact any-angle method: anyangle-exact or anyangle-labels.
      if (search::answers_points(*algorithm) &&
          (best == nullptr || r.maps[k].mean_us < best->maps[k].mean_us)) {
        best = &r;
      }
    } else if (peer.counterpart) {
      if (*algorithm == *peer.counterpart) return &r;
    } else if (peer.preprocessed && search::uses_preparation(*algorithm) && r.optimal &&
               (best == nullptr || r.maps[k].mean_us < best->maps[k].mean_us)) {
      best = &r;
    }
  }
  return best;
}

std::pair<const Row*, double> versus(const PeerRow& p, const Report& report, std::size_t k) {
  const PeerMapRow& m = p.maps[k];
  const Row* r = m.ok() && m.suboptimal == 0 ? counterpart(p.peer, report, k) : nullptr;
  if (r == nullptr || r->maps[k].mean_us <= 0) return {r, 0};
  return {r, m.mean_us / r->maps[k].mean_us};
}

}  // namespace pathlab::bench
