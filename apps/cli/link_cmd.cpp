// `pathlab link`: the Link game (连连看) on a board file — whether two tiles connect (and the
// line), a hint, every move, a clearing sequence, a shuffle — or a new solvable board
// (--generate). Exit codes as the CLI contract fixes them: 0 the tiles connect / a hint or a
// solution exists, 1 a negative answer, 2 bad input. --json shapes come from pathlab/json/link.hpp,
// the same as the /api/link endpoints'.
#include <cctype>
#include <chrono>
#include <cstdio>
#include <map>
#include <utility>

#include <fmt/core.h>

#include <pathlab/core/error.hpp>
#include <pathlab/json/link.hpp>
#include <pathlab/link/board.hpp>
#include <pathlab/link/connect.hpp>
#include <pathlab/link/moves.hpp>
#include <pathlab/link/solver.hpp>
#include <pathlab/render/link.hpp>

#include "common.hpp"

namespace pathlab::cli {
namespace {

using ojson = json::Ordered;

struct LinkArgs {
  std::string board_path;
  std::string connect;
  bool hint = false, moves = false, solve = false, shuffle = false, json = false;
  std::string generate;
  int kinds = 0;
  std::uint64_t seed = 1;
  std::string gravity;
  std::uint64_t node_limit = link::SolveOptions{}.node_limit;
  std::string render_path;
  int cell_px = 0;
  CLI::Option* seed_opt = nullptr;
  CLI::Option* kinds_opt = nullptr;
  CLI::Option* node_limit_opt = nullptr;
};

std::string cell_text(Cell c) {
  return fmt::format("({},{})", c.x, c.y);
}

/// Writes the --render picture, when one was asked for.
void render(const LinkArgs& a, const link::Board& board, const render::LinkPicture& picture) {
  if (a.render_path.empty()) return;
  render::LinkPicture p = picture;
  p.cell_px = a.cell_px;
  try {
    render::write_link(board, p, a.render_path);
  } catch (const std::runtime_error& e) {
    throw CliError{e.what()};
  }
}

std::string picture_text(const link::Board& board, const render::LinkPicture& picture) {
  return render::link_text(board, picture, stdout_is_terminal());
}

/// "WxH" -> width, height.
std::pair<int, int> parse_size(const std::string& text) {
  const auto x = text.find_first_of("xX");
  int w = 0, h = 0;
  char tail = 0;
  if (x == std::string::npos || std::sscanf(text.c_str(), "%d%*[xX]%d%c", &w, &h, &tail) != 2) {
    throw CliError{"--generate expects WxH (e.g. 12x8), got '" + text + "'"};
  }
  if (w < 1 || h < 1 || w > link::kMaxSide || h > link::kMaxSide) {
    throw CliError{fmt::format("--generate {}: sides must be from 1 to {}", text, link::kMaxSide)};
  }
  return {w, h};
}

int run_generate(const LinkArgs& a) {
  const auto [w, h] = parse_size(a.generate);
  if (!a.kinds_opt->count()) throw CliError{"--generate needs --kinds K (1 to 62)"};
  link::Board b;
  try {
    b = link::generate(w, h, a.kinds, a.seed);
  } catch (const std::invalid_argument& e) {
    throw CliError{fmt::format("--generate {} --kinds {}: {}", a.generate, a.kinds, e.what())};
  }
  render(a, b, {});
  if (a.json) {
    ojson out = json::link_board(b);
    out["kinds"] = a.kinds;
    out["seed"] = a.seed;
    fmt::print("{}\n", out.dump());
  } else {
    fmt::print("{}", b.to_text());
  }
  return kExitOk;
}

int run_connect(const LinkArgs& a, const link::Board& b) {
  const auto colon = a.connect.find(':');
  if (colon == std::string::npos) {
    throw CliError{"--connect expects X1,Y1:X2,Y2, got '" + a.connect + "'"};
  }
  const Cell p = parse_cell(a.connect.substr(0, colon), "--connect");
  const Cell q = parse_cell(a.connect.substr(colon + 1), "--connect");
  for (const Cell c : {p, q}) {
    if (!b.inside(c)) {
      throw CliError{fmt::format("{}: --connect {} is outside the {}x{} board", a.board_path,
                                 cell_text(c), b.width(), b.height())};
    }
  }
  if (p == q) throw CliError{"--connect names the same cell twice: " + cell_text(p)};
  const link::Connection line = link::connect(b, p, q);
  const std::string reason = line ? "" : json::link_refusal(b, p, q);
  render(a, b, {line.points, {p, q}});
  if (a.json) {
    ojson out = json::link_connection(line);
    out["a"] = json::link_cell(p);
    out["b"] = json::link_cell(q);
    if (!line) out["reason"] = reason;
    fmt::print("{}\n", out.dump());
  } else {
    const auto tile = [&](Cell c) {
      return b.is_empty(c) ? cell_text(c) + " (empty)"
                           : fmt::format("{} {}", cell_text(c), b.at(c));
    };
    if (line) {
      fmt::print("{} and {} connect: {} turn{}, length {}\n", tile(p), tile(q), line.turns(),
                 line.turns() == 1 ? "" : "s", line.length());
    } else {
      fmt::print("{} and {} do not connect: {}\n", tile(p), tile(q), reason);
    }
    fmt::print("{}", picture_text(b, {line.points, {p, q}}));
  }
  return line ? kExitOk : kExitNegative;
}

int run_hint(const LinkArgs& a, const link::Board& b) {
  const auto h = link::hint(b);
  const link::Connection line = h ? link::connect(b, h->a, h->b) : link::Connection{};
  render::LinkPicture picture;
  if (h) picture = {line.points, {h->a, h->b}};
  render(a, b, picture);
  const bool deadlocked = !h && b.tiles() > 0;
  if (a.json) {
    fmt::print("{}\n", json::link_hint(b, h).dump());
  } else if (h) {
    fmt::print("hint: {} and {} ({}): {} turn{}, length {}\n", cell_text(h->a), cell_text(h->b),
               b.at(h->a), line.turns(), line.turns() == 1 ? "" : "s", line.length());
    fmt::print("{}", picture_text(b, picture));
  } else if (deadlocked) {
    fmt::print("no move: deadlocked with {} tiles left (try --shuffle)\n", b.tiles());
  } else {
    fmt::print("no move: the board is empty\n");
  }
  return h ? kExitOk : kExitNegative;
}

int run_moves(const LinkArgs& a, const link::Board& b) {
  const std::vector<link::Move> list = link::moves(b);
  render(a, b, {});
  if (a.json) {
    fmt::print("{}\n", json::link_moves(b, list).dump());
  } else {
    fmt::print("{} move{} ({} tiles{})\n", list.size(), list.size() == 1 ? "" : "s", b.tiles(),
               list.empty() && b.tiles() > 0 ? ", deadlocked" : "");
    for (const link::Move m : list) {
      fmt::print("  {} {} {}\n", b.at(m.a), cell_text(m.a), cell_text(m.b));
    }
  }
  return kExitOk;
}

int run_solve(const LinkArgs& a, const link::Board& b, link::Gravity gravity) {
  link::SolveOptions o;
  o.gravity = gravity;
  o.node_limit = a.node_limit;
  const auto t0 = std::chrono::steady_clock::now();
  const link::SolveResult r = link::solve(b, o);
  const auto us =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  render(a, b, {});
  if (a.json) {
    ojson out = json::link_solve(b, r, gravity);
    out["time_us"] = us;
    fmt::print("{}\n", out.dump());
  } else if (r.status == link::SolveResult::Status::solved) {
    fmt::print("solved: {} moves (gravity {}), {} boards expanded, {:.1f} ms\n", r.moves.size(),
               link::to_string(gravity), r.nodes, static_cast<double>(us) / 1000);
    link::Board replay = b;
    for (std::size_t i = 0; i < r.moves.size(); ++i) {
      const link::Move m = r.moves[i];
      fmt::print("{:>4}. {} {} {}\n", i + 1, replay.at(m.a), cell_text(m.a), cell_text(m.b));
      link::play(replay, m, gravity);
    }
  } else if (r.status == link::SolveResult::Status::unsolvable) {
    fmt::print("unsolvable: no sequence clears the board (gravity {}, {} boards expanded)\n",
               link::to_string(gravity), r.nodes);
  } else {
    fmt::print("gave up: node limit of {} boards reached (--node-limit)\n", a.node_limit);
  }
  return r.status == link::SolveResult::Status::solved ? kExitOk : kExitNegative;
}

int run_shuffle(const LinkArgs& a, link::Board b) {
  const bool ok = link::shuffle(b, a.seed);
  render(a, b, {});
  if (a.json) {
    fmt::print("{}\n", ojson{{"board", json::link_board(b)},
                             {"shuffled", ok},
                             {"seed", a.seed},
                             {"moves", link::moves(b).size()}}
                           .dump());
  } else if (ok) {
    fmt::print("{}", b.to_text());
  } else {
    fmt::print("cannot shuffle: no arrangement of the {} tiles has a move\n", b.tiles());
  }
  return ok ? kExitOk : kExitNegative;
}

int run_summary(const LinkArgs& a, const link::Board& b) {
  std::map<char, int> kinds;
  for (const char c : b.cells()) {
    if (c != link::kEmpty) ++kinds[c];
  }
  const std::size_t moves = link::moves(b).size();
  render(a, b, {});
  if (a.json) {
    ojson counts = ojson::object();
    for (const auto& [k, n] : kinds) counts[std::string(1, k)] = n;
    fmt::print("{}\n", ojson{{"board", json::link_board(b)},
                             {"tiles", b.tiles()},
                             {"kinds", counts},
                             {"moves", moves},
                             {"deadlocked", moves == 0 && b.tiles() > 0}}
                           .dump());
  } else {
    fmt::print("{}: {}x{}, {} tiles of {} kinds, {} move{}{}\n", a.board_path, b.width(),
               b.height(), b.tiles(), kinds.size(), moves, moves == 1 ? "" : "s",
               moves == 0 && b.tiles() > 0 ? " (deadlocked)" : "");
    fmt::print("{}", picture_text(b, {}));
  }
  return kExitOk;
}

int run_link(const LinkArgs& a) {
  if (!a.render_path.empty()) {
    const auto dot = a.render_path.rfind('.');
    std::string ext = dot == std::string::npos ? "" : a.render_path.substr(dot + 1);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext != "png" && ext != "svg") {
      throw CliError{a.render_path + ": unknown render format for a board (use .png or .svg)"};
    }
  }
  if (a.node_limit_opt->count() && !a.solve) throw CliError{"--node-limit goes with --solve"};
  if (!a.generate.empty()) {
    if (!a.board_path.empty()) throw CliError{"give a BOARD file or --generate WxH, not both"};
    if (!a.gravity.empty()) throw CliError{"--gravity applies to --solve"};
    return run_generate(a);
  }
  if (a.board_path.empty()) throw CliError{"link needs a BOARD file (or --generate WxH --kinds K)"};
  if (a.kinds_opt->count()) throw CliError{"--kinds goes with --generate"};
  if (a.seed_opt->count() && !a.shuffle) throw CliError{"--seed goes with --shuffle or --generate"};
  if (!a.gravity.empty() && !a.solve) throw CliError{"--gravity applies to --solve"};
  link::Gravity gravity = link::Gravity::none;
  if (!a.gravity.empty()) {
    const auto g = link::parse_gravity(a.gravity);
    if (!g) {
      throw CliError{"unknown gravity '" + a.gravity + "' (none, down, up, left, right or centre)"};
    }
    gravity = *g;
  }
  link::Board b;
  try {
    b = json::load_link_board(a.board_path);
  } catch (const ParseError& e) {
    throw CliError{e.what()};
  }
  if (!a.connect.empty()) return run_connect(a, b);
  if (a.hint) return run_hint(a, b);
  if (a.moves) return run_moves(a, b);
  if (a.solve) return run_solve(a, b, gravity);
  if (a.shuffle) return run_shuffle(a, b);
  return run_summary(a, b);
}

}  // namespace

void register_link(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<LinkArgs>();
  CLI::App* cmd = app.add_subcommand(
      "link", "the Link game (连连看): connect two tiles, hint, moves, solve, shuffle, generate");
  cmd->add_option("BOARD", args->board_path,
                  "board file: one row per line, '.' empty, any other character a tile kind "
                  "(or the JSON board object)");
  auto* connect = cmd->add_option("--connect", args->connect,
                                  "X1,Y1:X2,Y2: whether the two tiles connect (exit 0) or not "
                                  "(exit 1), and the line of at most two turns");
  auto* hint = cmd->add_flag("--hint", args->hint, "a connectable pair (exit 1: none, deadlock)");
  auto* moves = cmd->add_flag("--moves", args->moves, "every connectable pair");
  auto* solve = cmd->add_flag("--solve", args->solve,
                              "a sequence of removals that clears the board (exit 1: none "
                              "exists, or the node limit was reached)");
  auto* shuffle = cmd->add_flag("--shuffle", args->shuffle,
                                "rearrange the tiles (same counts) so a move exists; prints the "
                                "new board");
  auto* generate =
      cmd->add_option("--generate", args->generate,
                      "WxH: a new solvable board, W columns by H rows (needs --kinds)");
  const std::vector<CLI::Option*> actions{connect, hint, moves, solve, shuffle, generate};
  for (CLI::Option* o : actions) {
    for (CLI::Option* other : actions) {
      if (o != other) o->excludes(other);
    }
  }
  args->kinds_opt =
      cmd->add_option("--kinds", args->kinds, "with --generate: number of tile kinds (1 to 62)");
  args->seed_opt =
      cmd->add_option("--seed", args->seed, "with --generate or --shuffle: random seed")
          ->capture_default_str();
  cmd->add_option("--gravity", args->gravity,
                  "with --solve: tiles slide after each removal: none (default), down, up, left, "
                  "right or centre");
  args->node_limit_opt =
      cmd->add_option("--node-limit", args->node_limit, "with --solve: boards expanded at most")
          ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 62, "a count >= 1"))
          ->capture_default_str();
  cmd->add_option("--render", args->render_path,
                  "draw the board (with --connect or --hint, the line too) to OUT.png or OUT.svg");
  cmd->add_option("--cell", args->cell_px, "with --render: pixels per cell (default: fit 640)")
      ->check(CLI::Range(4, 200));
  cmd->add_flag("--json", args->json, "machine output");
  cmd->callback([args, &exit_code] { exit_code = run_link(*args); });
}

}  // namespace pathlab::cli
