// connect() and connectable() (ALGORITHMS.md, "Link game") against a brute force over every
// polyline of at most three segments: same verdict, fewest turns, shortest among those, the
// documented tie-break, and a legal line; plus the edge cases by hand.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <pathlab/link/connect.hpp>

#include "link_test_util.hpp"

using namespace pathlab;
using namespace pathlab::link;
using namespace pathlab::link::testing;

namespace {

void check_pair(const Board& board, Cell a, Cell b) {
  const Brute want = brute_connect(board, a, b);
  const Connection got = connect(board, a, b);
  ASSERT_EQ(got.connected(), want.turns >= 0)
      << board.to_text() << a.x << "," << a.y << " " << b.x << "," << b.y;
  ASSERT_EQ(connectable(board, a, b), want.turns >= 0) << board.to_text();
  if (!got) return;
  ASSERT_EQ(got.turns(), want.turns) << board.to_text();
  ASSERT_EQ(got.length(), want.length) << board.to_text();
  ASSERT_EQ(got.points, want.best) << board.to_text();
  ASSERT_TRUE(legal_line(board, a, b, got.points)) << board.to_text();
}

/// Every pair of tiles of the same kind on the board, and some pairs that must fail.
void check_board(const Board& board) {
  const int n = board.width() * board.height();
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const Cell a{i % board.width(), i / board.width()}, b{j % board.width(), j / board.width()};
      if (board.at(a) == kEmpty || board.at(a) != board.at(b)) continue;
      check_pair(board, a, b);
    }
  }
}

}  // namespace

TEST(LinkConnect, MatchesBruteForceOnThousandsOfRandomBoards) {
  // Sizes from 1x1 to 9x9 (1xN and Nx1 included), densities from sparse to full.
  const int densities[] = {20, 50, 75, 90, 100};
  int boards = 0;
  for (std::uint32_t seed = 0; seed < 3000; ++seed) {
    std::mt19937 rng(seed);
    const int w = 1 + static_cast<int>(rng() % 9), h = 1 + static_cast<int>(rng() % 9);
    const Board board =
        random_board(seed, w, h, densities[seed % 5], 1 + static_cast<int>(rng() % 4));
    check_board(board);
    if (HasFatalFailure()) return;
    ++boards;
  }
  EXPECT_EQ(boards, 3000);
}

TEST(LinkConnect, MatchesBruteForceOnLongThinBoards) {
  for (std::uint32_t seed = 0; seed < 300; ++seed) {
    const int n = 2 + static_cast<int>(seed % 15);
    check_board(random_board(seed, n, 1, 40 + static_cast<int>(seed % 60), 2));
    check_board(random_board(seed + 7, 1, n, 40 + static_cast<int>(seed % 60), 2));
    check_board(random_board(seed + 11, n, 2, 40 + static_cast<int>(seed % 60), 2));
    if (HasFatalFailure()) return;
  }
}

RC_GTEST_PROP(LinkConnect, AnyPairMatchesBruteForce, ()) {
  const int w = *rc::gen::inRange(1, 12), h = *rc::gen::inRange(1, 12);
  const Board board = random_board(*rc::gen::arbitrary<std::uint32_t>(), w, h,
                                   *rc::gen::inRange(0, 101), *rc::gen::inRange(1, 4));
  // Any two cells, also empty ones, equal ones and cells outside the board.
  const Cell a{*rc::gen::inRange(-2, w + 2), *rc::gen::inRange(-2, h + 2)};
  const Cell b{*rc::gen::inRange(-2, w + 2), *rc::gen::inRange(-2, h + 2)};
  const Brute want = brute_connect(board, a, b);
  const Connection got = connect(board, a, b);
  RC_ASSERT(got.connected() == (want.turns >= 0));
  RC_ASSERT(connectable(board, a, b) == got.connected());
  if (got) {
    RC_ASSERT(got.turns() == want.turns);
    RC_ASSERT(got.length() == want.length);
    RC_ASSERT(legal_line(board, a, b, got.points));
  }
}

TEST(LinkConnect, EdgeCases) {
  const Board b = parse_board(
      "AA.B\n"
      "C.CB\n"
      "DEDE\n"
      ".F.F\n");
  // Adjacent tiles: a straight line of length 1.
  Connection c = connect(b, {0, 0}, {1, 0});
  ASSERT_TRUE(c);
  EXPECT_EQ(c.turns(), 0);
  EXPECT_EQ(c.length(), 1);
  EXPECT_EQ(c.points, (std::vector<Cell>{{0, 0}, {1, 0}}));
  // Same column, adjacent; same row with a gap.
  EXPECT_EQ(connect(b, {3, 0}, {3, 1}).length(), 1);
  c = connect(b, {0, 1}, {2, 1});
  EXPECT_EQ(c.points, (std::vector<Cell>{{0, 1}, {2, 1}}));
  // Same row, E between: C above both D's, F on row 3 between, so the line goes down to the
  // ring below the board: two turns, length 6.
  c = connect(b, {0, 2}, {2, 2});
  ASSERT_TRUE(c);
  EXPECT_EQ(c.turns(), 2);
  EXPECT_EQ(c.length(), 6);
  EXPECT_EQ(c.points, (std::vector<Cell>{{0, 2}, {0, 4}, {2, 4}, {2, 2}}));
  // The same cell twice, different kinds, an empty cell, outside cells: never connected.
  EXPECT_FALSE(connect(b, {0, 0}, {0, 0}));
  EXPECT_FALSE(connectable(b, {0, 0}, {0, 0}));
  EXPECT_FALSE(connect(b, {0, 0}, {3, 0}));
  EXPECT_FALSE(connect(b, {2, 0}, {1, 1}));
  EXPECT_FALSE(connectable(b, {2, 0}, {1, 1}));
  EXPECT_FALSE(connect(b, {-1, 0}, {0, 0}));
  EXPECT_FALSE(connectable(b, {0, 0}, {4, 0}));
  EXPECT_FALSE(connectable(b, {0, -1}, {0, 4}));
  EXPECT_EQ(connect(b, {0, 0}, {0, 0}).turns(), -1);
  EXPECT_EQ(connect(b, {0, 0}, {0, 0}).length(), 0);
}

TEST(LinkConnect, LinesAlongTheRing) {
  // Both tiles on the top row, walled in below and between: up, along the ring, down.
  const Board b = parse_board(
      "AXA\n"
      "XXX\n");
  Connection c = connect(b, {0, 0}, {2, 0});
  EXPECT_EQ(c.points, (std::vector<Cell>{{0, 0}, {0, -1}, {2, -1}, {2, 0}}));
  // Left column, both ends: out to x = -1 and back.
  const Board v = parse_board(
      "AX\n"
      "XX\n"
      "AX\n");
  c = connect(v, {0, 0}, {0, 2});
  EXPECT_EQ(c.points, (std::vector<Cell>{{0, 0}, {-1, 0}, {-1, 2}, {0, 2}}));
  // Opposite corners of a full board: the ring would need three turns.
  const Board f = parse_board(
      "AX\n"
      "XA\n");
  EXPECT_FALSE(connect(f, {0, 0}, {1, 1}));
  // Opposite ends of a 1 x N board along the ring (the row between is full).
  const Board row = parse_board("AXXA\n");
  c = connect(row, {0, 0}, {3, 0});
  EXPECT_EQ(c.turns(), 2);
  EXPECT_EQ(c.length(), 5);
  EXPECT_EQ(c.points, (std::vector<Cell>{{0, 0}, {0, -1}, {3, -1}, {3, 0}}));
  // Right and bottom ring: corner tiles sharing the right column.
  const Board r = parse_board(
      "XA\n"
      "XX\n"
      "XA\n");
  c = connect(r, {1, 0}, {1, 2});
  EXPECT_EQ(c.points, (std::vector<Cell>{{1, 0}, {2, 0}, {2, 2}, {1, 2}}));
}

TEST(LinkConnect, TieBreakPrefersHorizontalFirst) {
  // An empty board but for the two tiles: both one-turn corners are free.
  Board b(5, 5);
  b.set({1, 1}, 'A');
  b.set({3, 4}, 'A');
  EXPECT_EQ(connect(b, {1, 1}, {3, 4}).points, (std::vector<Cell>{{1, 1}, {3, 1}, {3, 4}}));
  EXPECT_EQ(connect(b, {3, 4}, {1, 1}).points, (std::vector<Cell>{{3, 4}, {1, 4}, {1, 1}}));
}
