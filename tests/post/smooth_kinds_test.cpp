// Waypoint pruning on the other map kinds (shared docs/ALGORITHMS.md: "Hex grids", "Walls on cell
// edges", "Layered maps"): on random hex maps of every layout, square maps with thin walls and
// layered maps with links, grid paths made here (randomised depth-first searches over
// for_each_move: long and winding, much to prune) are smoothed, and every result keeps start and
// goal, is a subsequence of the path, has line of sight on every segment but link steps, keeps
// both ends of every link step, and is never longer than the path (a hex path of k moves is k
// hex units long).
#include <gtest/gtest.h>

#include <pathlab/grid/hex.hpp>
#include <pathlab/grid/los.hpp>
#include <pathlab/grid/topology.hpp>
#include <pathlab/post/smooth.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "test_grids.hpp"

using namespace pathlab;
using grid::DiagonalRule;
using grid::Layout;

namespace smooth_kinds {

constexpr DiagonalRule kRules[] = {DiagonalRule::never, DiagonalRule::no_corner_cut,
                                   DiagonalRule::one_corner, DiagonalRule::always};

/// A step of a path: the cell, and the cost of the move into it (0 for the first).
struct Step {
  Cell cell;
  double cost = 0;
  bool link = false;
};

/// A randomised depth-first path from s to t over for_each_move<R> (each move's cost kept), or
/// nothing when t is out of reach.
template <DiagonalRule R>
std::vector<Step> dfs_path(const grid::Grid& g, Cell s, Cell t, std::mt19937& rng) {
  std::vector<char> seen(g.padded_size());
  struct Frame {
    grid::NodeId n;
    std::vector<std::tuple<grid::NodeId, double, bool>> next;
  };
  std::vector<Frame> stack;
  std::vector<Step> path;
  auto push = [&](grid::NodeId n, double cost, bool link) {
    seen[n] = 1;
    Frame f{n, {}};
    grid::for_each_move<R>(g, n, grid::StepBase{}, [&](grid::NodeId m, int d, double c) {
      f.next.emplace_back(m, c, d == grid::link_direction(g.layout()) && g.link_out_id(n));
    });
    std::shuffle(f.next.begin(), f.next.end(), rng);
    stack.push_back(std::move(f));
    path.push_back({g.cell(n), cost, link});
  };
  push(g.id(s), 0, false);
  while (!stack.empty()) {
    if (stack.back().n == g.id(t)) return path;
    auto& next = stack.back().next;
    bool moved = false;
    while (!next.empty()) {
      const auto [m, c, link] = next.back();
      next.pop_back();
      if (seen[m] != 0) continue;
      push(m, c, link);
      moved = true;
      break;
    }
    if (!moved) {
      stack.pop_back();
      path.pop_back();
    }
  }
  return {};
}

std::vector<Step> dfs_path(const grid::Grid& g, DiagonalRule r, Cell s, Cell t, std::mt19937& rng) {
  return grid::dispatch_rule(
      r, [&](auto rule) { return dfs_path<decltype(rule)::value>(g, s, t, rng); });
}

bool is_subsequence(const std::vector<Cell>& sub, const std::vector<Step>& full) {
  std::size_t j = 0;
  for (const Step& s : full) {
    if (j < sub.size() && sub[j] == s.cell) ++j;
  }
  return j == sub.size();
}

Cell random_free(const grid::Grid& g, std::mt19937& rng) {
  for (int k = 0; k < 1000; ++k) {
    const Cell c{static_cast<int>(rng() % static_cast<unsigned>(g.width())),
                 static_cast<int>(rng() % static_cast<unsigned>(g.height()))};
    if (g.passable(c)) return c;
  }
  return {-1, -1};
}

/// Checks every promise of smooth() on one path; returns how much shorter the result is.
double check(const grid::Grid& g, DiagonalRule r, const std::vector<Step>& path,
             post::Smoothing method) {
  std::vector<Cell> cells;
  double path_len = 0;
  for (const Step& s : path) {
    cells.push_back(s.cell);
    path_len += s.cost;
  }
  const std::vector<Cell> out = post::smooth(g, r, cells, method);
  EXPECT_FALSE(out.empty());
  if (out.empty()) return 0;
  EXPECT_EQ(out.front(), cells.front());
  EXPECT_EQ(out.back(), cells.back());
  EXPECT_TRUE(is_subsequence(out, path));
  // Both ends of every link step are consecutive waypoints.
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (!path[i].link) continue;
    const auto it = std::find(out.begin(), out.end(), path[i - 1].cell);
    EXPECT_TRUE(it != out.end() && it + 1 != out.end() && *(it + 1) == path[i].cell)
        << "a link step was pruned away";
  }
  // Every other segment has line of sight.
  for (std::size_t i = 1; i < out.size(); ++i) {
    if (grid::line_of_sight(g, r, out[i - 1], out[i])) continue;
    EXPECT_TRUE(post::link_cost(g, out[i - 1], out[i]).has_value())
        << "no sight (" << out[i - 1].x << "," << out[i - 1].y << ") -> (" << out[i].x << ","
        << out[i].y << ")";
  }
  const double len = post::length(g, out, 1.0, r);
  EXPECT_LE(len, path_len + 1e-9);
  // The path's own cost, measured by length() on every cell, is at most the sum of its moves
  // (a link taken where a grid move was cheaper counts as that move), exactly so without links.
  const double cells_len = post::length(g, cells, 1.0, r);
  EXPECT_LE(cells_len, path_len + 1e-9);
  if (g.links().empty()) {
    EXPECT_NEAR(cells_len, path_len, 1e-9);
  }
  return path_len - len;
}

}  // namespace smooth_kinds

namespace smooth_kinds {

TEST(SmoothKinds, HexPathsAreNeverLongerThanTheirMoves) {
  std::mt19937 rng(17);
  double saved = 0;
  for (const Layout l :
       {Layout::pointy_odd_r, Layout::pointy_even_r, Layout::flat_odd_q, Layout::flat_even_q}) {
    for (int trial = 0; trial < 60; ++trial) {
      const int w = 2 + static_cast<int>(rng() % 20), h = 2 + static_cast<int>(rng() % 20);
      grid::Grid g = pathlab::testing::random_grid(static_cast<std::uint32_t>(rng()), w, h,
                                                   static_cast<int>(rng() % 30), false);
      g.set_layout(l);
      const Cell s = random_free(g, rng), t = random_free(g, rng);
      if (s.x < 0 || t.x < 0) continue;
      const DiagonalRule r = kRules[rng() % 4];
      const auto path = dfs_path(g, r, s, t, rng);
      if (path.empty()) continue;
      // Every hex move is 1 hex unit long: the path's length is its number of moves.
      for (const Step& st : path) {
        if (st.cost != 0) {
          ASSERT_EQ(st.cost, 1.0);
        }
      }
      for (const auto m : {post::Smoothing::greedy, post::Smoothing::refined}) {
        saved += check(g, r, path, m);
      }
      // The refinement is never longer than the greedy pass.
      std::vector<Cell> cells;
      for (const Step& st : path) cells.push_back(st.cell);
      EXPECT_LE(post::length(g, post::smooth(g, r, cells, post::Smoothing::refined)),
                post::length(g, post::smooth(g, r, cells, post::Smoothing::greedy)) + 1e-9);
    }
  }
  EXPECT_GT(saved, 100.0);  // pruning did shorten many paths
}

TEST(SmoothKinds, ThinWallsAreNeverCutThrough) {
  std::mt19937 rng(19);
  double saved = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int w = 2 + static_cast<int>(rng() % 20), h = 2 + static_cast<int>(rng() % 20);
    grid::Grid g = pathlab::testing::random_grid(static_cast<std::uint32_t>(rng()), w, h,
                                                 static_cast<int>(rng() % 20), false);
    const int edge_pct = 5 + static_cast<int>(rng() % 20);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        if (static_cast<int>(rng() % 100) < edge_pct) g.set_edge_wall(x, y, grid::Side::east, true);
        if (static_cast<int>(rng() % 100) < edge_pct)
          g.set_edge_wall(x, y, grid::Side::south, true);
      }
    }
    const Cell s = random_free(g, rng), t = random_free(g, rng);
    if (s.x < 0 || t.x < 0) continue;
    const DiagonalRule r = kRules[rng() % 4];
    const auto path = dfs_path(g, r, s, t, rng);
    if (path.empty()) continue;
    for (const auto m : {post::Smoothing::greedy, post::Smoothing::refined}) {
      saved += check(g, r, path, m);
    }
  }
  EXPECT_GT(saved, 100.0);
}

TEST(SmoothKinds, LayeredPathsArePrunedPerFloorAndKeepTheirLinks) {
  std::mt19937 rng(23);
  int links_taken = 0;
  for (const Layout l : {Layout::square, Layout::pointy_odd_r, Layout::flat_even_q}) {
    for (int trial = 0; trial < 60; ++trial) {
      const int w = 3 + static_cast<int>(rng() % 14), h = 3 + static_cast<int>(rng() % 14);
      const int layers = 2 + static_cast<int>(rng() % 2);
      grid::Grid g = grid::Grid::layered(w, h, layers);
      g.set_layout(l);
      for (int f = 0; f < layers; ++f) {
        for (int y = 0; y < h; ++y) {
          for (int x = 0; x < w; ++x) {
            if (rng() % 100 < 20) {
              const Cell c = g.at(f, x, y);
              g.set_blocked(c.x, c.y, true);
            }
          }
        }
      }
      // Stairs between floors, and a portal within a floor (costs below and above its length).
      for (int k = 0; k < 4; ++k) {
        const int fa = static_cast<int>(rng() % layers), fb = static_cast<int>(rng() % layers);
        const Cell a = g.at(fa, static_cast<int>(rng() % w), static_cast<int>(rng() % h));
        const Cell b = g.at(fb, static_cast<int>(rng() % w), static_cast<int>(rng() % h));
        // Not between neighbours of one floor, where a grid move may stand for it.
        const bool same_floor = g.layer_of(a.y) == g.layer_of(b.y);
        const bool near = is_hex(l) ? grid::hex::distance(l, a, b) <= 1
                                    : std::abs(a.x - b.x) <= 1 && std::abs(a.y - b.y) <= 1;
        if (same_floor && near) continue;
        const float cost = 0.5f + static_cast<float>(rng() % 40) / 4.0f;
        ASSERT_FALSE(g.add_link({a, b, cost, rng() % 3 == 0}).has_value());
      }
      const Cell s = random_free(g, rng), t = random_free(g, rng);
      if (s.x < 0 || t.x < 0) continue;
      const DiagonalRule r = kRules[1 + rng() % 3];
      const auto path = dfs_path(g, r, s, t, rng);
      if (path.empty()) continue;
      for (const Step& st : path) links_taken += st.link;
      for (const auto m : {post::Smoothing::greedy, post::Smoothing::refined}) check(g, r, path, m);
    }
  }
  EXPECT_GT(links_taken, 20);
}

TEST(SmoothKinds, AStraightHexRowBecomesOneSegment) {
  grid::Grid g(9, 5);
  g.set_layout(Layout::flat_odd_q);
  // Down column 4 of a flat layout: 5 hexes, 4 moves, one segment 4 hex units long.
  const std::vector<Cell> path = {{4, 0}, {4, 1}, {4, 2}, {4, 3}, {4, 4}};
  const auto out = post::smooth(g, DiagonalRule::no_corner_cut, path);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(post::length(g, out), 4.0, 1e-12);
  // The segment stays 0.5 from the hexes of the columns beside it: a wall there changes nothing.
  g.set_blocked(3, 2, true);
  EXPECT_EQ(post::smooth(g, DiagonalRule::no_corner_cut, path).size(), 2u);
  // A zigzag between columns 4 and 5 (4 moves) is cut to fewer waypoints and is shorter.
  const std::vector<Cell> zig = {{4, 0}, {5, 0}, {5, 1}, {5, 2}, {4, 3}};
  const auto cut = post::smooth(g, DiagonalRule::no_corner_cut, zig);
  EXPECT_LT(cut.size(), zig.size());
  EXPECT_LT(post::length(g, cut), 4.0);
}

}  // namespace smooth_kinds
