// The Link game's HTTP API (see link_api.hpp). Handlers validate, call the link module and
// shape JSON with pathlab/json/link.hpp, the same shapes `pathlab link --json` prints.
#include "link_api.hpp"

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include <pathlab/core/error.hpp>
#include <pathlab/json/link.hpp>

#include "http.hpp"

namespace pathlab::server {
namespace {

using nlohmann::json;
using ojson = pathlab::json::Ordered;
namespace fs = std::filesystem;

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

bool is_board_file(const fs::path& p) {
  const std::string name = p.filename().string();
  const std::string ext = p.extension().string();
  return name.rfind("link_", 0) == 0 && (ext == ".txt" || ext == ".json");
}

/// Every board file (link_*.txt, link_*.json) of the map folders, the first folder's first.
ojson bundled_boards(const Config& c) {
  std::vector<fs::path> files;
  std::vector<std::string> seen;
  for (const auto& dir : c.map_dirs) {
    std::vector<fs::path> here;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.is_regular_file() && is_board_file(e.path())) here.push_back(e.path());
    }
    std::sort(here.begin(), here.end());
    for (const auto& p : here) {
      const std::string name = p.filename().string();
      if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;
      seen.push_back(name);
      files.push_back(p);
    }
  }
  ojson list = ojson::array();
  for (const auto& p : files) {
    ojson entry{{"name", p.filename().string()}};
    try {
      const link::Board b = pathlab::json::load_link_board(p.string());
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

void link_routes(httplib::Server& svr, const Config& c) {
  svr.Get("/api/link/boards",
          [&c](const httplib::Request&, httplib::Response& res) { reply(res, bundled_boards(c)); });
  svr.Post("/api/link/generate", [](const httplib::Request& req, httplib::Response& res) {
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
    reply(res, ojson{{"board", pathlab::json::link_board(b)}, {"kinds", kinds}, {"seed", seed}});
  });
  svr.Post("/api/link/connect", [](const httplib::Request& req, httplib::Response& res) {
    const json r = body_object(req);
    const link::Board b = board_of(r);
    const link::Move m = pair_of(r, b);
    ojson out = pathlab::json::link_connection(link::connect(b, m.a, m.b));
    if (!out["connected"].get<bool>()) out["reason"] = pathlab::json::link_refusal(b, m.a, m.b);
    reply(res, out);
  });
  svr.Post("/api/link/hint", [](const httplib::Request& req, httplib::Response& res) {
    const link::Board b = board_of(body_object(req));
    reply(res, pathlab::json::link_hint(b, link::hint(b)));
  });
  svr.Post("/api/link/moves", [](const httplib::Request& req, httplib::Response& res) {
    const link::Board b = board_of(body_object(req));
    reply(res, pathlab::json::link_moves(b, link::moves(b)));
  });
  svr.Post("/api/link/shuffle", [](const httplib::Request& req, httplib::Response& res) {
    const json r = body_object(req);
    link::Board b = board_of(r);
    const bool ok = link::shuffle(b, seed_of(r));
    reply(res, ojson{{"board", pathlab::json::link_board(b)},
                     {"shuffled", ok},
                     {"deadlocked", link::deadlocked(b)},
                     {"tiles", b.tiles()}});
  });
  svr.Post("/api/link/solve", [&c](const httplib::Request& req, httplib::Response& res) {
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
    reply(res, out);
  });
  svr.Post("/api/link/play", [](const httplib::Request& req, httplib::Response& res) {
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
    reply(res, out);
  });
}

}  // namespace pathlab::server
