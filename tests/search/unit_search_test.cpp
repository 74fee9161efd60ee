// Searches for units (shared docs/ALGORITHMS.md, "Units" and "Changing maps"): every optimal
// algorithm, for random units (radius 0-2.5, random class costs and forbidden classes) on
// random grids with random classes, answers exactly as Dijkstra does on the plain grid copy
// built for the unit; after random edit sequences, finders kept across the edits (and their
// JPS+ tables and subgoal graphs) answer exactly as a fresh Dijkstra on the edited grid.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include <pathlab/grid/unit.hpp>
#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>

#include "test_grids.hpp"
#include "units.hpp"

using namespace pathlab;
using grid::Unit;

namespace {

/// The grid algorithms that promise least cost.
std::vector<search::Algorithm> optimal_grid_algorithms(bool small) {
  std::vector<search::Algorithm> out;
  for (const auto& a : search::algorithms()) {
    if (!a.optimal || a.any_angle) continue;
    if (a.algorithm == search::Algorithm::idastar && !small) continue;  // exponential on big maps
    out.push_back(a.algorithm);
  }
  return out;
}

/// Runs the finder from `from` to `to` and checks it against the reference distances on the
/// plain copy: same status, least cost, a legal path on the copy whose cost is the reported one.
void expect_matches(search::Pathfinder& f, const grid::Grid& plain, const std::vector<double>& ref,
                    Cell from, Cell to, const std::string& what) {
  const search::Result r = f.find(from, to);
  const double want = pathlab::testing::dist_at(ref, plain, to);
  if (!plain.passable(to) || !plain.passable(from)) {
    EXPECT_EQ(r.status, Status::invalid_input) << what;
    return;
  }
  if (std::isinf(want)) {
    EXPECT_EQ(r.status, Status::no_path) << what;
    return;
  }
  ASSERT_EQ(r.status, Status::found) << what;
  EXPECT_TRUE(pathlab::testing::near(r.cost, want)) << what << ": " << r.cost << " vs " << want;
  const auto bad = grid::check_path(plain, f.options().moves, r.path);
  EXPECT_FALSE(bad.has_value()) << what << ": " << bad.value_or("");
  EXPECT_TRUE(pathlab::testing::near(grid::path_cost(plain, f.options().moves, r.path), r.cost))
      << what;
  EXPECT_EQ(r.path.front(), from);
  EXPECT_EQ(r.path.back(), to);
}

}  // namespace

TEST(UnitSearch, EveryOptimalAlgorithmEqualsDijkstraOnThePlainCopy) {
  std::mt19937 rng(2024);
  for (std::uint32_t seed = 0; seed < 36; ++seed) {
    const bool small = seed % 3 == 0;
    const int w = small ? 14 : 20 + static_cast<int>(seed % 25);
    const int h = small ? 12 : 16 + static_cast<int>(seed % 19);
    const grid::Grid g = pathlab::testing::random_class_grid(
        seed, w, h, static_cast<int>(seed % 4) * 6, 35, seed % 4 == 1);
    for (int k = 0; k < 3; ++k) {
      const Unit u = pathlab::testing::random_unit(rng);
      const grid::Grid plain = pathlab::testing::plain_copy(g, u);
      const std::vector<Cell> cells = pathlab::testing::passable_cells(plain);
      if (cells.size() < 2) continue;
      const grid::Moves moves = pathlab::testing::kAllMoves[rng() % 6];
      for (int q = 0; q < 4; ++q) {
        const Cell from = cells[rng() % cells.size()];
        const auto ref = pathlab::testing::reference_distances(plain, moves, from);
        const Cell to = cells[rng() % cells.size()];
        for (const search::Algorithm a : optimal_grid_algorithms(small)) {
          search::Options o;
          o.algorithm = a;
          o.moves = moves;
          o.unit = u;
          search::Pathfinder f(g, o);
          const std::string what = std::string(search::to_string(a)) + " seed " +
                                   std::to_string(seed) + " radius " + std::to_string(u.radius) +
                                   " costs " + grid::class_costs_text(u) + " rule " +
                                   std::string(grid::to_string(moves.diagonal));
          expect_matches(f, plain, ref, from, to, what);
        }
      }
    }
  }
}

TEST(UnitSearch, AStartOnACellTheUnitCannotUseIsInvalid) {
  grid::Grid g(10, 10);
  g.set_class(2, 2, 'S');
  Unit u;
  u.set('S', Unit::forbidden);
  search::Options o;
  o.unit = u;
  search::Pathfinder f(g, o);
  EXPECT_EQ(f.find({2, 2}, {5, 5}).status, Status::invalid_input);
  u = Unit{};
  u.radius = 1.5;  // the corner cell is 0.5 from the outside
  o.unit = u;
  f.set_options(o);
  EXPECT_EQ(f.find({0, 0}, {5, 5}).status, Status::invalid_input);
  EXPECT_EQ(f.find({1, 1}, {5, 5}).status, Status::found);
  o.unit.radius = -2;
  f.set_options(o);
  EXPECT_EQ(f.find({5, 5}, {6, 6}).status, Status::invalid_input);
  EXPECT_TRUE(search::validate(o).has_value());
}

TEST(UnitSearch, JpsAnswersWithAStarForClassCostsAndSaysSo) {
  grid::Grid g(20, 10);
  for (int y = 0; y < 8; ++y) g.set_class(10, y, 'F');
  search::Options o;
  o.algorithm = search::Algorithm::jps;
  o.unit.set('F', 3.0f);
  search::Pathfinder f(g, o);
  const search::Result r = f.find({0, 0}, {19, 0});
  ASSERT_EQ(r.status, Status::found);
  EXPECT_NE(r.note.find("answered with A*"), std::string_view::npos) << r.note;
  EXPECT_EQ(search::fallback_note(g, o), r.note);
  // A radius alone keeps unit step costs: jump point search runs on the unit's view.
  o.unit = Unit{};
  o.unit.radius = 1.2;
  f.set_options(o);
  const search::Result s = f.find({2, 2}, {17, 7});
  EXPECT_EQ(s.status, Status::found);
  EXPECT_TRUE(s.note.empty()) << s.note;
}

TEST(UnitSearch, FindersKeptAcrossRandomEditsEqualAFreshDijkstra) {
  std::mt19937 rng(99);
  const search::Algorithm algos[] = {search::Algorithm::dijkstra, search::Algorithm::astar,
                                     search::Algorithm::jps,      search::Algorithm::jps_plus,
                                     search::Algorithm::subgoal,  search::Algorithm::subgoal_ch,
                                     search::Algorithm::biastar};
  for (std::uint32_t seed = 0; seed < 8; ++seed) {
    grid::Grid g = pathlab::testing::random_class_grid(seed, 24 + seed * 3, 20 + seed * 2, 18, 25);
    std::vector<Unit> units{Unit{}, Unit{}};
    units[1].radius = 1.5;
    if (seed % 2 == 1) units.push_back(pathlab::testing::random_unit(rng));
    std::vector<search::Pathfinder> finders;
    for (const Unit& u : units) {
      for (const search::Algorithm a : algos) {
        search::Options o;
        o.algorithm = a;
        o.unit = u;
        finders.emplace_back(g, o);
      }
    }
    for (int step = 0; step < 25; ++step) {
      grid::Edit e;
      e.kind = static_cast<grid::Edit::Kind>(rng() % 3);  // wall, free, class
      e.area.x0 = static_cast<int>(rng() % static_cast<unsigned>(g.width()));
      e.area.y0 = static_cast<int>(rng() % static_cast<unsigned>(g.height()));
      e.area.x1 = std::min(g.width() - 1, e.area.x0 + static_cast<int>(rng() % 3));
      e.area.y1 = std::min(g.height() - 1, e.area.y0 + static_cast<int>(rng() % 3));
      e.cls = pathlab::testing::kTestClasses[rng() % 5];
      ASSERT_FALSE(g.apply(e).has_value());
      for (std::size_t k = 0; k < units.size(); ++k) {
        const grid::Grid plain = pathlab::testing::plain_copy(g, units[k]);
        const std::vector<Cell> cells = pathlab::testing::passable_cells(plain);
        if (cells.size() < 2) continue;
        const Cell from = cells[rng() % cells.size()];
        const auto ref = pathlab::testing::reference_distances(plain, {}, from);
        for (int q = 0; q < 3; ++q) {
          const Cell to = cells[rng() % cells.size()];
          for (std::size_t i = 0; i < std::size(algos); ++i) {
            search::Pathfinder& f = finders[k * std::size(algos) + i];
            expect_matches(f, plain, ref, from, to,
                           std::string(search::to_string(algos[i])) + " seed " +
                               std::to_string(seed) + " step " + std::to_string(step) + " unit " +
                               std::to_string(k));
          }
        }
      }
    }
  }
}
