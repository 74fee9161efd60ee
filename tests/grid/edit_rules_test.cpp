// What each edit kind does to a cell's class and terrain cost (grid.hpp, Edit): checked against
// a model of the documented rules over random edits (the edited grid equals a grid built fresh
// from the model, and every cache — unit views, clearance fields — answers as on it), plus the
// single cases a user meets first. Also Unit::set: a cost table copied through it is safe.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/unit.hpp>

#include "units.hpp"

using namespace pathlab;
using grid::Edit;
using grid::Unit;

namespace {

/// The documented rules, cell by cell: a class and a cost per cell.
struct EditModel {
  int w = 0, h = 0;
  std::vector<char> cls;
  std::vector<float> cost;

  explicit EditModel(const grid::Grid& g) : w(g.width()), h(g.height()) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        cls.push_back(g.cell_class(x, y));
        cost.push_back(g.terrain(x, y));
      }
    }
  }
  void apply(const Edit& e) {
    for (int y = e.area.y0; y <= e.area.y1; ++y) {
      for (int x = e.area.x0; x <= e.area.x1; ++x) {
        char& c = cls[static_cast<std::size_t>(y * w + x)];
        float& t = cost[static_cast<std::size_t>(y * w + x)];
        switch (e.kind) {
          case Edit::Kind::wall:
            c = '@';
            t = 1;
            break;
          case Edit::Kind::free:
            c = '.';
            t = 1;
            break;
          case Edit::Kind::set_class:
            c = grid::canonical_class(e.cls);
            if (c == '@') t = 1;
            break;
          case Edit::Kind::terrain:
            if (c != '@') t = e.cost;
            break;
          case Edit::Kind::edge_wall:
          case Edit::Kind::edge_open:
            break;  // edges, not cells: the model's cells stay
        }
      }
    }
  }
  /// A grid built fresh with the model's cells.
  [[nodiscard]] grid::Grid build() const {
    grid::Grid g(w, h);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const char c = cls[static_cast<std::size_t>(y * w + x)];
        const float t = cost[static_cast<std::size_t>(y * w + x)];
        if (c == '@') {
          EXPECT_EQ(t, 1.0f) << "a wall holds a cost at " << x << "," << y;
          g.set_blocked(x, y, true);
        } else if (c != '.') {
          g.set_class(x, y, c);
        }
        if (t != 1.0f) g.set_terrain(x, y, t);
      }
    }
    return g;
  }
};

Edit random_rule_edit(std::mt19937& rng, const grid::Grid& g) {
  Edit e;
  e.kind = static_cast<Edit::Kind>(rng() % 4);
  const int w = 1 + static_cast<int>(rng() % 5), h = 1 + static_cast<int>(rng() % 5);
  e.area.x0 = static_cast<int>(rng() % static_cast<unsigned>(g.width()));
  e.area.y0 = static_cast<int>(rng() % static_cast<unsigned>(g.height()));
  e.area.x1 = std::min(g.width() - 1, e.area.x0 + w - 1);
  e.area.y1 = std::min(g.height() - 1, e.area.y0 + h - 1);
  const char classes[] = {'.', 'S', 'T', 'W', 'F', 'G', 'O', '@'};
  e.cls = classes[rng() % 8];
  const float costs[] = {1.0f, 1.5f, 2.0f, 3.0f};
  e.cost = costs[rng() % 4];
  return e;
}

grid::Grid cell_grid(char cls, float terrain) {
  grid::Grid g(3, 1);
  if (cls == '@') {
    g.set_terrain(1, 0, terrain);  // a cost under a wall: only the low-level calls make one
    g.set_blocked(1, 0, true);
  } else {
    if (cls != '.') g.set_class(1, 0, cls);
    if (terrain != 1.0f) g.set_terrain(1, 0, terrain);
  }
  return g;
}

}  // namespace

TEST(EditRules, EachKindSetsClassAndCostAsDocumented) {
  struct Case {
    char cls;
    float terrain;
    Edit edit;
    char want_cls;
    float want_cost;
  };
  const Case cases[] = {
      // free: every cell becomes plain ground, swamp and forbidden classes too
      {'S', 1, {Edit::Kind::free, {1, 0, 1, 0}}, '.', 1},
      {'S', 3, {Edit::Kind::free, {1, 0, 1, 0}}, '.', 1},
      {'T', 2, {Edit::Kind::free, {1, 0, 1, 0}}, '.', 1},
      {'@', 1, {Edit::Kind::free, {1, 0, 1, 0}}, '.', 1},
      {'@', 4, {Edit::Kind::free, {1, 0, 1, 0}}, '.', 1},
      {'.', 2, {Edit::Kind::free, {1, 0, 1, 0}}, '.', 1},
      // wall: a wall holds no cost
      {'.', 3, {Edit::Kind::wall, {1, 0, 1, 0}}, '@', 1},
      {'W', 2, {Edit::Kind::wall, {1, 0, 1, 0}}, '@', 1},
      // set_class: keeps the cost, but a wall gets 1
      {'.', 3, {Edit::Kind::set_class, {1, 0, 1, 0}, 'S'}, 'S', 3},
      {'S', 3, {Edit::Kind::set_class, {1, 0, 1, 0}, 'G'}, '.', 3},
      {'S', 3, {Edit::Kind::set_class, {1, 0, 1, 0}, '@'}, '@', 1},
      {'S', 3, {Edit::Kind::set_class, {1, 0, 1, 0}, 'O'}, '@', 1},
      {'@', 1, {Edit::Kind::set_class, {1, 0, 1, 0}, 'T'}, 'T', 1},
      // terrain: the cost of every cell but walls
      {'S', 1, {Edit::Kind::terrain, {1, 0, 1, 0}, '.', 2.5f}, 'S', 2.5f},
      {'T', 1, {Edit::Kind::terrain, {1, 0, 1, 0}, '.', 2.5f}, 'T', 2.5f},
      {'@', 1, {Edit::Kind::terrain, {1, 0, 1, 0}, '.', 2.5f}, '@', 1},
  };
  for (const Case& c : cases) {
    grid::Grid g = cell_grid(c.cls, c.terrain);
    ASSERT_FALSE(g.apply(c.edit).has_value());
    const std::string what = std::string("cell ") + c.cls + " x" + std::to_string(c.terrain) +
                             ", edit kind " + std::to_string(static_cast<int>(c.edit.kind));
    EXPECT_EQ(g.cell_class(1, 0), c.want_cls) << what;
    EXPECT_EQ(g.terrain(1, 0), c.want_cost) << what;
    // The neighbours are untouched.
    EXPECT_EQ(g.cell_class(0, 0), '.');
    EXPECT_EQ(g.terrain(2, 0), 1.0f);
  }
}

TEST(EditRules, WallThenFreeGivesPlainGroundAndEqualsAFreshGrid) {
  grid::Grid g(6, 4);
  ASSERT_FALSE(g.apply({Edit::Kind::set_class, {0, 0, 5, 3}, 'S'}).has_value());
  ASSERT_FALSE(g.apply({Edit::Kind::terrain, {0, 0, 5, 3}, '.', 3.0f}).has_value());
  ASSERT_FALSE(g.apply({Edit::Kind::wall, {1, 1, 2, 2}}).has_value());
  ASSERT_FALSE(g.apply({Edit::Kind::free, {1, 1, 2, 2}}).has_value());
  grid::Grid fresh(6, 4);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 6; ++x) {
      const bool freed = x >= 1 && x <= 2 && y >= 1 && y <= 2;
      if (freed) continue;
      fresh.set_class(x, y, 'S');
      fresh.set_terrain(x, y, 3.0f);
    }
  }
  EXPECT_TRUE(g == fresh);
  EXPECT_EQ(g.checksum(), fresh.checksum());
  // Freeing free ground changes nothing: the revision stays.
  const std::uint64_t rev = g.revision();
  ASSERT_FALSE(g.apply({Edit::Kind::free, {1, 1, 2, 2}}).has_value());
  EXPECT_EQ(g.revision(), rev);
}

TEST(EditRules, SetClassOnOneCellIsTheSetClassEdit) {
  for (const char c : {'.', 'S', 'T', '@', 'G', 'O'}) {
    grid::Grid a = cell_grid('S', 2.0f), b = a;
    a.set_class(1, 0, c);
    ASSERT_FALSE(b.apply({Edit::Kind::set_class, {1, 0, 1, 0}, c}).has_value());
    EXPECT_TRUE(a == b) << c;
  }
}

TEST(EditRules, SetBlockedIsThePassabilitySwitchAndKeepsTheCost) {
  grid::Grid g = cell_grid('S', 2.0f);
  g.set_blocked(1, 0, false);  // passable already: unchanged, 'S' stays
  EXPECT_EQ(g.cell_class(1, 0), 'S');
  g.set_blocked(1, 0, true);
  EXPECT_EQ(g.cell_class(1, 0), '@');
  g.set_blocked(1, 0, false);
  EXPECT_EQ(g.cell_class(1, 0), '.');
  EXPECT_EQ(g.terrain(1, 0), 2.0f);  // the cost came back with the cell
}

TEST(EditRules, RandomEditsFollowTheModelAndEveryCacheRepairs) {
  std::mt19937 rng(27);
  for (std::uint32_t seed = 0; seed < 10; ++seed) {
    grid::Grid g =
        pathlab::testing::random_class_grid(seed, 14 + seed % 9, 11 + seed % 7, 15, 40, true);
    EditModel model(g);
    std::vector<Unit> units{Unit{}, Unit{}, pathlab::testing::random_unit(rng)};
    units[0].radius = 1.5;
    units[1].radius = 2.0;
    units[1].set('S', Unit::forbidden);
    units[2].set('S', 2.5f).set('.', 1.5f);
    std::vector<std::shared_ptr<const grid::Grid>> views;
    for (const Unit& u : units) views.push_back(g.view(u));
    // The clearance fields are built before the edits, so that they are repaired, not rebuilt.
    for (const Unit& u : units) (void)grid::clearance(g, u, {0, 0});
    for (int step = 0; step < 40; ++step) {
      const Edit e = random_rule_edit(rng, g);
      ASSERT_FALSE(g.apply(e).has_value());
      model.apply(e);
      const grid::Grid fresh = model.build();
      ASSERT_TRUE(g == fresh) << "seed " << seed << " step " << step;
      ASSERT_EQ(g.checksum(), fresh.checksum());
      for (std::size_t k = 0; k < units.size(); ++k) {
        if (g.sees_alike(units[k])) continue;
        const auto v = g.view(units[k]);
        EXPECT_EQ(v.get(), views[k].get());  // repaired in place
        ASSERT_TRUE(*v == *fresh.view(units[k])) << "seed " << seed << " step " << step;
        ASSERT_TRUE(*v == pathlab::testing::plain_copy(fresh, units[k]));
      }
      for (int y = 0; y < g.height(); ++y) {
        for (int x = 0; x < g.width(); ++x) {
          for (const Unit& u : units) {
            ASSERT_DOUBLE_EQ(grid::clearance(g, u, {x, y}), grid::clearance(fresh, u, {x, y}))
                << "seed " << seed << " step " << step << " cell " << x << "," << y;
            ASSERT_EQ(grid::footing(g, u, {x, y}), grid::footing(fresh, u, {x, y}));
          }
        }
      }
    }
  }
}

TEST(UnitSet, CopyingATableThroughSetGivesTheSameUnit) {
  Unit u;
  u.radius = 1.5;
  ASSERT_FALSE(grid::parse_class_costs(".=3,S=2,W=x,T=1.5", u).has_value());
  EXPECT_EQ(u.cost['.'], 3.0f);
  Unit u2;
  u2.radius = u.radius;
  for (int c = 0; c < 128; ++c) u2.set(static_cast<char>(c), u.cost[static_cast<std::size_t>(c)]);
  EXPECT_TRUE(u2 == u);
  EXPECT_EQ(u2.class_cost('.'), 3.0f);  // the 'G' entry did not overwrite ground
  grid::Grid g = pathlab::testing::random_class_grid(3, 20, 12, 10, 40, true);
  EXPECT_TRUE(*g.view(u2) == *g.view(u));
}

TEST(UnitSet, SetWritesOneEntryAndTheAliasesAreNeverRead) {
  Unit u;
  u.set('G', 4.0f);
  EXPECT_EQ(u.cost['G'], 4.0f);
  EXPECT_EQ(u.cost['.'], 1.0f);              // ground untouched
  EXPECT_EQ(u.class_cost('G'), 1.0f);        // 'G' reads ground's entry
  EXPECT_TRUE(u.forbids('O'));               // a wall
  EXPECT_EQ(grid::class_costs_text(u), "");  // nothing that reads back as ground
  EXPECT_FALSE(grid::validate(u).has_value());
  grid::Grid g(4, 4);
  g.set_class(1, 1, 'S');
  EXPECT_TRUE(g.sees_alike(u));  // the unused entry changes nothing
  u.set('G', 0.0f);              // not even an invalid value there
  EXPECT_FALSE(grid::validate(u).has_value());
  u.set('.', 0.5f);
  EXPECT_TRUE(grid::validate(u).has_value());
}

TEST(UnitSet, ParsingTextStillReadsTheMovingAiAliases) {
  Unit u;
  ASSERT_FALSE(grid::parse_class_costs("G=2", u).has_value());
  EXPECT_EQ(u.cost['.'], 2.0f);
  EXPECT_EQ(u.class_cost('G'), 2.0f);
  EXPECT_EQ(grid::class_costs_text(u), ".=2");
  Unit twice;
  EXPECT_TRUE(grid::parse_class_costs("G=2,.=3", twice).has_value());
  EXPECT_TRUE(grid::parse_class_costs("O=2", twice).has_value());
  EXPECT_TRUE(twice == Unit{});
}

// Grid::paste: a block of walls and ground is the wall and free edits of its cells, as one
// change (one revision, one rectangle logged), and every cache answers as on a fresh grid.
TEST(EditRules, PasteIsTheWallAndFreeEditsOfItsCellsAsOneChange) {
  std::mt19937 rng(31);
  for (std::uint32_t seed = 0; seed < 8; ++seed) {
    grid::Grid g =
        pathlab::testing::random_class_grid(seed, 16 + seed % 7, 12 + seed % 5, 15, 40, true);
    EditModel model(g);
    Unit wide;
    wide.radius = 1.5;
    const auto view = g.view(wide);
    for (int step = 0; step < 30; ++step) {
      const int w = 1 + static_cast<int>(rng() % 6), h = 1 + static_cast<int>(rng() % 6);
      const Cell at{static_cast<int>(rng() % static_cast<unsigned>(g.width() - w + 1)),
                    static_cast<int>(rng() % static_cast<unsigned>(g.height() - h + 1))};
      std::vector<std::uint8_t> walls(static_cast<std::size_t>(w * h));
      for (auto& c : walls) c = rng() % 3 == 0 ? 1 : 0;
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          Edit e;
          e.kind = walls[static_cast<std::size_t>(y * w + x)] ? Edit::Kind::wall : Edit::Kind::free;
          e.area = {at.x + x, at.y + y, at.x + x, at.y + y};
          model.apply(e);
        }
      }
      const std::uint64_t before = g.revision();
      const std::size_t logged = g.changes().size();
      const grid::Grid prior = g;
      ASSERT_FALSE(g.paste(at, w, h, walls).has_value());
      const grid::Grid fresh = model.build();
      ASSERT_TRUE(g == fresh) << "seed " << seed << " step " << step;
      ASSERT_EQ(g.checksum(), fresh.checksum());
      // The log names the bounding box of the cells that changed, not the whole block.
      grid::Rect box{g.width(), g.height(), -1, -1};
      for (int y = 0; y < g.height(); ++y) {
        for (int x = 0; x < g.width(); ++x) {
          if (g.cell_class(x, y) == prior.cell_class(x, y) &&
              g.terrain(x, y) == prior.terrain(x, y)) {
            continue;
          }
          box = {std::min(box.x0, x), std::min(box.y0, y), std::max(box.x1, x),
                 std::max(box.y1, y)};
        }
      }
      EXPECT_EQ(g.revision() != before, box.x1 >= 0) << "seed " << seed << " step " << step;
      if (g.revision() != before) {
        ASSERT_FALSE(g.changes().empty());
        EXPECT_EQ(g.changes().back().before, before);
        EXPECT_EQ(g.changes().back().area, box) << "seed " << seed << " step " << step;
        EXPECT_TRUE(g.changes().size() == logged + 1 || logged >= grid::Grid::kChangeLogSize);
      }
      // The same block again changes nothing: the revision stays.
      const std::uint64_t after = g.revision();
      ASSERT_FALSE(g.paste(at, w, h, walls).has_value());
      EXPECT_EQ(g.revision(), after);
      ASSERT_TRUE(*g.view(wide) == *fresh.view(wide)) << "seed " << seed << " step " << step;
    }
    EXPECT_EQ(g.view(wide).get(), view.get());  // repaired in place, never rebuilt
  }
}

TEST(EditRules, PasteRefusesABlockThatDoesNotFitAndChangesNothing) {
  grid::Grid g(10, 6);
  const grid::Grid before = g;
  const std::vector<std::uint8_t> four(4, 1);
  EXPECT_TRUE(g.paste({9, 0}, 2, 2, four).has_value());   // past the right side
  EXPECT_TRUE(g.paste({0, 5}, 2, 2, four).has_value());   // past the bottom
  EXPECT_TRUE(g.paste({-1, 0}, 2, 2, four).has_value());  // left of the map
  EXPECT_TRUE(g.paste({0, 0}, 3, 2, four).has_value());   // 6 cells named, 4 given
  EXPECT_TRUE(g.paste({0, 0}, 0, 4, {}).has_value());     // empty
  EXPECT_TRUE(g.paste({2147483000, 0}, 2147483, 1, std::vector<std::uint8_t>(2147483, 1))
                  .has_value());  // the far corner would overflow an int
  EXPECT_TRUE(g == before);
  EXPECT_EQ(g.revision(), before.revision());
  const auto msg = g.paste({9, 5}, 2, 2, four);
  ASSERT_TRUE(msg.has_value());
  EXPECT_NE(msg->find("leaves the 10x6 map"), std::string::npos) << *msg;
}
