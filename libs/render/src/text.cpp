// The text picture of a search for terminals (see render.hpp for the legend).
#include <cmath>

#include <pathlab/render/render.hpp>

namespace pathlab::render {

namespace {
enum class Mark : std::uint8_t { none, opened, closed, path };
}

std::string text_picture(const Scene& scene, bool color) {
  const grid::Grid& g = *scene.grid;
  const Panel empty{};
  const Panel& in = scene.panels.empty() ? empty : scene.panels.front();
  const auto w = static_cast<std::size_t>(g.width());
  std::vector<Mark> mark(w * static_cast<std::size_t>(g.height()), Mark::none);
  auto at = [&](Cell c) -> Mark& {
    return mark[static_cast<std::size_t>(c.y) * w + static_cast<std::size_t>(c.x)];
  };
  if (in.trace) {
    for (const auto& e : *in.trace) {
      if (!g.in_bounds(e.cell)) continue;
      if (e.type == search::EventType::closed) at(e.cell) = Mark::closed;
      if (e.type == search::EventType::opened && at(e.cell) == Mark::none) {
        at(e.cell) = Mark::opened;
      }
    }
  }
  if (in.path) {
    for (Cell c : *in.path) at(c) = Mark::path;
  }
  const char* reset = "\x1b[0m";
  std::string out;
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const Cell c{x, y};
      char ch = ' ';
      const char* col = "";
      if (!g.passable(c)) {
        ch = '#';
        col = "\x1b[90m";
      } else if (scene.start && c == *scene.start) {
        ch = 'S';
        col = "\x1b[1;32m";
      } else if (scene.goal && c == *scene.goal) {
        ch = 'G';
        col = "\x1b[1;31m";
      } else {
        switch (at(c)) {
          case Mark::path:
            ch = '*', col = "\x1b[1;33m";
            break;
          case Mark::closed:
            ch = '.', col = "\x1b[36m";
            break;
          case Mark::opened:
            ch = 'o', col = "\x1b[34m";
            break;
          case Mark::none: {
            const float t = g.terrain(x, y);
            if (t > 1.0f)
              ch = static_cast<char>('0' + std::min(9, static_cast<int>(std::lround(t))));
            break;
          }
        }
      }
      if (color && *col) {
        out += col;
        out += ch;
        out += reset;
      } else {
        out += ch;
      }
    }
    out += '\n';
  }
  return out;
}

}  // namespace pathlab::render
