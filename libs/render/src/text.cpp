// The text picture of a search for terminals (see render.hpp for the legend).
#include <algorithm>
#include <cmath>

#include <pathlab/render/render.hpp>

namespace pathlab::render {

namespace {
enum class Mark : std::uint8_t { none, opened, closed, smoothed, path };

/// Calls f(cell) for every cell whose interior the segment a-b crosses: split the segment at
/// each grid line it crosses, and the midpoint of each piece names its cell. A segment that
/// only grazes a cell (along a grid line, through a corner) leaves it alone, which is what the
/// eye expects of a picture.
template <class F>
void segment_cells(Point a, Point b, F&& f) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  std::vector<double> ts{0.0, 1.0};
  auto crossings = [&](double from, double d) {
    if (d == 0) return;
    const double lo = std::min(from, from + d), hi = std::max(from, from + d);
    for (double k = std::floor(lo) + 1; k < hi; k += 1) ts.push_back((k - from) / d);
  };
  crossings(a.x, dx);
  crossings(a.y, dy);
  std::sort(ts.begin(), ts.end());
  if (dx == 0 && dy == 0) {
    f(Cell{static_cast<int>(std::floor(a.x)), static_cast<int>(std::floor(a.y))});
    return;
  }
  for (std::size_t i = 1; i < ts.size(); ++i) {
    if (ts[i] - ts[i - 1] < 1e-12) continue;
    const double t = (ts[i] + ts[i - 1]) / 2;
    f(Cell{static_cast<int>(std::floor(a.x + dx * t)), static_cast<int>(std::floor(a.y + dy * t))});
  }
}
}  // namespace

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
  auto mark_segments = [&](const std::vector<Point>* pts, Mark m) {
    if (!pts) return;
    for (std::size_t i = 1; i < pts->size(); ++i) {
      segment_cells((*pts)[i - 1], (*pts)[i], [&](Cell c) {
        if (g.in_bounds(c) && at(c) < m) at(c) = m;
      });
    }
  };
  // The smoothed path goes under the path: '+' shows where it leaves the path's cells.
  mark_segments(in.smoothed, Mark::smoothed);
  if (in.path) {
    for (Cell c : *in.path) {
      if (g.in_bounds(c)) at(c) = Mark::path;
    }
  }
  mark_segments(in.polyline, Mark::path);
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
          case Mark::smoothed:
            ch = '+', col = "\x1b[1;35m";
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
