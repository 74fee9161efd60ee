// The moves of every map kind (shared docs/ALGORITHMS.md: "Grid moves and costs", "Hex grids",
// "Walls on cell edges", "Layered maps"): one neighbour iteration that search, flow fields and
// agents share. A plain grid (square, no edge walls, no links: Grid::plain) goes through
// for_each_neighbour, the fast path of moves.hpp; every other map through for_each_move, which
// knows hex layouts, edge walls and links. Layers need nothing of their own: floors are stacked
// in one grid with wall rows between them, and only links join them.
#pragma once

#include <array>
#include <type_traits>

#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/hex.hpp>
#include <pathlab/grid/moves.hpp>

/// The per-move bodies must inline into the neighbour loops (a call per move costs more than the
/// move).
#if defined(__GNUC__)
#define PATHLAB_MOVE_INLINE __attribute__((always_inline))
#else
#define PATHLAB_MOVE_INLINE
#endif

namespace pathlab::grid {

/// What a step costs before terrain: a straight (and hex) step and a diagonal one.
struct StepBase {
  double straight = 1.0;                 ///< a straight square step, and every hex step
  double diagonal = 1.4142135623730951;  ///< a diagonal square step
};
/// The base costs of `m`.
[[nodiscard]] inline StepBase step_base(const Moves& m) noexcept {
  return {m.straight_cost(), m.diagonal_cost()};
}

/// The direction code of a move through a link: 8 on square layouts (after the eight grid
/// directions), 6 on hex layouts (after the six).
[[nodiscard]] constexpr int link_direction(Layout l) noexcept {
  return is_hex(l) ? 6 : 8;
}
/// Grid directions of a layout: 8 square, 6 hex (codes 0..n-1; link_direction() after them).
[[nodiscard]] constexpr int directions(Layout l) noexcept {
  return is_hex(l) ? 6 : 8;
}

namespace detail {
inline constexpr std::array<std::array<std::array<hex::Offset, 6>, 2>, 5> kHexOffsets = {
    hex::offsets(Layout::square), hex::offsets(Layout::pointy_odd_r),
    hex::offsets(Layout::pointy_even_r), hex::offsets(Layout::flat_odd_q),
    hex::offsets(Layout::flat_even_q)};
}  // namespace detail

/// The six hex neighbours of node n as (padded id, direction 0..5) for f; unchecked (the
/// padding reads as walls). Passability not tested.
template <class F>
inline void for_each_hex_cell(const Grid& g, NodeId n, F&& f) {
  const Layout l = g.layout();
  const std::int32_t s = g.stride();
  const NodeId row = n / static_cast<NodeId>(s);
  const bool odd = hex::pointy(l) ? ((row - 1) & 1) != 0 : (((n - row * s) - 1) & 1) != 0;
  const auto& off = detail::kHexOffsets[static_cast<int>(l)][odd];
  for (int d = 0; d < 6; ++d) {
    f(static_cast<NodeId>(static_cast<std::int64_t>(n) + off[d].dy * s + off[d].dx), d);
  }
}

/// Whether the straight step from node n in direction d (0..3: N, E, S, W) crosses an edge wall.
[[nodiscard]] inline bool edge_blocked(const Grid& g, NodeId n, int d) noexcept {
  const NodeId s = static_cast<NodeId>(g.stride());
  switch (d) {
    case 0:
      return g.wall_south_id(n - s);
    case 1:
      return g.wall_east_id(n);
    case 2:
      return g.wall_south_id(n);
    default:
      return g.wall_east_id(n - 1);
  }
}

/// Calls f(m, dir, cost) for every legal move n -> m out of passable node n on any map: the
/// grid moves of its layout (edge walls honoured under rule R), then its links (direction
/// link_direction(), cost the link's). cost = base x terrain of m for grid moves. Moves are
/// symmetric but for one-way links and the terrain paid: for_each_move_in gives predecessors.
template <DiagonalRule R, class F>
inline void for_each_move(const Grid& g, NodeId n, StepBase base, F&& f) {
  const bool terrain = g.has_terrain();
  auto cost = [&](double b, NodeId m)
                  PATHLAB_MOVE_INLINE { return terrain ? b * g.terrain_id(m) : b; };
  if (is_hex(g.layout())) {
    if (!g.has_edge_walls()) {
      for_each_hex_cell(g, n, [&](NodeId m, int d) PATHLAB_MOVE_INLINE {
        if (g.passable_id(m)) f(m, d, cost(base.straight, m));
      });
    } else {
      for_each_hex_cell(g, n, [&](NodeId m, int d) PATHLAB_MOVE_INLINE {
        if (g.passable_id(m) && !g.wall_hex_id(n, m, d)) f(m, d, cost(base.straight, m));
      });
    }
  } else if (!g.has_edge_walls()) {
    for_each_neighbour<R>(g, n, [&](NodeId m, int d) PATHLAB_MOVE_INLINE {
      f(m, d, cost(d >= 4 ? base.diagonal : base.straight, m));
    });
  } else {
    const std::int32_t s = g.stride();
    const NodeId up = n - s, down = n + s, left = n - 1, right = n + 1;
    const bool pu = g.passable_id(up), pr = g.passable_id(right);
    const bool pd = g.passable_id(down), pl = g.passable_id(left);
    // Open edges around n: to its four neighbours.
    const bool eu = !g.wall_south_id(up), er = !g.wall_east_id(n);
    const bool ed = !g.wall_south_id(n), el = !g.wall_east_id(left);
    if (pu && eu) f(up, 0, cost(base.straight, up));
    if (pr && er) f(right, 1, cost(base.straight, right));
    if (pd && ed) f(down, 2, cost(base.straight, down));
    if (pl && el) f(left, 3, cost(base.straight, left));
    if constexpr (R != DiagonalRule::never) {
      // Diagonal n -> c through side cells a (vertical first) and b (horizontal first): route 1
      // n -> a -> c crosses edges e_na and e_ac, route 2 n -> b -> c crosses e_nb and e_bc.
      auto diag = [&](NodeId c, int d, bool pa, bool e_na, bool e_ac, bool pb, bool e_nb,
                      bool e_bc) PATHLAB_MOVE_INLINE {
        if (!g.passable_id(c)) return;
        const bool r1 = pa && e_na && e_ac, r2 = pb && e_nb && e_bc;
        bool ok;
        if constexpr (R == DiagonalRule::no_corner_cut) {
          ok = r1 && r2;
        } else if constexpr (R == DiagonalRule::one_corner) {
          ok = r1 || r2;
        } else {
          ok = e_na && e_ac && e_nb && e_bc;  // always: no edge at the corner blocked
        }
        if (ok) f(c, d, cost(base.diagonal, c));
      };
      // NE: a = up, b = right; e_ac = up|up+1 (east of up), e_bc = right|right-s (south of up+1).
      diag(up + 1, 4, pu, eu, !g.wall_east_id(up), pr, er, !g.wall_south_id(up + 1));
      // SE: a = down, b = right; e_ac = east of down, e_bc = south of right.
      diag(down + 1, 5, pd, ed, !g.wall_east_id(down), pr, er, !g.wall_south_id(right));
      // SW: a = down, b = left; e_ac = east of down-1, e_bc = south of left.
      diag(down - 1, 6, pd, ed, !g.wall_east_id(down - 1), pl, el, !g.wall_south_id(left));
      // NW: a = up, b = left; e_ac = east of up-1, e_bc = south of up-1.
      diag(up - 1, 7, pu, eu, !g.wall_east_id(up - 1), pl, el, !g.wall_south_id(up - 1));
    }
  }
  if (g.link_out_id(n)) {
    const int ld = link_direction(g.layout());
    for (const Grid::Arc& a : g.out_links(n)) {
      if (g.passable_id(a.to)) f(a.to, ld, static_cast<double>(a.cost));
    }
  }
}

/// Calls f(m, dir, cost) for every legal move m -> n into passable node n: dir is the
/// direction of n -> m as for_each_move names it for grid moves (they are symmetric), the link
/// direction for links; cost is that of the move m -> n (terrain of n, or the link's).
template <DiagonalRule R, class F>
inline void for_each_move_in(const Grid& g, NodeId n, StepBase base, F&& f) {
  const double t = g.has_terrain() ? static_cast<double>(g.terrain_id(n)) : 1.0;
  const bool links = g.link_out_id(n);
  // The grid moves out of n, less the links (handled below, reversed).
  for_each_move<R>(g, n, base, [&](NodeId m, int d, double) {
    if (links && d == link_direction(g.layout())) return;
    f(m, d, (d >= 4 && !is_hex(g.layout()) ? base.diagonal : base.straight) * t);
  });
  if (g.link_in_id(n)) {
    const int ld = link_direction(g.layout());
    for (const Grid::Arc& a : g.in_links(n)) {
      if (g.passable_id(a.from)) f(a.from, ld, static_cast<double>(a.cost));
    }
  }
}

/// A compile-time choice of neighbour iteration: rule R, and whether the map needs
/// for_each_move (General) or is plain (the for_each_neighbour fast path).
template <DiagonalRule R, bool General>
struct Topology {
  static constexpr DiagonalRule rule = R;   ///< the diagonal rule
  static constexpr bool general = General;  ///< hex, edge walls or links: for_each_move
};

/// for_each_move, or the plain fast path: f(m, dir, cost) with cost = base x terrain of m.
template <class T, class F>
inline void for_each_step(const Grid& g, NodeId n, StepBase base, F&& f) {
  if constexpr (T::general) {
    for_each_move<T::rule>(g, n, base, f);
  } else {
    const bool terrain = g.has_terrain();
    for_each_neighbour<T::rule>(g, n, [&](NodeId m, int d) PATHLAB_MOVE_INLINE {
      const double b = d >= 4 ? base.diagonal : base.straight;
      f(m, d, terrain ? b * g.terrain_id(m) : b);
    });
  }
}

/// Runtime dispatch on the rule and the map kind: body(Topology<R, !g.plain()>{}).
template <class Body>
inline decltype(auto) dispatch_topology(const Grid& g, DiagonalRule r, Body&& body) {
  return dispatch_rule(r, [&](auto rule) -> decltype(auto) {
    constexpr DiagonalRule R = decltype(rule)::value;
    if (g.plain()) return body(Topology<R, false>{});
    return body(Topology<R, true>{});
  });
}

}  // namespace pathlab::grid
