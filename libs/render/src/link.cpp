// Link-game boards as pictures (see link.hpp): the palette image and the file writers come
// from raster.hpp; the only thing of our own is a 3x5 capital-letter font for the tiles (the
// shared one has digits).
#include <pathlab/render/link.hpp>

#include <pathlab/core/xml.hpp>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "raster.hpp"

namespace pathlab::render {
namespace {

/// Capital letters, five rows of three pixels each, top row first.
constexpr std::array<const char*, 26> kLetters = {
    "010101111101101", "110101110101110", "011100100100011", "110101101101110", "111100110100111",
    "111100110100100", "011100101101011", "101101111101101", "111010010010111", "001001001101010",
    "101101110101101", "100100100100111", "101111111101101", "110101101101101", "010101101101010",
    "110101110100100", "010101101110011", "110101110101101", "011100010001110", "111010010010010",
    "101101101101111", "101101101101010", "101101111111101", "101101010101101", "101101010010010",
    "111001010100111"};

/// The picture's coordinates of a board cell's centre (the ring adds one cell each side).
Point picture_centre(Cell c) {
  return {c.x + 1.5, c.y + 1.5};
}

std::vector<Point> line_points(const std::vector<Cell>& line) {
  std::vector<Point> pts;
  for (const Cell c : line) pts.push_back(picture_centre(c));
  return pts;
}

bool is_faded(char kind) {
  return (static_cast<unsigned char>(kind) / kAgentHues) % 2 == 1;
}

/// The kind's letter (or digit) in the middle of a tile, `scale` pixels per font pixel.
void draw_glyph(detail::Plotter& plot, int x, int y, char kind, int scale, std::uint8_t colour) {
  if (kind >= '0' && kind <= '9') {
    plot.text(x, y, std::string_view(&kind, 1), scale, colour);
    return;
  }
  const bool lower = kind >= 'a' && kind <= 'z';
  const char upper = lower ? static_cast<char>(kind - 'a' + 'A') : kind;
  if (upper < 'A' || upper > 'Z') return;  // other kinds: their colour only (the SVG has text)
  const char* bits = kLetters[static_cast<std::size_t>(upper - 'A')];
  for (int row = 0; row < 5; ++row) {
    for (int col = 0; col < 3; ++col) {
      if (bits[row * 3 + col] == '1')
        plot.fill(x + col * scale, y + row * scale, scale, scale, colour);
    }
  }
  // Lower case: the capital with a bar under it.
  if (lower) plot.fill(x, y + 6 * scale, 3 * scale, scale, colour);
}

int line_width(int cp) {
  return std::max(2, cp / 8);
}

}  // namespace

std::uint8_t link_kind_colour(char kind) noexcept {
  const auto k = static_cast<unsigned char>(kind);
  const int hue = k % kAgentHues;
  return static_cast<std::uint8_t>((is_faded(kind) ? kAgentFadedFirst : kAgentFirst) + hue);
}

int link_cell_px(const link::Board& board, int requested) noexcept {
  if (requested > 0) return requested;
  const int longest = std::max(board.width(), board.height()) + 2;
  return std::clamp(640 / longest, 6, 40);
}

IndexedImage draw_link(const link::Board& board, const LinkPicture& picture) {
  const int cp = link_cell_px(board, picture.cell_px);
  IndexedImage img;
  img.width = (board.width() + 2) * cp;
  img.height = (board.height() + 2) * cp;
  img.pixels.assign(static_cast<std::size_t>(img.width) * static_cast<std::size_t>(img.height),
                    kTerrainFirst);  // the ring: a light beige around the board
  detail::Plotter plot(img, 0, img.width, cp);
  plot.fill(cp, cp, board.width() * cp, board.height() * cp, kFree);
  // The line first: the tiles it joins are drawn over its ends.
  const std::vector<Point> pts = line_points(picture.line);
  const int w = line_width(cp);
  for (std::size_t i = 1; i < pts.size(); ++i) plot.segment(pts[i - 1], pts[i], w, kLine);
  for (const Point& q : pts) plot.stamp(plot.px(q.x), plot.py(q.y), w + 2, kLine);
  const int inset = std::max(1, cp / 12);
  const int scale = std::max(1, cp / 10);
  for (int y = 0; y < board.height(); ++y) {
    for (int x = 0; x < board.width(); ++x) {
      const char kind = board.at({x, y});
      if (kind == link::kEmpty) continue;
      const int px = (x + 1) * cp, py = (y + 1) * cp;
      plot.fill(px + inset, py + inset, cp - 2 * inset, cp - 2 * inset, link_kind_colour(kind));
      if (cp >= 7) {
        const std::uint8_t ink = is_faded(kind) ? kForce : kSeparator;
        draw_glyph(plot, px + (cp - 3 * scale) / 2, py + (cp - 5 * scale) / 2, kind, scale, ink);
      }
    }
  }
  for (const Cell c : picture.marked) {
    // An outline over the tile's inset border.
    const int px = (c.x + 1) * cp, py = (c.y + 1) * cp, t = std::max(1, inset);
    plot.fill(px, py, cp, t, kColliding);
    plot.fill(px, py + cp - t, cp, t, kColliding);
    plot.fill(px, py, t, cp, kColliding);
    plot.fill(px + cp - t, py, t, cp, kColliding);
  }
  return img;
}

std::string link_svg(const link::Board& board, const LinkPicture& picture) {
  const int cp = link_cell_px(board, picture.cell_px);
  const int width = (board.width() + 2) * cp, height = (board.height() + 2) * cp;
  const auto n = [](int v) { return std::to_string(v); };
  std::string out = detail::svg_open(width, height);
  out += "<rect class=\"ring\" x=\"0\" y=\"0\" width=\"" + n(width) + "\" height=\"" + n(height) +
         "\" fill=\"" + detail::svg_colour(kTerrainFirst) + "\"/>\n";
  out += "<rect class=\"board\" x=\"" + n(cp) + "\" y=\"" + n(cp) + "\" width=\"" +
         n(board.width() * cp) + "\" height=\"" + n(board.height() * cp) + "\" fill=\"" +
         detail::svg_colour(kFree) + "\"/>\n";
  // The line under the tiles, as in draw_link.
  if (!picture.line.empty()) {
    out += detail::svg_polyline("link", line_points(picture.line), 0, cp, kLine, line_width(cp));
  }
  const int inset = std::max(1, cp / 12);
  for (int y = 0; y < board.height(); ++y) {
    for (int x = 0; x < board.width(); ++x) {
      const char kind = board.at({x, y});
      if (kind == link::kEmpty) continue;
      const int px = (x + 1) * cp, py = (y + 1) * cp;
      const std::string k = xml_escape(std::string_view(&kind, 1));
      out += "<g class=\"tile\" data-kind=\"" + k + "\"><rect x=\"" + n(px + inset) + "\" y=\"" +
             n(py + inset) + "\" width=\"" + n(cp - 2 * inset) + "\" height=\"" +
             n(cp - 2 * inset) + "\" rx=\"" + n(inset * 2) + "\" fill=\"" +
             detail::svg_colour(link_kind_colour(kind)) + "\"/><text x=\"" + n(px + cp / 2) +
             "\" y=\"" + n(py + cp / 2) +
             "\" text-anchor=\"middle\" dominant-baseline=\"central\" font-family=\"sans-serif\" "
             "font-weight=\"bold\" font-size=\"" +
             n(std::max(4, cp * 3 / 5)) + "\" fill=\"" +
             detail::svg_colour(is_faded(kind) ? kForce : kSeparator) + "\">" + k + "</text></g>\n";
    }
  }
  for (const Cell c : picture.marked) {
    out += "<rect class=\"marked\" x=\"" + n((c.x + 1) * cp + inset / 2) + "\" y=\"" +
           n((c.y + 1) * cp + inset / 2) + "\" width=\"" + n(cp - inset) + "\" height=\"" +
           n(cp - inset) + "\" fill=\"none\" stroke=\"" + detail::svg_colour(kColliding) +
           "\" stroke-width=\"" + n(inset) + "\"/>\n";
  }
  out += "</svg>\n";
  return out;
}

void write_link(const link::Board& board, const LinkPicture& picture, const std::string& path) {
  const auto format = detail::format_of(path);
  if (format == detail::Format::png) {
    detail::write_png(draw_link(board, picture), path);
  } else if (format == detail::Format::svg) {
    detail::write_text(path, link_svg(board, picture));
  } else {
    throw std::runtime_error(path + ": unknown render format for a board (use .png or .svg)");
  }
}

std::string link_text(const link::Board& board, const LinkPicture& picture, bool color) {
  const int w = board.width() + 2, h = board.height() + 2;
  // Which neighbours the line joins at each cell of the picture: 1 up, 2 down, 4 left, 8 right.
  std::vector<std::uint8_t> joins(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
  const auto at = [&](Cell c) -> std::uint8_t& {
    return joins[static_cast<std::size_t>(c.y + 1) * static_cast<std::size_t>(w) +
                 static_cast<std::size_t>(c.x + 1)];
  };
  const auto inside = [&](Cell c) {
    return c.x >= -1 && c.y >= -1 && c.x <= board.width() && c.y <= board.height();
  };
  for (std::size_t i = 1; i < picture.line.size(); ++i) {
    Cell p = picture.line[i - 1];
    const Cell q = picture.line[i];
    if (!inside(p) || !inside(q) || (p.x != q.x && p.y != q.y)) continue;  // not a line of ours
    const int dx = (q.x > p.x) - (q.x < p.x), dy = (q.y > p.y) - (q.y < p.y);
    const std::uint8_t forward = dx > 0 ? 8 : dx < 0 ? 4 : dy > 0 ? 2 : 1;
    const std::uint8_t back = dx > 0 ? 4 : dx < 0 ? 8 : dy > 0 ? 1 : 2;
    while (!(p == q)) {
      at(p) |= forward;
      p = {p.x + dx, p.y + dy};
      at(p) |= back;
    }
  }
  const auto is_marked = [&](Cell c) {
    return std::find(picture.marked.begin(), picture.marked.end(), c) != picture.marked.end() ||
           (!picture.line.empty() && (c == picture.line.front() || c == picture.line.back()));
  };
  const char* kLineColour = "\x1b[33;1m";
  const char* kMarkColour = "\x1b[30;43;1m";
  const char* kReset = "\x1b[0m";
  std::string out;
  for (int y = -1; y <= board.height(); ++y) {
    for (int x = -1; x <= board.width(); ++x) {
      const Cell c{x, y};
      const char kind = board.at(c);
      if (kind != link::kEmpty) {
        const bool mark = color && is_marked(c);
        if (mark) out += kMarkColour;
        out += kind;
        if (mark) out += kReset;
        continue;
      }
      const char* glyph = nullptr;
      switch (at(c)) {
        case 4 | 8:
        case 4:
        case 8:
          glyph = "─";
          break;
        case 1 | 2:
        case 1:
        case 2:
          glyph = "│";
          break;
        case 2 | 8:
          glyph = "┌";
          break;
        case 2 | 4:
          glyph = "┐";
          break;
        case 1 | 8:
          glyph = "└";
          break;
        case 1 | 4:
          glyph = "┘";
          break;
        default:
          break;
      }
      if (glyph) {
        if (color) out += kLineColour;
        out += glyph;
        if (color) out += kReset;
      } else {
        out += board.inside(c) ? '.' : ' ';
      }
    }
    // The ring's right column is blank unless the line runs there: trim it.
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += '\n';
  }
  return out;
}

}  // namespace pathlab::render
