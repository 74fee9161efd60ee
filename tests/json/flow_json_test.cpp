// pathlab::json's flow fields: the contract's row-major distance (null where no goal is
// reachable) and direction (-1 there), the goals, and the sectored field's extra fields.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <pathlab/json/flow.hpp>

namespace pathlab {
namespace {

/// 5x3 with a closed pocket: (4, 0) is walled off by (3, 0) and (3, 1), (4, 1).
grid::Grid pocket_grid() {
  grid::Grid g(5, 3);
  g.set_blocked(3, 0, true);
  g.set_blocked(3, 1, true);
  g.set_blocked(4, 1, true);
  return g;
}

TEST(FlowJson, RowMajorDistanceAndDirectionWithNullWhereUnreachable) {
  const grid::Grid g = pocket_grid();
  const std::vector<Cell> goals{{0, 2}};
  flow::Field f;
  ASSERT_FALSE(f.build(g, goals, {}));
  const nlohmann::json j = json::flow_field(f);
  EXPECT_EQ(j["width"], 5);
  EXPECT_EQ(j["height"], 3);
  EXPECT_EQ(j["goals"], nlohmann::json::array({nlohmann::json::array({0, 2})}));
  ASSERT_EQ(j["distance"].size(), 15u);
  ASSERT_EQ(j["direction"].size(), 15u);
  std::size_t reachable = 0;
  for (int y = 0; y < 3; ++y) {
    for (int x = 0; x < 5; ++x) {
      const std::size_t k = static_cast<std::size_t>(y * 5 + x);
      const double d = f.distance({x, y});
      if (std::isfinite(d)) {
        ++reachable;
        EXPECT_DOUBLE_EQ(j["distance"][k].get<double>(), d) << x << "," << y;
      } else {
        EXPECT_TRUE(j["distance"][k].is_null()) << x << "," << y;
      }
      EXPECT_EQ(j["direction"][k].get<int>(), static_cast<int>(f.direction({x, y})));
    }
  }
  EXPECT_TRUE(j["distance"][4].is_null());  // the pocket (4, 0)
  EXPECT_EQ(j["direction"][4], -1);
  EXPECT_TRUE(j["distance"][3].is_null());  // a wall
  EXPECT_EQ(j["distance"][10], 0.0);        // the goal (0, 2)
  EXPECT_EQ(j["distance"][11], 1.0);        // one step east of it
  EXPECT_EQ(j["direction"][11], 4);         // heads west
  EXPECT_EQ(j["reachable"].get<std::size_t>(), reachable);
  EXPECT_EQ(reachable, 11u);
  EXPECT_EQ(j["sees"].size(), 15u);
  EXPECT_TRUE(j.contains("time_us"));
  EXPECT_EQ(j["unit"]["radius"], 0.0);
}

TEST(FlowJson, SectoredFieldAddsItsSectors) {
  const grid::Grid g(40, 20);
  const std::vector<Cell> goals{{39, 19}}, units{{0, 0}};
  flow::SectorField f;
  ASSERT_FALSE(f.build(g, goals, {}, 8));
  f.require(units);
  const nlohmann::json j = json::flow_field(f);
  EXPECT_EQ(j["sector"], 8);
  EXPECT_EQ(j["sectors_x"], 5);
  EXPECT_EQ(j["sectors_y"], 3);
  EXPECT_EQ(j["sectors_built"].size(), 15u);
  EXPECT_EQ(j["distance"].size(), 800u);
  EXPECT_FALSE(j.contains("sees"));
  EXPECT_EQ(j["distance"][0].get<double>(), f.distance({0, 0}));
  EXPECT_TRUE(std::isfinite(f.distance({0, 0})));
}

}  // namespace
}  // namespace pathlab
