// Hints, move lists and deadlocks against all pairs; shuffles; gravity against hand-made boards.
#include <gtest/gtest.h>

#include <pathlab/link/connect.hpp>
#include <pathlab/link/moves.hpp>

#include <algorithm>

#include "link_test_util.hpp"

using namespace pathlab;
using namespace pathlab::link;
using namespace pathlab::link::testing;

namespace {

/// Every connectable pair by brute force over all pairs of cells, in row-major order of a, b.
std::vector<Move> all_pairs(const Board& board) {
  std::vector<Move> out;
  const int n = board.width() * board.height();
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const Cell a{i % board.width(), i / board.width()}, b{j % board.width(), j / board.width()};
      if (brute_connect(board, a, b).turns >= 0) out.push_back({a, b});
    }
  }
  return out;
}

std::string sorted(std::string s) {
  std::sort(s.begin(), s.end());
  return s;
}

}  // namespace

TEST(LinkMoves, HintMovesAndDeadlockMatchAllPairs) {
  for (std::uint32_t seed = 0; seed < 400; ++seed) {
    const int w = 1 + static_cast<int>(seed % 8), h = 1 + static_cast<int>(seed / 8 % 7);
    const Board board =
        random_board(seed, w, h, 30 + static_cast<int>(seed % 71), 1 + static_cast<int>(seed % 6));
    const std::vector<Move> want = all_pairs(board);
    ASSERT_EQ(moves(board), want) << board.to_text();
    const auto h1 = hint(board);
    ASSERT_EQ(h1.has_value(), !want.empty());
    if (h1) {
      ASSERT_EQ(*h1, want.front());
    }
    ASSERT_EQ(deadlocked(board), board.tiles() > 0 && want.empty());
  }
  EXPECT_FALSE(deadlocked(Board(3, 3)));  // nothing left: not a deadlock
  EXPECT_TRUE(deadlocked(parse_board("AB\nBA\n")));
}

TEST(LinkMoves, ShuffleKeepsCountsLeavesAMoveAndDependsOnTheSeed) {
  for (std::uint32_t seed = 0; seed < 100; ++seed) {
    const Board before = random_board(seed, 8, 6, 80, 12);
    Board a = before, b = before, c = before;
    if (!shuffle(a, seed)) continue;
    ASSERT_TRUE(shuffle(b, seed));
    EXPECT_EQ(a, b);  // deterministic
    EXPECT_EQ(sorted(a.cells()), sorted(before.cells()));
    for (int i = 0; i < 48; ++i) {  // tiles stay on the cells they occupied
      EXPECT_EQ(a.cells()[static_cast<std::size_t>(i)] == kEmpty,
                before.cells()[static_cast<std::size_t>(i)] == kEmpty);
    }
    EXPECT_TRUE(hint(a).has_value());
    ASSERT_TRUE(shuffle(c, seed + 1000));
    EXPECT_EQ(sorted(c.cells()), sorted(before.cells()));
  }
  // Different seeds give different arrangements (on a board with many).
  Board x = random_full_board(1, 10, 8, 20), y = x;
  ASSERT_TRUE(shuffle(x, 1));
  ASSERT_TRUE(shuffle(y, 2));
  EXPECT_NE(x, y);
}

TEST(LinkMoves, ShuffleFailsWhenNoArrangementHasAMove) {
  Board single = parse_board("A.B\n.C.\n");  // no kind has two tiles
  const Board before = single;
  EXPECT_FALSE(shuffle(single, 7));
  EXPECT_EQ(single, before);
  Board empty(4, 4);
  EXPECT_FALSE(shuffle(empty, 7));
  // Attempts run out: a board where few arrangements have a move, with one attempt.
  Board cross = parse_board("AB\nBA\n");
  int failures = 0;
  for (std::uint64_t s = 0; s < 20; ++s) {
    Board t = cross;
    if (!shuffle(t, s, 1)) {
      ++failures;
      EXPECT_EQ(t, cross);
    } else {
      EXPECT_TRUE(hint(t).has_value());
    }
  }
  EXPECT_GT(failures, 0);  // 2 of the 6 arrangements are the crossing
}

TEST(LinkMoves, GravityDirections) {
  const Board start = parse_board(
      "A.B.\n"
      ".C..\n"
      "D..E\n");
  const auto after = [&](Gravity g) {
    Board b = start;
    apply_gravity(b, g);
    return b.to_text();
  };
  EXPECT_EQ(after(Gravity::none), start.to_text());
  EXPECT_EQ(after(Gravity::down), "....\nA...\nDCBE\n");
  EXPECT_EQ(after(Gravity::up), "ACBE\nD...\n....\n");
  EXPECT_EQ(after(Gravity::left), "AB..\nC...\nDE..\n");
  EXPECT_EQ(after(Gravity::right), "..AB\n...C\n..DE\n");
  EXPECT_EQ(after(Gravity::centre), ".AB.\n.C..\n.DE.\n");
}

TEST(LinkMoves, CentreGravityOnOddWidthsKeepsTheMiddleColumn) {
  Board b = parse_board("A.X.B\n..Y..\nA...B\nAB.CD\n");
  apply_gravity(b, Gravity::centre);
  EXPECT_EQ(b.to_text(), ".AXB.\n..Y..\n.A.B.\nAB.CD\n");
  Board three = parse_board("A.B\n");
  apply_gravity(three, Gravity::centre);
  EXPECT_EQ(three.to_text(), "A.B\n");
  Board one = parse_board("A\n.\nA\n");
  apply_gravity(one, Gravity::centre);
  EXPECT_EQ(one.to_text(), "A\n.\nA\n");
}

TEST(LinkMoves, GravityNamesRoundTrip) {
  for (const Gravity g : {Gravity::none, Gravity::down, Gravity::up, Gravity::left, Gravity::right,
                          Gravity::centre}) {
    EXPECT_EQ(parse_gravity(to_string(g)), g);
  }
  EXPECT_FALSE(parse_gravity("sideways").has_value());
}

TEST(LinkMoves, PlayRemovesThenSlides) {
  Board b = parse_board("BC\nAA\nCB\n");
  EXPECT_FALSE(play(b, {{0, 0}, {1, 0}}, Gravity::down));  // different kinds
  EXPECT_FALSE(play(b, {{0, 0}, {0, 0}}));                 // the same cell
  EXPECT_EQ(b.to_text(), "BC\nAA\nCB\n");
  ASSERT_TRUE(play(b, {{0, 1}, {1, 1}}, Gravity::down));
  EXPECT_EQ(b.to_text(), "..\nBC\nCB\n");
  Board n = parse_board("BC\nAA\nCB\n");
  ASSERT_TRUE(play(n, {{0, 1}, {1, 1}}));
  EXPECT_EQ(n.to_text(), "BC\n..\nCB\n");
}
