// Flow fields on the map kinds of issue 29 (hex layouts, walls on cell edges, layered maps with
// links, one-way links included, unit class costs) against a Dijkstra written here over a graph
// built straight from the definitions of shared docs/ALGORITHMS.md ("Flow fields", "Hex grids",
// "Walls on cell edges", "Layered maps"): hex neighbours from the axial formulas, diagonal moves
// beside edge walls from their two-step routes, links from the link list. D must equal the
// reference, and following next() from every reachable cell must reach a goal at cost D.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <random>
#include <vector>

#include <pathlab/flow/field.hpp>
#include <pathlab/flow/sectors.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/topology.hpp>
#include <pathlab/grid/unit.hpp>

namespace pathlab::flow_map_kinds_test {

using grid::DiagonalRule;
using grid::Grid;
using grid::Layout;
using grid::Side;

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Arc {
  int to;
  double cost;
};

struct Ref {
  int w = 0, h = 0;
  std::vector<std::vector<Arc>> out;
  std::vector<char> usable;
  [[nodiscard]] int index(Cell c) const { return c.y * w + c.x; }
};

std::pair<int, int> axial(Layout l, int x, int y) {
  switch (l) {
    case Layout::pointy_odd_r:
      return {x - (y - (y & 1)) / 2, y};
    case Layout::pointy_even_r:
      return {x - (y + (y & 1)) / 2, y};
    case Layout::flat_odd_q:
      return {x, y - (x - (x & 1)) / 2};
    case Layout::flat_even_q:
      return {x, y - (x + (x & 1)) / 2};
    default:
      return {x, y};
  }
}

/// The axial step of hex code d (ALGORITHMS.md "Hex grids").
constexpr int kHexDq[6] = {1, 1, 0, -1, -1, 0};
constexpr int kHexDr[6] = {0, -1, -1, 0, 1, 1};

bool walled(const Grid& g, Cell a, Cell b) {
  if (b.x == a.x + 1) return g.edge_wall(a.x, a.y, Side::east) || g.edge_wall(b.x, b.y, Side::west);
  if (b.x == a.x - 1) return g.edge_wall(a.x, a.y, Side::west) || g.edge_wall(b.x, b.y, Side::east);
  if (b.y == a.y + 1)
    return g.edge_wall(a.x, a.y, Side::south) || g.edge_wall(b.x, b.y, Side::north);
  return g.edge_wall(a.x, a.y, Side::north) || g.edge_wall(b.x, b.y, Side::south);
}

/// The graph of the definitions, for a unit of radius 0.
Ref reference(const Grid& g, const grid::Unit& u, const grid::Moves& m) {
  Ref r;
  r.w = g.width();
  r.h = g.height();
  const int n = r.w * r.h;
  r.out.assign(static_cast<std::size_t>(n), {});
  r.usable.assign(static_cast<std::size_t>(n), 0);
  for (int i = 0; i < n; ++i) {
    const int x = i % r.w, y = i / r.w;
    r.usable[static_cast<std::size_t>(i)] =
        !g.between_layers(y) && !u.forbids(g.cell_class(x, y)) ? 1 : 0;
  }
  auto ok = [&](int x, int y) {
    return g.in_bounds(x, y) && r.usable[static_cast<std::size_t>(y * r.w + x)];
  };
  auto enter = [&](int x, int y) {
    return static_cast<double>(u.class_cost(g.cell_class(x, y))) * g.terrain(x, y);
  };
  const double s = m.straight_cost(), d = m.diagonal_cost();
  for (int y = 0; y < r.h; ++y) {
    for (int x = 0; x < r.w; ++x) {
      if (!ok(x, y)) continue;
      auto& out = r.out[static_cast<std::size_t>(y * r.w + x)];
      const Cell a{x, y};
      if (grid::is_hex(g.layout())) {
        const auto [q, rr] = axial(g.layout(), x, g.local_y(y));
        for (int yy = y - 1; yy <= y + 1; ++yy) {
          for (int xx = x - 1; xx <= x + 1; ++xx) {
            if (!ok(xx, yy) || g.layer_of(yy) != g.layer_of(y)) continue;
            const auto [q2, r2] = axial(g.layout(), xx, g.local_y(yy));
            const int dq = q2 - q, dr = r2 - rr;
            if ((std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2 != 1) continue;
            out.push_back({yy * r.w + xx, s * enter(xx, yy)});
          }
        }
        continue;
      }
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          if ((dx == 0 && dy == 0) || !ok(x + dx, y + dy)) continue;
          const Cell b{x + dx, y + dy};
          if (dx == 0 || dy == 0) {
            if (!walled(g, a, b)) out.push_back({b.y * r.w + b.x, s * enter(b.x, b.y)});
            continue;
          }
          if (m.diagonal == DiagonalRule::never) continue;
          const Cell v{x, y + dy}, hz{x + dx, y};
          const bool r1 = ok(v.x, v.y) && !walled(g, a, v) && !walled(g, v, b);
          const bool r2 = ok(hz.x, hz.y) && !walled(g, a, hz) && !walled(g, hz, b);
          bool legal = false;
          if (m.diagonal == DiagonalRule::no_corner_cut) {
            legal = r1 && r2;
          } else if (m.diagonal == DiagonalRule::one_corner) {
            legal = r1 || r2;
          } else {
            legal = !walled(g, a, v) && !walled(g, v, b) && !walled(g, a, hz) && !walled(g, hz, b);
          }
          if (legal) out.push_back({b.y * r.w + b.x, d * enter(b.x, b.y)});
        }
      }
    }
  }
  for (const grid::Link& l : g.links()) {
    if (!ok(l.from.x, l.from.y) || !ok(l.to.x, l.to.y)) continue;
    r.out[static_cast<std::size_t>(r.index(l.from))].push_back({r.index(l.to), l.cost});
    if (!l.oneway) {
      r.out[static_cast<std::size_t>(r.index(l.to))].push_back({r.index(l.from), l.cost});
    }
  }
  return r;
}

/// D over the reference: a Dijkstra from the goals over reversed arcs.
std::vector<double> to_goals(const Ref& r, const std::vector<Cell>& goals) {
  std::vector<std::vector<Arc>> in(r.out.size());
  for (std::size_t a = 0; a < r.out.size(); ++a) {
    for (const Arc& e : r.out[a]) {
      in[static_cast<std::size_t>(e.to)].push_back({static_cast<int>(a), e.cost});
    }
  }
  std::vector<double> dist(r.out.size(), kInf);
  using E = std::pair<double, int>;
  std::priority_queue<E, std::vector<E>, std::greater<>> q;
  for (const Cell c : goals) {
    dist[static_cast<std::size_t>(r.index(c))] = 0;
    q.push({0, r.index(c)});
  }
  while (!q.empty()) {
    const auto [du, u] = q.top();
    q.pop();
    if (du > dist[static_cast<std::size_t>(u)]) continue;
    for (const Arc& a : in[static_cast<std::size_t>(u)]) {
      if (du + a.cost < dist[static_cast<std::size_t>(a.to)]) {
        dist[static_cast<std::size_t>(a.to)] = du + a.cost;
        q.push({du + a.cost, a.to});
      }
    }
  }
  return dist;
}

bool near(double a, double b) {
  return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b));
}

enum class Kind { hex, edges, layered, layered_hex };

struct Case {
  Grid grid;
  grid::Unit unit;
  grid::Moves moves;
};

Case random_case(Kind kind, std::mt19937& rng, int round) {
  std::uniform_int_distribution<int> size(4, 14);
  std::uniform_real_distribution<double> u01(0, 1);
  const int w = size(rng), h = size(rng);
  const int layers = kind == Kind::layered || kind == Kind::layered_hex ? 2 + round % 2 : 1;
  Case c{Grid::layered(w, h, layers), grid::Unit{}, grid::Moves{}};
  Grid& g = c.grid;
  constexpr Layout kHex[] = {Layout::pointy_odd_r, Layout::pointy_even_r, Layout::flat_odd_q,
                             Layout::flat_even_q};
  if (kind == Kind::hex || kind == Kind::layered_hex) g.set_layout(kHex[round % 4]);
  constexpr DiagonalRule kRules[] = {DiagonalRule::no_corner_cut, DiagonalRule::one_corner,
                                     DiagonalRule::always, DiagonalRule::never};
  c.moves.diagonal = kRules[round % 4];
  if (round % 5 == 4) c.moves.cost_model = grid::CostModel::integer;
  const double density = 0.1 + 0.25 * u01(rng);
  const char classes[] = {'.', '.', '.', 'S', 'W', 'T', '.'};
  for (int l = 0; l < layers; ++l) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const Cell cell = g.at(l, x, y);
        if (u01(rng) < density) {
          g.set_class(cell.x, cell.y, '@');
          continue;
        }
        if (round % 3 == 1) g.set_class(cell.x, cell.y, classes[rng() % 7]);
        if (round % 4 == 2 && u01(rng) < 0.3) g.set_terrain(cell.x, cell.y, 1.0f + (rng() % 4));
      }
    }
  }
  if (kind == Kind::edges || round % 3 == 0) {
    if (!grid::is_hex(g.layout())) {
      const int walls = static_cast<int>(w * h * (0.1 + 0.4 * u01(rng)));
      for (int i = 0; i < walls; ++i) {
        const Cell at = g.at(static_cast<int>(rng() % layers), static_cast<int>(rng() % w),
                             static_cast<int>(rng() % h));
        g.set_edge_wall(at.x, at.y, static_cast<Side>(rng() % 4), true);
      }
    }
  }
  if (layers > 1 || round % 2 == 0) {
    const int links = 1 + static_cast<int>(rng() % 6) * layers;
    for (int i = 0; i < links; ++i) {
      grid::Link l;
      l.from = g.at(static_cast<int>(rng() % layers), static_cast<int>(rng() % w),
                    static_cast<int>(rng() % h));
      l.to = g.at(static_cast<int>(rng() % layers), static_cast<int>(rng() % w),
                  static_cast<int>(rng() % h));
      l.cost = static_cast<float>(0.5 + 6 * u01(rng));
      l.oneway = rng() % 3 == 0;
      EXPECT_FALSE(g.add_link(l).has_value());
    }
  }
  if (round % 3 == 1) {
    c.unit.set('S', 3.0f);
    c.unit.set('W', 2.0f);
  }
  return c;
}

/// Whether `to` is where code d leads from `from` by a grid move (hex axial order or the
/// square kDirDx/kDirDy).
bool code_leads_to(const Grid& g, Cell from, Cell to, int d) {
  if (g.layer_of(from.y) != g.layer_of(to.y)) return false;
  if (grid::is_hex(g.layout())) {
    if (d < 0 || d >= 6) return false;
    const auto [q, r] = axial(g.layout(), from.x, g.local_y(from.y));
    const auto [q2, r2] = axial(g.layout(), to.x, g.local_y(to.y));
    return q2 - q == kHexDq[d] && r2 - r == kHexDr[d];
  }
  if (d < 0 || d >= 8) return false;
  return to.x - from.x == flow::kDirDx[static_cast<std::size_t>(d)] &&
         to.y - from.y == flow::kDirDy[static_cast<std::size_t>(d)];
}

/// The cheapest reference arc a -> b with the given kind (link or grid move), or kInf.
double arc_cost(const Grid& g, const Ref& r, Cell a, Cell b, bool link) {
  double best = kInf;
  if (link) {
    for (const grid::Link& l : g.links()) {
      if (l.from == a && l.to == b) best = std::min(best, static_cast<double>(l.cost));
      if (!l.oneway && l.to == a && l.from == b) best = std::min(best, static_cast<double>(l.cost));
    }
    return best;
  }
  for (const Arc& e : r.out[static_cast<std::size_t>(r.index(a))]) {
    if (e.to == r.index(b)) best = std::min(best, e.cost);
  }
  return best;
}

const char* name(Kind k) {
  switch (k) {
    case Kind::hex:
      return "hex";
    case Kind::edges:
      return "edge walls";
    case Kind::layered:
      return "layered";
    default:
      return "layered hex";
  }
}

/// Checks the field of `goals` against the reference: D everywhere, the codes, and that
/// following next() reaches a goal at cost D.
void check(const Case& c, const flow::Field& f, const std::vector<Cell>& goals, int& followed) {
  const Ref ref = reference(c.grid, c.unit, c.moves);
  const auto want = to_goals(ref, goals);
  const Grid& g = c.grid;
  const int link = grid::link_direction(g.layout());
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const Cell s{x, y};
      const double w = want[static_cast<std::size_t>(ref.index(s))];
      SCOPED_TRACE(::testing::Message() << "cell " << x << "," << y);
      if (w == kInf) {
        EXPECT_EQ(f.distance(s), flow::kUnreachable);
        EXPECT_EQ(f.direction(s), flow::kNoDirection);
        EXPECT_FALSE(f.next(s).has_value());
        continue;
      }
      ASSERT_TRUE(near(f.distance(s), w)) << f.distance(s) << " vs " << w;
      if (w == 0) {
        EXPECT_EQ(f.direction(s), flow::kNoDirection);
        continue;
      }
      // Follow the field to a goal, summing the reference cost of each move.
      Cell at = s;
      double total = 0;
      for (int steps = 0; f.distance(at) > 0; ++steps) {
        ASSERT_LT(steps, g.width() * g.height()) << "the directions loop";
        const int d = f.direction(at);
        const auto to = f.next(at);
        ASSERT_TRUE(to.has_value());
        const bool by_link = d == link;
        if (!by_link) {
          ASSERT_TRUE(code_leads_to(g, at, *to, d)) << "code " << d;
        }
        const double step = arc_cost(g, ref, at, *to, by_link);
        ASSERT_LT(step, kInf) << "not a move of the definitions";
        total += step;
        at = *to;
      }
      EXPECT_TRUE(near(total, w)) << total << " vs " << w;
      ++followed;
    }
  }
}

class FlowMapKinds : public ::testing::TestWithParam<Kind> {};

TEST_P(FlowMapKinds, IntegrationFieldEqualsDijkstraAndDirectionsReachAGoalAtThatCost) {
  std::mt19937 rng(777 + static_cast<int>(GetParam()));
  int followed = 0, links_taken = 0;
  for (int round = 0; round < 40; ++round) {
    Case c = random_case(GetParam(), rng, round);
    ASSERT_FALSE(c.grid.plain());
    std::vector<Cell> free;
    for (int y = 0; y < c.grid.height(); ++y) {
      for (int x = 0; x < c.grid.width(); ++x) {
        if (!c.grid.between_layers(y) && !c.unit.forbids(c.grid.cell_class(x, y))) {
          free.push_back({x, y});
        }
      }
    }
    if (free.empty()) continue;
    std::vector<Cell> goals;
    const int k = 1 + round % 3;
    for (int i = 0; i < k; ++i) goals.push_back(free[rng() % free.size()]);
    flow::Options o;
    o.moves = c.moves;
    o.unit = c.unit;
    o.sight_range = 4;
    flow::Field f;
    SCOPED_TRACE(::testing::Message() << name(GetParam()) << " round " << round << " layout "
                                      << grid::to_string(c.grid.layout()) << " rule "
                                      << grid::to_string(c.moves.diagonal));
    ASSERT_FALSE(f.build(c.grid, goals, o).has_value());
    check(c, f, goals, followed);
    for (const std::int8_t d : f.directions()) {
      if (d == grid::link_direction(c.grid.layout())) ++links_taken;
      EXPECT_LE(d, grid::link_direction(c.grid.layout()));
    }
    // Edits (an edge wall on square layouts, a wall, a one-way link): update() equals a fresh
    // build.
    const std::uint64_t before = c.grid.revision();
    if (!grid::is_hex(c.grid.layout())) {
      const Cell at = free[rng() % free.size()];
      c.grid.set_edge_wall(at.x, at.y, Side::east, true);
    }
    const Cell a = free[rng() % free.size()], b = free[rng() % free.size()];
    if (!(a == b)) {
      EXPECT_FALSE(c.grid.add_link({a, b, 1.5f, true}).has_value());
    }
    EXPECT_EQ(f.stale(c.grid), c.grid.revision() != before);
    f.update(c.grid);
    EXPECT_FALSE(f.stale(c.grid));
    flow::Field fresh;
    ASSERT_FALSE(fresh.build(c.grid, goals, o).has_value());
    EXPECT_EQ(f.distances(), fresh.distances());
    EXPECT_EQ(f.directions(), fresh.directions());
    check(c, f, goals, followed);
  }
  EXPECT_GT(followed, 200);
  if (GetParam() != Kind::hex) {
    EXPECT_GT(links_taken, 0) << "no direction took a link";
  }
}

INSTANTIATE_TEST_SUITE_P(All, FlowMapKinds,
                         ::testing::Values(Kind::hex, Kind::edges, Kind::layered,
                                           Kind::layered_hex));

// Hex codes: a two-cell corridor on a pointy-odd-r map, each neighbour of a goal points at it
// with the axial code of the move.
TEST(FlowMapKindsHex, CodesFollowTheAxialOrder) {
  Grid g(5, 5);
  g.set_layout(Layout::pointy_odd_r);
  const Cell goal{2, 2};
  flow::Options o;
  o.sight_range = 0;
  flow::Field f;
  ASSERT_FALSE(f.build(g, std::vector<Cell>{goal}, o).has_value());
  int seen = 0;
  for (int y = 1; y <= 3; ++y) {
    for (int x = 1; x <= 3; ++x) {
      const Cell c{x, y};
      if (c == goal || f.distance(c) != 1.0) continue;
      const int d = f.direction(c);
      ASSERT_GE(d, 0);
      ASSERT_LT(d, 6);
      EXPECT_TRUE(code_leads_to(g, c, goal, d));
      ASSERT_TRUE(f.next(c).has_value());
      EXPECT_EQ(*f.next(c), goal);
      ++seen;
    }
  }
  EXPECT_EQ(seen, 6);
}

}  // namespace pathlab::flow_map_kinds_test

namespace pathlab::flow_map_kinds_test {

// On maps that are not plain a SectorField serves as one whole-map field: it equals Field's,
// before and after edits, and a plain map edited into one that is not switches to it.
TEST_P(FlowMapKinds, SectorFieldServesAsTheWholeMapField) {
  std::mt19937 rng(99 + static_cast<int>(GetParam()));
  for (int round = 0; round < 12; ++round) {
    Case c = random_case(GetParam(), rng, round);
    std::vector<Cell> free;
    for (int y = 0; y < c.grid.height(); ++y) {
      for (int x = 0; x < c.grid.width(); ++x) {
        if (!c.grid.between_layers(y) && !c.unit.forbids(c.grid.cell_class(x, y))) {
          free.push_back({x, y});
        }
      }
    }
    if (free.size() < 2) continue;
    const std::vector<Cell> goals{free[rng() % free.size()]};
    flow::Options o;
    o.moves = c.moves;
    o.unit = c.unit;
    flow::Field f;
    ASSERT_FALSE(f.build(c.grid, goals, o).has_value());
    flow::SectorField sf;
    ASSERT_FALSE(sf.build(c.grid, goals, o, 8).has_value());
    sf.require(std::vector<Cell>{free[0]});
    auto same = [&] {
      for (int y = 0; y < c.grid.height(); ++y) {
        for (int x = 0; x < c.grid.width(); ++x) {
          const Cell s{x, y};
          ASSERT_EQ(sf.distance(s), f.distance(s)) << x << "," << y;
          ASSERT_EQ(sf.direction(s), f.direction(s)) << x << "," << y;
          ASSERT_EQ(sf.next(s), f.next(s)) << x << "," << y;
        }
      }
    };
    same();
    const Cell a = free[rng() % free.size()], b = free[rng() % free.size()];
    if (!(a == b)) {
      EXPECT_FALSE(c.grid.add_link({a, b, 2.0f, false}).has_value());
    }
    f.update(c.grid);
    sf.update();
    EXPECT_FALSE(sf.stale());
    same();
  }
}

TEST(FlowMapKindsSectors, PlainMapEditedIntoEdgeWallsSwitchesToTheWholeField) {
  Grid g(20, 20);
  flow::Options o;
  const std::vector<Cell> goals{{2, 2}};
  flow::SectorField sf;
  ASSERT_FALSE(sf.build(g, goals, o, 8).has_value());
  sf.require(std::vector<Cell>{{18, 18}});
  for (int y = 0; y < 19; ++y) g.set_edge_wall(5, y, Side::east, true);  // a fence, gap at 19
  sf.update();
  flow::Field f;
  ASSERT_FALSE(f.build(g, goals, o).has_value());
  for (int y = 0; y < 20; ++y) {
    for (int x = 0; x < 20; ++x) {
      ASSERT_EQ(sf.distance({x, y}), f.distance({x, y})) << x << "," << y;
      ASSERT_EQ(sf.direction({x, y}), f.direction({x, y})) << x << "," << y;
    }
  }
  EXPECT_GT(sf.distance({18, 2}), 16.0);  // around the fence
}

}  // namespace pathlab::flow_map_kinds_test
