// Bodies on hex maps (docs/simulation.md, "Hex maps"): the map a disc of radius r walks on.
// Positions are in hex units (grid::hex::centre: neighbouring centres 1 apart, a hex's inradius
// 0.5, its corner radius 1/sqrt 3); walls are the wall hexagons and the hexes outside the map.
//
// Two things decide where a body goes. It must fit where it stands: at a hex's centre a disc
// of radius r touches no wall exactly when no wall lies within hex distance k, the least k
// whose next ring of hexes is at least r away (hex_whole_radius), so the planners use the view
// of a unit of whole radius k. And it must fit through the edge between two hexes: that edge is
// 1/sqrt 3 long, so between walls at both of its ends only a body of radius up to 1/(2 sqrt 3)
// passes. hex_body_map() puts a wall on every hex edge the body cannot cross, so that every
// planner (A*, flow fields, make_crowd's components) sees only ways the body can take.
#pragma once

#include <optional>

#include <pathlab/agents/geometry.hpp>
#include <pathlab/grid/grid.hpp>

namespace pathlab::agents::detail {

/// The nearest point of the closed hexagon of cell (x, y) (hex units) to p, as
/// nearest_on_polygon gives it.
[[nodiscard]] NearestPoint nearest_on_hexagon(grid::Layout l, Vec2 p, int x, int y) noexcept;

/// The least whole radius k (in hexes) such that every hex at hex distance k + 1 from a hex's
/// centre lies at least r from it: 0 up to r = 0.5, 1 up to 2/sqrt 3 ~ 1.155, and so on.
/// [Limit: r finite and at most the greatest radius grid::Unit allows, in hexes.]
[[nodiscard]] int hex_whole_radius(double r);

/// Whether a disc of radius r can cross from hex (x, y) to its neighbour in direction d on a
/// map whose hexes within whole radius hex_whole_radius(r) of both are free: some point of
/// their shared edge lies at least r from every wall hexagon (exact for whole radius 0, where
/// only the two hexes at the ends of the edge matter; for wider bodies the edge is sampled at
/// 33 points, which can only miss a way narrower than the body by under 1/64 of a hex). Walls
/// are what the simulation's bodies meet: hexes the default unit cannot enter, and the outside.
[[nodiscard]] bool hex_body_crosses(const grid::Grid& map, int x, int y, int d, double r);

/// Where a disc of radius r best crosses from hex (x, y) to its neighbour in direction d: the
/// point of their shared edge farthest from every wall hexagon (of 33 along it, the middle one
/// on ties), or nothing when even that one is closer than r to a wall.
[[nodiscard]] std::optional<Point> hex_crossing(const grid::Grid& map, int x, int y, int d,
                                                double r);

/// `map` (a hex map) with a wall on every hex edge between two hexes where a body of radius r
/// fits (the view of whole radius hex_whole_radius(r) for a unit that enters every class but
/// walls) that the body cannot cross (hex_body_crosses). The map itself for bodies of radius
/// up to 1/(2 sqrt 3), which cross every edge.
[[nodiscard]] grid::Grid hex_body_map(const grid::Grid& map, double r);

}  // namespace pathlab::agents::detail
