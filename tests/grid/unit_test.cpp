// Units on one grid (shared docs/ALGORITHMS.md, "Units" and "Changing maps"): the clearance
// field against the definition, each unit's view against the plain grid copy built for it,
// the edit API (a grid edited equals one built fresh with the same cells, and every cached
// view is repaired), the change log, and the --class-cost parser.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/unit.hpp>

#include "units.hpp"

using namespace pathlab;
using grid::Edit;
using grid::Unit;

namespace {

/// A grid with the same cells as g, built cell by cell from nothing.
grid::Grid rebuilt(const grid::Grid& g) {
  grid::Grid out(g.width(), g.height());
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      const char c = g.cell_class(x, y);
      if (c == grid::kWallClass) {
        out.set_blocked(x, y, true);
      } else if (c != grid::kGroundClass) {
        out.set_class(x, y, c);
      }
      if (g.terrain(x, y) != 1.0f) out.set_terrain(x, y, g.terrain(x, y));
    }
  }
  return out;
}

Edit random_edit(std::mt19937& rng, const grid::Grid& g) {
  Edit e;
  e.kind = static_cast<Edit::Kind>(rng() % 4);
  const int w = 1 + static_cast<int>(rng() % (rng() % 4 == 0 ? 6 : 1));
  const int h = 1 + static_cast<int>(rng() % (rng() % 4 == 0 ? 6 : 1));
  e.area.x0 = static_cast<int>(rng() % static_cast<unsigned>(g.width()));
  e.area.y0 = static_cast<int>(rng() % static_cast<unsigned>(g.height()));
  e.area.x1 = std::min(g.width() - 1, e.area.x0 + w - 1);
  e.area.y1 = std::min(g.height() - 1, e.area.y0 + h - 1);
  e.cls = pathlab::testing::kTestClasses[rng() % 5];
  const float costs[] = {1.0f, 1.5f, 2.0f, 3.0f};
  e.cost = costs[rng() % 4];
  return e;
}

}  // namespace

TEST(Units, DefaultUnitFollowsTheMovingAiRules) {
  const Unit u;
  EXPECT_EQ(u.radius, 0);
  EXPECT_TRUE(u.forbids('T'));
  EXPECT_TRUE(u.forbids('W'));
  EXPECT_TRUE(u.forbids('@'));
  EXPECT_EQ(u.class_cost('.'), 1.0f);
  EXPECT_EQ(u.class_cost('S'), 1.0f);
  // The grid's own bits are the default unit's: T and W read as walls, S as ground.
  grid::Grid g(4, 1);
  g.set_class(0, 0, 'S');
  g.set_class(1, 0, 'T');
  g.set_class(2, 0, 'W');
  EXPECT_TRUE(g.passable(0, 0));
  EXPECT_FALSE(g.passable(1, 0));
  EXPECT_FALSE(g.passable(2, 0));
  EXPECT_EQ(g.cell_class(1, 0), 'T');
  EXPECT_TRUE(g.sees_alike(u));
  EXPECT_EQ(g.view(u).get(), &g);
  // Freeing a tree makes ground; blocking makes a wall.
  g.set_blocked(1, 0, false);
  EXPECT_EQ(g.cell_class(1, 0), '.');
  g.set_blocked(0, 0, true);
  EXPECT_EQ(g.cell_class(0, 0), '@');
}

TEST(Units, ClearanceEqualsTheDefinition) {
  std::mt19937 rng(7);
  for (std::uint32_t seed = 0; seed < 25; ++seed) {
    const grid::Grid g = pathlab::testing::random_class_grid(seed, 8 + seed % 23, 6 + seed % 19,
                                                             static_cast<int>(seed % 4) * 8);
    const Unit u = pathlab::testing::random_unit(rng);
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        ASSERT_DOUBLE_EQ(grid::clearance(g, u, {x, y}),
                         pathlab::testing::brute_clearance(g, u, x, y))
            << "seed " << seed << " cell " << x << "," << y;
      }
    }
  }
}

TEST(Units, ClearanceIsExactUpToTheLargestRadius) {
  // An open 60x60 map: the centre is 29.5 from the outside, beyond the field's reach; every
  // cell up to 16.5 away reads exactly, farther ones at least as far as any radius needs.
  const grid::Grid g(60, 60);
  const Unit u;
  for (int x = 0; x < 30; ++x) {
    const double want = x + 0.5;
    const double got = grid::clearance(g, u, {x, 30});
    if (want <= Unit::max_radius + 0.5) {
      EXPECT_DOUBLE_EQ(got, want) << x;
    } else {
      EXPECT_GT(got, Unit::max_radius) << x;
    }
  }
  Unit big;
  big.radius = Unit::max_radius;
  const auto v = g.view(big);
  EXPECT_TRUE(v->passable(29, 29));
  EXPECT_TRUE(v->passable(16, 30));  // 16.5 from the left side
  EXPECT_FALSE(v->passable(15, 30));
}

TEST(Units, EachUnitsViewEqualsItsPlainGridCopy) {
  std::mt19937 rng(11);
  for (std::uint32_t seed = 0; seed < 40; ++seed) {
    const grid::Grid g = pathlab::testing::random_class_grid(
        seed, 10 + seed % 27, 8 + seed % 21, static_cast<int>(seed % 4) * 7, 35, seed % 2 == 0);
    for (int k = 0; k < 4; ++k) {
      const Unit u = pathlab::testing::random_unit(rng);
      const grid::Grid want = pathlab::testing::plain_copy(g, u);
      const auto v = g.view(u);
      ASSERT_TRUE(*v == want) << "seed " << seed << " unit " << k << " radius " << u.radius
                              << " costs " << grid::class_costs_text(u);
      // Asked again: the same cached view.
      EXPECT_EQ(g.view(u).get(), v.get());
    }
  }
}

TEST(Units, ARadiusServesEveryFreeCellUpToHalfACell) {
  const grid::Grid g = pathlab::testing::random_class_grid(3, 30, 20, 20, 0);
  for (const double r : {0.0, 0.25, 0.5}) {
    Unit u;
    u.radius = r;
    EXPECT_TRUE(g.sees_alike(u)) << r;
  }
  Unit u;
  u.radius = 0.51;
  EXPECT_FALSE(g.sees_alike(u));
  EXPECT_TRUE(*g.view(u) == pathlab::testing::plain_copy(g, u));
}

TEST(Units, InvalidUnitsAreRefused) {
  Unit u;
  u.radius = -1;
  EXPECT_TRUE(grid::validate(u).has_value());
  u.radius = Unit::max_radius + 0.1;
  EXPECT_TRUE(grid::validate(u).has_value());
  u.radius = std::nan("");
  EXPECT_TRUE(grid::validate(u).has_value());
  u = Unit{};
  u.set('S', 0.5f);
  EXPECT_TRUE(grid::validate(u).has_value());
  EXPECT_THROW((void)grid::Grid(3, 3).view(u), std::invalid_argument);
}

TEST(Edits, AnEditedGridEqualsAFreshOneAndItsViewsAreRepaired) {
  std::mt19937 rng(5);
  for (std::uint32_t seed = 0; seed < 12; ++seed) {
    grid::Grid g = pathlab::testing::random_class_grid(seed, 12 + seed % 20, 10 + seed % 15, 15, 30,
                                                       seed % 3 == 0);
    std::vector<Unit> units{Unit{}, Unit{}, pathlab::testing::random_unit(rng),
                            pathlab::testing::random_unit(rng)};
    units[0].radius = 1.5;
    units[1].radius = 2.5;
    units[1].set('S', Unit::forbidden);
    std::vector<std::shared_ptr<const grid::Grid>> views;
    for (const Unit& u : units) views.push_back(g.view(u));
    for (int step = 0; step < 30; ++step) {
      const Edit e = random_edit(rng, g);
      const std::uint64_t before = g.revision();
      ASSERT_FALSE(g.apply(e).has_value());
      std::vector<grid::Rect> changed;
      ASSERT_TRUE(g.changes_since(before, changed));
      if (g.revision() != before) {
        ASSERT_EQ(changed.size(), 1u);
        EXPECT_EQ(changed[0], e.area);
      }
      const grid::Grid fresh = rebuilt(g);
      ASSERT_TRUE(g == fresh) << "seed " << seed << " step " << step;
      EXPECT_EQ(g.checksum(), fresh.checksum());
      for (std::size_t k = 0; k < units.size(); ++k) {
        const auto v = g.view(units[k]);
        if (g.sees_alike(units[k])) continue;
        // The cached view was repaired in place, and equals a view built from nothing.
        EXPECT_EQ(v.get(), views[k].get());
        ASSERT_TRUE(*v == pathlab::testing::plain_copy(g, units[k]))
            << "seed " << seed << " step " << step << " unit " << k;
        ASSERT_TRUE(*v == *fresh.view(units[k]));
      }
      // The clearance fields were repaired too.
      for (int y = 0; y < g.height(); ++y) {
        for (int x = 0; x < g.width(); ++x) {
          ASSERT_DOUBLE_EQ(grid::clearance(g, units[1], {x, y}),
                           pathlab::testing::brute_clearance(g, units[1], x, y))
              << "seed " << seed << " step " << step << " cell " << x << "," << y;
        }
      }
    }
  }
}

TEST(Edits, ViewsRecordTheAreaTheirCellsMayHaveChanged) {
  grid::Grid g(40, 40);
  Unit u;
  u.radius = 2.0;
  const auto v = g.view(u);
  const std::uint64_t before = v->revision();
  ASSERT_FALSE(g.apply({Edit::Kind::wall, {20, 20, 21, 20}}).has_value());
  std::vector<grid::Rect> changed;
  ASSERT_TRUE(v->changes_since(before, changed));
  ASSERT_EQ(changed.size(), 1u);
  // Every cell whose usability changed lies inside the recorded area.
  const grid::Grid old_plain = pathlab::testing::plain_copy(grid::Grid(40, 40), u);
  for (int y = 0; y < 40; ++y) {
    for (int x = 0; x < 40; ++x) {
      if (old_plain.passable(x, y) == v->passable(x, y)) continue;
      EXPECT_TRUE(x >= changed[0].x0 && x <= changed[0].x1 && y >= changed[0].y0 &&
                  y <= changed[0].y1)
          << x << "," << y;
    }
  }
}

TEST(Edits, TheLogReachesBackALimitedWay) {
  grid::Grid g(10, 10);
  const std::uint64_t first = g.revision();
  std::vector<grid::Rect> changed;
  EXPECT_TRUE(g.changes_since(first, changed));
  EXPECT_TRUE(changed.empty());
  for (std::size_t i = 0; i < 3 * grid::Grid::kChangeLogSize; ++i) {
    const int x = static_cast<int>(i % 10), y = static_cast<int>(i / 10 % 10);
    g.set_blocked(x, y, g.passable(x, y));  // a toggle: every call changes the grid
  }
  EXPECT_FALSE(g.changes_since(first, changed));
  EXPECT_FALSE(g.changes_since(12345, changed));
  // An edit that changes nothing keeps the revision.
  const std::uint64_t r = g.revision();
  ASSERT_FALSE(g.apply({Edit::Kind::terrain, {0, 0, 9, 9}, '.', 1.0f}).has_value());
  EXPECT_EQ(g.revision(), r);
}

TEST(Edits, BadEditsAreRefusedAndChangeNothing) {
  grid::Grid g(10, 8);
  const grid::Grid before = g;
  const std::uint64_t rev = g.revision();
  auto message = [&](Edit e) {
    auto m = g.apply(e);
    EXPECT_TRUE(m.has_value());
    return m.value_or("");
  };
  EXPECT_EQ(message({Edit::Kind::wall, {10, 0, 10, 0}}), "cell 10,0 is outside the 10x8 map");
  EXPECT_EQ(message({Edit::Kind::wall, {-1, 0, 3, 3}}),
            "rectangle -1,0:3,3 is outside the 10x8 map");
  EXPECT_NE(message({Edit::Kind::wall, {3, 3, 2, 2}}).find("out of order"), std::string::npos);
  EXPECT_NE(message({Edit::Kind::set_class, {0, 0, 0, 0}, ' '}).find("class"), std::string::npos);
  EXPECT_NE(message({Edit::Kind::terrain, {0, 0, 0, 0}, '.', 0.5f}).find(">= 1"),
            std::string::npos);
  EXPECT_TRUE(g == before);
  EXPECT_EQ(g.revision(), rev);
}

TEST(ClassCosts, ParsesTheCliSyntax) {
  Unit u;
  ASSERT_FALSE(grid::parse_class_costs("T=2,W=x,G=1.5,S=X,F=4", u).has_value());
  EXPECT_EQ(u.class_cost('T'), 2.0f);
  EXPECT_TRUE(u.forbids('W'));
  EXPECT_TRUE(u.forbids('S'));
  EXPECT_EQ(u.class_cost('.'), 1.5f);  // G is ground
  EXPECT_EQ(u.class_cost('F'), 4.0f);
  EXPECT_EQ(grid::class_costs_text(u), ".=1.5,F=4,S=x,T=2");
  // Ground given as '.' and as 'G' is the same class twice.
  Unit v;
  EXPECT_TRUE(grid::parse_class_costs(".=2,G=3", v).has_value());
}

TEST(ClassCosts, MalformedTextGetsAClearMessageAndChangesNothing) {
  const std::pair<const char*, const char*> bad[] = {
      {"", "empty class costs"},
      {"T", "has no '='"},
      {"T=", "no value is not a number"},
      {"TT=2", "one character"},
      {"=2", "one character"},
      {"T=0.5", "from 1 to 1e9"},
      {"T=abc", "'abc' is not a number or x"},
      {"T=nan", "from 1 to 1e9"},
      {"T=inf", "from 1 to 1e9"},
      {"T=2,,W=3", "empty item"},
      {"T=2,", "empty item"},
      {"@=2", "not a terrain class"},
      {"O=2", "not a terrain class"},
      {"T=2,T=3", "given twice"},
      {"\x01=2", "printable"},
      {"T=1e10", "from 1 to 1e9"},
  };
  for (const auto& [text, want] : bad) {
    Unit u;
    const Unit before = u;
    const auto m = grid::parse_class_costs(text, u);
    ASSERT_TRUE(m.has_value()) << text;
    EXPECT_NE(m->find(want), std::string::npos) << text << " -> " << *m;
    EXPECT_TRUE(u == before) << text;
  }
}

TEST(ClassCosts, TextRoundTrips) {
  std::mt19937 rng(3);
  for (int i = 0; i < 100; ++i) {
    const Unit u = pathlab::testing::random_unit(rng);
    Unit back;
    const std::string text = grid::class_costs_text(u);
    if (text.empty()) {
      EXPECT_TRUE(u.cost == back.cost);
      continue;
    }
    ASSERT_FALSE(grid::parse_class_costs(text, back).has_value()) << text;
    EXPECT_TRUE(u.cost == back.cost) << text;
  }
}

TEST(EditText, ParsesTheCliSyntax) {
  grid::Edit e;
  ASSERT_FALSE(grid::parse_edit("wall:3,4", e).has_value());
  EXPECT_EQ(e.kind, Edit::Kind::wall);
  EXPECT_EQ(e.area, (grid::Rect{3, 4, 3, 4}));
  ASSERT_FALSE(grid::parse_edit("free:9,2:1,7", e).has_value());
  EXPECT_EQ(e.kind, Edit::Kind::free);
  EXPECT_EQ(e.area, (grid::Rect{1, 2, 9, 7}));  // corners in either order
  ASSERT_FALSE(grid::parse_edit("class=T:0,0:2,2", e).has_value());
  EXPECT_EQ(e.kind, Edit::Kind::set_class);
  EXPECT_EQ(e.cls, 'T');
  ASSERT_FALSE(grid::parse_edit("terrain=2.5:5,5", e).has_value());
  EXPECT_EQ(e.kind, Edit::Kind::terrain);
  EXPECT_EQ(e.cost, 2.5f);
  const std::pair<const char*, const char*> bad[] = {
      {"wall", "has no ':'"},
      {"paint:1,1", "unknown edit kind 'paint'"},
      {"wall:1", "'1' is not X,Y"},
      {"wall:1,1:2", "'2' is not X,Y"},
      {"wall:a,b", "is not X,Y"},
      {"class=:1,1", "one printable character"},
      {"class=TT:1,1", "one printable"},
      {"terrain=0.5:1,1", "from 1 to 1e6"},
      {"terrain=x:1,1", "from 1 to 1e6"},
      {"wall:1,1:2,2:3,3", "is not X,Y"},
  };
  for (const auto& [text, want] : bad) {
    grid::Edit out;
    const grid::Edit before = out;
    const auto m = grid::parse_edit(text, out);
    ASSERT_TRUE(m.has_value()) << text;
    EXPECT_NE(m->find(want), std::string::npos) << text << " -> " << *m;
    EXPECT_EQ(out.area, before.area) << text;
  }
}

TEST(Units, FootingNamesTheFirstReasonAUnitCannotStandOnACell) {
  grid::Grid g(7, 5);
  g.set_blocked(0, 0, true);
  g.set_class(3, 2, 'W');
  grid::Unit plain;
  EXPECT_EQ(grid::footing(g, plain, {-1, 0}), grid::Footing::outside);
  EXPECT_EQ(grid::footing(g, plain, {7, 4}), grid::Footing::outside);
  EXPECT_EQ(grid::footing(g, plain, {0, 0}), grid::Footing::wall);
  EXPECT_EQ(grid::footing(g, plain, {3, 2}), grid::Footing::forbidden_class);  // water: 'x'
  EXPECT_EQ(grid::footing(g, plain, {5, 2}), grid::Footing::ok);
  grid::Unit swimmer;
  swimmer.set('W', 2.0f);
  EXPECT_EQ(grid::footing(g, swimmer, {3, 2}), grid::Footing::ok);
  grid::Unit big;
  big.radius = 1.5;  // within 1.5 of the map's edge or the wall: too close
  EXPECT_EQ(grid::footing(g, big, {1, 1}), grid::Footing::too_close);
  // the verdict agrees with the unit's view of the grid for every cell
  for (const grid::Unit& u : {plain, swimmer, big}) {
    const auto view = g.view(u);
    for (int y = 0; y < 5; ++y) {
      for (int x = 0; x < 7; ++x) {
        EXPECT_EQ(grid::footing(g, u, {x, y}) == grid::Footing::ok, view->passable(x, y));
      }
    }
  }
}
