// libFuzzer target: the competition's dynamic-track reader (pathlab::io::parse_patches,
// parse_dynamic_scenario) and Grid::paste. The input is a scenario file, a line "%%", then its
// patch file. Malformed input may only raise ParseError; a scenario that parses must respect the
// documented bounds, and on a map of up to 64k cells every patch command must paste without a
// message (the reader checked that it fits) and leave the grid equal to pasting it cell by cell.
// On maps of up to 4096 cells the queries then run, as the track runs them, through a
// subgoal-ch and a subgoal finder (their graphs repaired after each patch) and must cost what
// Dijkstra's do.
#include <pathlab/grid/grid.hpp>
#include <pathlab/io/dynamic.hpp>
#include <pathlab/search/pathfinder.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t cut = input.find("\n%%\n");
  const std::string_view scen = input.substr(0, cut);
  const std::string_view patch_text =
      cut == std::string_view::npos ? std::string_view() : input.substr(cut + 4);
  pathlab::io::DynamicScenario s;
  try {
    s = pathlab::io::parse_dynamic_scenario(
        scen, "fuzz.scen", pathlab::io::parse_patches(patch_text, "fuzz.patch"), "fuzz.patch");
  } catch (const pathlab::ParseError&) {
    return 0;
  }
  if (s.width < 1 || s.height < 1 || s.width > pathlab::io::kDynamicMaxSide ||
      s.height > pathlab::io::kDynamicMaxSide) {
    __builtin_trap();
  }
  for (const auto& p : s.patches) {
    if (p.width < 1 || p.height < 1 ||
        p.blocked.size() != static_cast<std::size_t>(p.width) * static_cast<std::size_t>(p.height))
      __builtin_trap();
  }
  using Kind = pathlab::io::DynamicCommand::Kind;
  for (const auto& c : s.commands) {
    if (c.kind == Kind::query) {
      if (c.start.x < 0 || c.start.y < 0 || c.start.x >= s.width || c.start.y >= s.height ||
          c.goal.x < 0 || c.goal.y < 0 || c.goal.x >= s.width || c.goal.y >= s.height ||
          !std::isfinite(c.length))
        __builtin_trap();
    } else if (c.patch < 0 || static_cast<std::size_t>(c.patch) >= s.patches.size()) {
      __builtin_trap();
    }
  }
  if (std::int64_t{s.width} * s.height > 65536) return 0;
  pathlab::grid::Grid g(s.width, s.height), cellwise(s.width, s.height);
  for (const auto& c : s.commands) {
    if (c.kind != Kind::patch) continue;
    const auto& p = s.patches[static_cast<std::size_t>(c.patch)];
    if (g.paste(c.at, p.width, p.height, p.blocked)) __builtin_trap();
    for (int y = 0; y < p.height; ++y) {
      for (int x = 0; x < p.width; ++x) {
        pathlab::grid::Edit e;
        e.kind = p.blocked[static_cast<std::size_t>(y * p.width + x)] != 0
                     ? pathlab::grid::Edit::Kind::wall
                     : pathlab::grid::Edit::Kind::free;
        e.area = {c.at.x + x, c.at.y + y, c.at.x + x, c.at.y + y};
        if (cellwise.apply(e)) __builtin_trap();
      }
    }
  }
  if (!(g == cellwise)) __builtin_trap();
  if (std::int64_t{s.width} * s.height > 4096) return 0;
  pathlab::grid::Grid map(s.width, s.height);
  pathlab::search::Options o;
  o.algorithm = pathlab::search::Algorithm::subgoal_ch;
  pathlab::search::Pathfinder hierarchy(map, o);
  o.algorithm = pathlab::search::Algorithm::subgoal;
  pathlab::search::Pathfinder two_level(map, o);
  o.algorithm = pathlab::search::Algorithm::dijkstra;
  pathlab::search::Pathfinder reference(map, o);
  pathlab::search::Result a, b;
  for (const auto& c : s.commands) {
    if (c.kind == Kind::patch) {
      const auto& p = s.patches[static_cast<std::size_t>(c.patch)];
      if (map.paste(c.at, p.width, p.height, p.blocked)) __builtin_trap();
      continue;
    }
    reference.find(c.start, c.goal, b);
    for (pathlab::search::Pathfinder* f : {&hierarchy, &two_level}) {
      f->find(c.start, c.goal, a);
      if (a.status != b.status) __builtin_trap();
      if (a.status == pathlab::Status::found && std::abs(a.cost - b.cost) > 1e-9 * (1 + b.cost))
        __builtin_trap();
    }
  }
  return 0;
}
