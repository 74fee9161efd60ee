// Crowds: seeded generation (same seed, same crowd; starts distinct, goals reachable), and fifty
// hybrid agents crossing one room among each other: they arrive, and each agent is a moving
// obstacle for the others.
#include <gtest/gtest.h>

#include <pathlab/agents/crowd.hpp>

using namespace pathlab;
using namespace pathlab::agents;

TEST(Crowd, TheSameSeedGivesTheSameCrowd) {
  grid::Grid g(40, 30);
  for (int y = 5; y < 25; ++y) g.set_blocked(20, y, true);
  AgentSpec like;
  const WorldSpec a = make_crowd(g, 60, 7, like), b = make_crowd(g, 60, 7, like);
  const WorldSpec c = make_crowd(g, 60, 8, like);
  ASSERT_EQ(a.agents.size(), 60u);
  bool differs = false;
  for (std::size_t i = 0; i < 60; ++i) {
    EXPECT_EQ(a.agents[i].start, b.agents[i].start);
    EXPECT_EQ(a.agents[i].goal, b.agents[i].goal);
    differs = differs || !(a.agents[i].start == c.agents[i].start);
    for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(a.agents[i].start == a.agents[j].start);
    EXPECT_FALSE(a.agents[i].start == a.agents[i].goal);
  }
  EXPECT_TRUE(differs);
  EXPECT_THROW((void)make_crowd(grid::Grid(2, 2), 10, 1, like), std::invalid_argument);
}

TEST(Crowd, FiftyHybridAgentsCrossARoom) {
  grid::Grid g(40, 30);
  AgentSpec like;
  like.radius = 0.3;
  WorldSpec s = make_crowd(g, 50, 3, like, 60);
  World w(s);
  w.run();
  int arrived = 0, collisions = 0;
  for (const auto& a : w.agents()) {
    arrived += a.metrics.arrived;
    collisions += a.metrics.collisions;
  }
  EXPECT_EQ(arrived, 50) << collisions << " collisions";
  EXPECT_EQ(collisions, 0);
}
