// The Link game's routes (/api/link/...): the catalog's boards, generate, connect, hint, moves,
// shuffle, solve and play. Stateless: every request carries the board (pathlab/json/link.hpp's
// board object) and every answer that changes it carries the new one, so the page keeps the game.
// Routes validate, call the link module and shape JSON with pathlab/json/link.hpp, the same
// shapes `pathlab link --json` prints. Errors: 400 for a malformed request, 413 for a board over
// the size limit, 422 for a well-formed one the game refuses (a cell outside the board, the same
// cell twice, tiles that do not connect for /play).
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include <pathlab/core/error.hpp>
#include <pathlab/json/link.hpp>

#include "internal.hpp"

namespace pathlab::api::detail {
namespace {

using nlohmann::json;
using ojson = pathlab::json::Ordered;

/// 400 for a board of the wrong shape, 413 for one over the size limit, 422 for one the game
/// refuses.
int board_status(pathlab::json::BoardError::Kind kind) {
  switch (kind) {
    case pathlab::json::BoardError::Kind::shape:
      return 400;
    case pathlab::json::BoardError::Kind::too_large:
      return 413;
    case pathlab::json::BoardError::Kind::refused:
      return 422;
  }
  return 400;
}

link::Board board_of(const json& r) {
  if (!r.contains("board")) throw ApiError{400, "missing \"board\""};
  try {
    return pathlab::json::link_board_from(r["board"]);
  } catch (const pathlab::json::BoardError& e) {
    throw ApiError{board_status(e.kind()), std::string("board: ") + e.what()};
  }
}

Cell cell_of(const json& r, const char* key, const link::Board& board) {
  if (!r.contains(key)) throw ApiError{400, std::string("missing \"") + key + "\""};
  const json& j = r[key];
  if (!j.is_array() || j.size() != 2 || !j[0].is_number_integer() || !j[1].is_number_integer()) {
    throw ApiError{400, std::string("\"") + key + "\" must be [x, y]"};
  }
  const Cell c{j[0].get<int>(), j[1].get<int>()};
  if (!board.inside(c)) {
    throw ApiError{422, std::string(key) + " (" + std::to_string(c.x) + "," + std::to_string(c.y) +
                            ") is outside the " + std::to_string(board.width()) + "x" +
                            std::to_string(board.height()) + " board"};
  }
  return c;
}

/// The two cells of a pair request: inside the board and distinct, in row-major order.
link::Move pair_of(const json& r, const link::Board& board) {
  Cell a = cell_of(r, "a", board), b = cell_of(r, "b", board);
  if (a == b) throw ApiError{422, "a and b are the same cell"};
  return {a, b};
}

link::Move row_major(link::Move m) {
  if (m.b.y < m.a.y || (m.b.y == m.a.y && m.b.x < m.a.x)) std::swap(m.a, m.b);
  return m;
}

link::Gravity gravity_of(const json& r) {
  if (!r.contains("gravity") || r["gravity"].is_null()) return link::Gravity::none;
  if (!r["gravity"].is_string()) throw ApiError{400, "\"gravity\" must be a string"};
  const std::string name = r["gravity"];
  const auto g = link::parse_gravity(name);
  if (!g) {
    throw ApiError{422, "unknown gravity '" + name + "' (none, down, up, left, right or centre)"};
  }
  return *g;
}

std::uint64_t seed_of(const json& r) {
  if (!r.contains("seed") || r["seed"].is_null()) return 1;
  if (!r["seed"].is_number_unsigned()) throw ApiError{400, "\"seed\" must be an integer >= 0"};
  return r["seed"].get<std::uint64_t>();
}

int side_of(const json& r, const char* key) {
  if (!r.contains(key) || !r[key].is_number_integer()) {
    throw ApiError{400, std::string("\"") + key + "\" must be an integer"};
  }
  const std::int64_t v = r[key];
  if (v > link::kMaxSide) {
    throw ApiError{413, std::string(key) + " " + std::to_string(v) + " exceeds the limit of " +
                            std::to_string(link::kMaxSide)};
  }
  if (v < 1) throw ApiError{422, std::string(key) + " must be at least 1"};
  return static_cast<int>(v);
}

/// Every board of the catalog, with its rows (one that does not read has "error" instead).
ojson bundled_boards(const Catalog& catalog) {
  ojson list = ojson::array();
  for (const std::string& name : catalog.boards()) {
    ojson entry{{"name", name}};
    try {
      const link::Board b = catalog.board(name);
      entry.update(pathlab::json::link_board(b));
      entry["tiles"] = b.tiles();
    } catch (const ParseError& e) {
      entry["error"] = e.what();
    }
    list.push_back(entry);
  }
  return {{"boards", list}};
}

}  // namespace

void add_link_routes(Router& router, const Catalog& catalog, const Limits& c) {
  router.add("GET", "/api/link/boards",
             [&catalog](const Request&, const Captures&) { return dump(bundled_boards(catalog)); });
  router.add("POST", "/api/link/generate", [](const Request& req, const Captures&) {
    const json r = body_object(req);
    const int w = side_of(r, "width"), h = side_of(r, "height");
    if (!r.contains("kinds") || !r["kinds"].is_number_integer()) {
      throw ApiError{400, "\"kinds\" must be an integer"};
    }
    const std::int64_t kinds = r["kinds"];
    const std::uint64_t seed = seed_of(r);
    if (kinds < 1 || kinds > 62) throw ApiError{422, "kinds must be from 1 to 62"};
    link::Board b;
    try {
      b = link::generate(w, h, static_cast<int>(kinds), seed);
    } catch (const std::invalid_argument& e) {
      throw ApiError{422, e.what()};
    }
    return dump(ojson{{"board", pathlab::json::link_board(b)}, {"kinds", kinds}, {"seed", seed}});
  });
  router.add("POST", "/api/link/connect", [](const Request& req, const Captures&) {
    const json r = body_object(req);
    const link::Board b = board_of(r);
    const link::Move m = pair_of(r, b);
    ojson out = pathlab::json::link_connection(link::connect(b, m.a, m.b));
    if (!out["connected"].get<bool>()) out["reason"] = pathlab::json::link_refusal(b, m.a, m.b);
    return dump(out);
  });
  router.add("POST", "/api/link/hint", [](const Request& req, const Captures&) {
    const link::Board b = board_of(body_object(req));
    return dump(pathlab::json::link_hint(b, link::hint(b)));
  });
  router.add("POST", "/api/link/moves", [](const Request& req, const Captures&) {
    const link::Board b = board_of(body_object(req));
    return dump(pathlab::json::link_moves(b, link::moves(b)));
  });
  router.add("POST", "/api/link/shuffle", [](const Request& req, const Captures&) {
    const json r = body_object(req);
    link::Board b = board_of(r);
    const bool ok = link::shuffle(b, seed_of(r));
    return dump(ojson{{"board", pathlab::json::link_board(b)},
                      {"shuffled", ok},
                      {"deadlocked", link::deadlocked(b)},
                      {"tiles", b.tiles()}});
  });
  router.add("POST", "/api/link/solve", [&c](const Request& req, const Captures&) {
    const json r = body_object(req);
    const link::Board b = board_of(r);
    link::SolveOptions o;
    o.gravity = gravity_of(r);
    o.node_limit = c.max_nodes;
    if (r.contains("node_limit") && !r["node_limit"].is_null()) {
      if (!r["node_limit"].is_number_unsigned() || r["node_limit"].get<std::uint64_t>() < 1) {
        throw ApiError{400, "\"node_limit\" must be an integer >= 1"};
      }
      o.node_limit = std::min(r["node_limit"].get<std::uint64_t>(), c.max_nodes);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const link::SolveResult result = link::solve(b, o);
    const auto us =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    ojson out = pathlab::json::link_solve(b, result, o.gravity);
    out["time_us"] = us;
    out["node_limit"] = o.node_limit;
    return dump(out);
  });
  router.add("POST", "/api/link/play", [](const Request& req, const Captures&) {
    const json r = body_object(req);
    link::Board b = board_of(r);
    const link::Move m = pair_of(r, b);  // the line runs from a, the tile picked first
    const link::Gravity g = gravity_of(r);
    const link::Connection line = link::connect(b, m.a, m.b);
    if (!line) {
      throw ApiError{422, "(" + std::to_string(m.a.x) + "," + std::to_string(m.a.y) + ") and (" +
                              std::to_string(m.b.x) + "," + std::to_string(m.b.y) +
                              ") do not connect: " + pathlab::json::link_refusal(b, m.a, m.b)};
    }
    ojson out = pathlab::json::link_connection(line);
    out["kind"] = std::string(1, b.at(m.a));
    link::play(b, row_major(m), g);
    out["removed"] = ojson::array({pathlab::json::link_cell(m.a), pathlab::json::link_cell(m.b)});
    out["board"] = pathlab::json::link_board(b);
    out["tiles"] = b.tiles();
    out["deadlocked"] = link::deadlocked(b);
    out["won"] = b.tiles() == 0;
    out["gravity"] = std::string(link::to_string(g));
    return dump(out);
  });
}

}  // namespace pathlab::api::detail
