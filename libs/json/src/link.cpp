// The Link game's JSON shapes (see link.hpp).
#include <pathlab/json/link.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <pathlab/core/error.hpp>

namespace pathlab::json {
namespace {

using json = Ordered;

bool is_kind_char(char c) {
  return c == link::kEmpty || (c > ' ' && c <= '~');
}

std::string quoted(char c) {
  return c > ' ' && c <= '~' ? std::string("'") + c + "'" : "character " + std::to_string(+c);
}

/// The 1-based line of a byte offset in `text`.
int line_of(std::string_view text, std::size_t pos) {
  pos = std::min(pos, text.size());
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
}

/// Where a board object's fault lies in its file: the `row`-th string of the "rows" array, or
/// the "rows" key itself (row -1); line 1 when neither is found. A scan of the text, good enough
/// for the error message of a file that parsed as JSON.
int line_of_row(std::string_view text, int row) {
  const std::size_t key = text.find("\"rows\"");
  if (key == std::string_view::npos) return 1;
  if (row < 0) return line_of(text, key);
  std::size_t i = text.find('[', key + 6);
  for (int k = 0; i != std::string_view::npos && i < text.size(); ++i) {
    if (text[i] == ']') break;
    if (text[i] != '"') continue;
    if (k++ == row) return line_of(text, i);
    for (++i; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] == '\\') ++i;
    }
  }
  return line_of(text, key);
}

}  // namespace

json link_board(const link::Board& board) {
  json rows = json::array();
  const auto w = static_cast<std::size_t>(board.width());
  for (int y = 0; y < board.height(); ++y) {
    rows.push_back(board.cells().substr(static_cast<std::size_t>(y) * w, w));
  }
  return {{"width", board.width()}, {"height", board.height()}, {"rows", rows}};
}

link::Board link_board_from(const nlohmann::json& j) {
  if (!j.is_object()) {
    throw BoardError(BoardError::Kind::shape,
                     "a board must be an object {\"width\", \"height\", \"rows\"}");
  }
  if (!j.contains("rows") || !j["rows"].is_array()) {
    throw BoardError(BoardError::Kind::shape, "a board needs \"rows\": an array of strings");
  }
  const json& rows = j["rows"];
  if (rows.empty()) throw BoardError(BoardError::Kind::refused, "the board has no rows");
  if (rows.size() > static_cast<std::size_t>(link::kMaxSide)) {
    throw BoardError(BoardError::Kind::too_large, "the board has " + std::to_string(rows.size()) +
                                                      " rows, more than the limit of " +
                                                      std::to_string(link::kMaxSide));
  }
  std::string cells;
  std::size_t width = 0;
  for (std::size_t y = 0; y < rows.size(); ++y) {
    const int row = static_cast<int>(y);
    if (!rows[y].is_string())
      throw BoardError(BoardError::Kind::shape, "row " + std::to_string(y) + " is not a string",
                       row);
    const std::string& s = rows[y].get_ref<const std::string&>();
    if (y == 0) {
      width = s.size();
      if (width == 0) throw BoardError(BoardError::Kind::refused, "row 0 is empty", row);
      if (width > static_cast<std::size_t>(link::kMaxSide)) {
        throw BoardError(BoardError::Kind::too_large,
                         "row 0 has " + std::to_string(width) + " cells, more than the limit of " +
                             std::to_string(link::kMaxSide),
                         row);
      }
    } else if (s.size() != width) {
      throw BoardError(BoardError::Kind::refused,
                       "row " + std::to_string(y) + " has " + std::to_string(s.size()) +
                           " cells, expected " + std::to_string(width) +
                           " (every row as long as the first)",
                       row);
    }
    for (std::size_t x = 0; x < s.size(); ++x) {
      if (!is_kind_char(s[x])) {
        throw BoardError(BoardError::Kind::refused,
                         "row " + std::to_string(y) + ", column " + std::to_string(x) + ": " +
                             quoted(s[x]) + " is not a tile kind (printable ASCII, '.' empty)",
                         row);
      }
    }
    cells += s;
  }
  const auto check_side = [&](const char* key, std::size_t expected) {
    if (!j.contains(key) || j[key].is_null()) return;
    if (!j[key].is_number_integer())
      throw BoardError(BoardError::Kind::shape, std::string("\"") + key + "\" must be an integer");
    if (j[key].get<std::int64_t>() != static_cast<std::int64_t>(expected)) {
      throw BoardError(BoardError::Kind::refused, std::string("\"") + key + "\" is " +
                                                      j[key].dump() + " but the rows give " +
                                                      std::to_string(expected));
    }
  };
  check_side("width", width);
  check_side("height", rows.size());
  try {
    return link::Board(static_cast<int>(width), static_cast<int>(rows.size()), std::move(cells));
  } catch (const std::invalid_argument& e) {
    throw BoardError(BoardError::Kind::refused, e.what());
  }
}

link::Board load_link_board(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, 0, "cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_link_board(ss.str(), path);
}

link::Board parse_link_board(std::string_view text, const std::string& name) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{') return link::parse_board(text, name);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann's message names the byte; ours names the line.
    std::string what = e.what();
    const auto colon = what.find("syntax error");
    if (colon != std::string::npos) what = what.substr(colon);
    throw ParseError(name, line_of(text, e.byte == 0 ? 0 : e.byte - 1), "bad JSON: " + what);
  }
  try {
    return link_board_from(j);
  } catch (const BoardError& e) {
    throw ParseError(name, line_of_row(text, e.row()), e.what());
  }
}

json link_cell(Cell c) {
  return json::array({c.x, c.y});
}

json link_points(const std::vector<Cell>& points) {
  json out = json::array();
  for (const Cell c : points) out.push_back(link_cell(c));
  return out;
}

json link_move(const link::Board& board, link::Move m) {
  return {{"a", link_cell(m.a)}, {"b", link_cell(m.b)}, {"kind", std::string(1, board.at(m.a))}};
}

json link_connection(const link::Connection& c) {
  return {{"connected", c.connected()},
          {"turns", c.turns()},
          {"points", link_points(c.points)},
          {"length", c.length()}};
}

json link_hint(const link::Board& board, const std::optional<link::Move>& hint) {
  json out{{"move", hint ? link_move(board, *hint) : json(nullptr)}};
  const json line =
      link_connection(hint ? link::connect(board, hint->a, hint->b) : link::Connection{});
  out["turns"] = line["turns"];
  out["points"] = line["points"];
  out["length"] = line["length"];
  out["deadlocked"] = !hint && board.tiles() > 0;
  out["tiles"] = board.tiles();
  return out;
}

json link_moves(const link::Board& board, const std::vector<link::Move>& moves) {
  json list = json::array();
  for (const link::Move m : moves) list.push_back(link_move(board, m));
  return {{"moves", std::move(list)},
          {"count", moves.size()},
          {"deadlocked", moves.empty() && board.tiles() > 0},
          {"tiles", board.tiles()}};
}

std::string link_refusal(const link::Board& board, Cell a, Cell b) {
  if (link::connectable(board, a, b)) return {};
  if (board.is_empty(a) || board.is_empty(b)) return "empty cell";
  if (board.at(a) != board.at(b)) return "different kinds";
  return "no line with at most two turns";
}

std::string_view to_string(link::SolveResult::Status s) noexcept {
  switch (s) {
    case link::SolveResult::Status::solved:
      return "solved";
    case link::SolveResult::Status::unsolvable:
      return "unsolvable";
    case link::SolveResult::Status::node_limit:
      return "node_limit";
  }
  return "unsolvable";
}

json link_solve(const link::Board& board, const link::SolveResult& result, link::Gravity gravity) {
  json moves = json::array();
  link::Board b = board;
  for (const link::Move m : result.moves) {
    moves.push_back(link_move(b, m));
    link::play(b, m, gravity);
  }
  return {{"status", std::string(to_string(result.status))},
          {"moves", moves},
          {"nodes", result.nodes},
          {"gravity", std::string(link::to_string(gravity))}};
}

}  // namespace pathlab::json
