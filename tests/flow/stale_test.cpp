// A flow field read after edits answers for the old map: Field::stale and SectorField::stale
// say so (stale after an edit, current after update()), and the sight range includes a cell
// exactly at that distance (field.hpp, Options::sight_range).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <pathlab/flow/field.hpp>
#include <pathlab/flow/sectors.hpp>
#include <pathlab/grid/grid.hpp>

using namespace pathlab;

TEST(FlowStale, AFieldIsStaleAfterAnEditAndCurrentAfterUpdate) {
  grid::Grid g(30, 20);
  const std::vector<Cell> goals{{2, 2}};
  flow::Field f;
  EXPECT_FALSE(f.stale(g));  // empty: nothing to update
  ASSERT_FALSE(f.build(g, goals, {}).has_value());
  EXPECT_FALSE(f.stale(g));
  const double before = f.distance({20, 2});
  // An edit that changes nothing keeps the revision, and the field current.
  ASSERT_FALSE(g.apply({grid::Edit::Kind::free, {10, 0, 10, 19}}).has_value());
  EXPECT_FALSE(f.stale(g));
  // A wall across the way: the field still answers for the old map until update().
  ASSERT_FALSE(g.apply({grid::Edit::Kind::wall, {10, 0, 10, 18}}).has_value());
  EXPECT_TRUE(f.stale(g));
  EXPECT_EQ(f.distance({20, 2}), before);
  const flow::Stats s = f.update(g);
  EXPECT_FALSE(f.stale(g));
  EXPECT_GT(s.settled, 0);
  EXPECT_GT(f.distance({20, 2}), before);
  flow::Field fresh;
  ASSERT_FALSE(fresh.build(g, goals, {}).has_value());
  const std::vector<double> got = f.distances(), want = fresh.distances();
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(got[i] == want[i] || std::abs(got[i] - want[i]) <= 1e-9 * want[i]) << i;
  }
  // Another grid (a copy: same cells) is not the one the field was built on.
  const grid::Grid copy = g;
  EXPECT_TRUE(f.stale(copy));
}

TEST(FlowStale, ASectorFieldIsStaleAfterAnEditAndCurrentAfterUpdate) {
  grid::Grid g(128, 64);
  flow::SectorField f;
  EXPECT_FALSE(f.stale());
  const std::vector<Cell> goals{{3, 3}};
  ASSERT_FALSE(f.build(g, goals, {}, 32).has_value());
  const std::vector<Cell> units{{100, 40}};
  f.require(units);
  EXPECT_FALSE(f.stale());
  // Far from every labelled sector: nothing to recompute, but stale until update() notes it.
  ASSERT_FALSE(g.apply({grid::Edit::Kind::wall, {120, 2, 121, 3}}).has_value());
  EXPECT_TRUE(f.stale());
  f.update();
  EXPECT_FALSE(f.stale());
  const double before = f.distance({100, 40});
  ASSERT_FALSE(g.apply({grid::Edit::Kind::wall, {50, 0, 50, 62}}).has_value());
  EXPECT_TRUE(f.stale());
  EXPECT_EQ(f.distance({100, 40}), before);  // the old map's answer
  f.update();
  EXPECT_FALSE(f.stale());
  EXPECT_GT(f.distance({100, 40}), before);
}

TEST(FlowSight, ACellExactlyAtTheSightRangeCounts) {
  grid::Grid g(21, 21);
  const Cell goal{10, 10};
  flow::Options o;
  o.sight_range = 5;
  flow::Field f;
  ASSERT_FALSE(f.build(g, std::vector<Cell>{goal}, o).has_value());
  // Exactly 5 away (straight, and the 3-4-5 diagonal): marked.
  for (const Cell c : {Cell{15, 10}, Cell{5, 10}, Cell{10, 15}, Cell{13, 14}, Cell{6, 7}}) {
    EXPECT_EQ(f.sees(c), 0) << c.x << "," << c.y;
    const auto p = f.steer({c.x + 0.5, c.y + 0.5});
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->x, goal.x + 0.5);
    EXPECT_EQ(p->y, goal.y + 0.5);
  }
  // Just beyond: not marked.
  for (const Cell c : {Cell{16, 10}, Cell{15, 11}, Cell{14, 14}}) {
    EXPECT_EQ(f.sees(c), -1) << c.x << "," << c.y;
  }
  // The range 0 turns the pass off; the goal still steers at its centre.
  o.sight_range = 0;
  ASSERT_FALSE(f.build(g, std::vector<Cell>{goal}, o).has_value());
  EXPECT_EQ(f.sees({11, 10}), -1);
  EXPECT_EQ(f.sees(goal), -1);
  ASSERT_TRUE(f.steer({10.5, 10.5}).has_value());
}
