// What the agents tests share.
#pragma once

#include <gtest/gtest.h>

#include <pathlab/agents/vec2.hpp>

namespace pathlab::testing {

/// Both coordinates within `tol`.
inline void expect_near(agents::Vec2 a, agents::Vec2 b, double tol = 1e-12) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
}

}  // namespace pathlab::testing
