// The solver and the generator: solutions replay with play() to an empty board; verdicts agree
// with an exhaustive search without memo or safe moves on small boards (with and without
// gravity); known dead boards are refuted; generated boards are deterministic, balanced and
// solvable.
#include <gtest/gtest.h>

#include <pathlab/link/solver.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "link_test_util.hpp"

using namespace pathlab;
using namespace pathlab::link;
using namespace pathlab::link::testing;

namespace {

const Gravity kGravities[] = {Gravity::none, Gravity::down,  Gravity::up,
                              Gravity::left, Gravity::right, Gravity::centre};

/// Plain exhaustive search: any order of removals that clears the board.
bool exhaustive(const Board& board, Gravity g) {
  if (board.tiles() == 0) return true;
  for (const Move m : moves(board)) {
    Board next = board;
    play(next, m, g);
    if (exhaustive(next, g)) return true;
  }
  return false;
}

void expect_clears(Board board, const SolveResult& r, Gravity g) {
  ASSERT_EQ(r.status, SolveResult::Status::solved);
  for (const Move m : r.moves) ASSERT_TRUE(play(board, m, g)) << board.to_text();
  EXPECT_EQ(board.tiles(), 0u);
}

Board shared_board() {
  std::ifstream in(std::string(PATHLAB_SHARED_DIR) + "/maps/link_8x10.txt");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_board(ss.str(), "link_8x10.txt");
}

}  // namespace

TEST(LinkSolver, AgreesWithExhaustiveSearchOnSmallBoards) {
  int solvable = 0, unsolvable = 0;
  for (std::uint32_t seed = 0; seed < 300; ++seed) {
    const int w = 2 + static_cast<int>(seed % 3), h = 2 + static_cast<int>(seed / 3 % 3);
    const Gravity g = kGravities[seed % 6];
    const Board board = random_full_board(seed, w, h, 2 + static_cast<int>(seed / 9 % 4));
    const bool want = exhaustive(board, g);
    SolveOptions o;
    o.gravity = g;
    const SolveResult r = solve(board, o);
    ASSERT_EQ(r.status == SolveResult::Status::solved, want) << board.to_text() << to_string(g);
    if (want) {
      expect_clears(board, r, g);
      ++solvable;
    } else {
      EXPECT_EQ(r.status, SolveResult::Status::unsolvable);
      EXPECT_TRUE(r.moves.empty());
      ++unsolvable;
    }
  }
  EXPECT_GT(solvable, 50);
  EXPECT_GT(unsolvable, 10);
}

TEST(LinkSolver, RefutesDeadBoards) {
  // The crossing: even with the ring, A-A and B-B each need three turns.
  EXPECT_EQ(solve(parse_board("AB\nBA\n")).status, SolveResult::Status::unsolvable);
  // The crossing inside a larger board: everything else clears, the crossing never does.
  const Board big = parse_board(
      "CCDDEE\n"
      "FGABHI\n"
      "FGBAHI\n"
      "JJKKLL\n");
  EXPECT_FALSE(exhaustive(parse_board("AB\nBA\n"), Gravity::none));
  const SolveResult r = solve(big);
  EXPECT_EQ(r.status, SolveResult::Status::unsolvable);
  EXPECT_GT(r.nodes, 0u);
  // A lone tile of a kind.
  EXPECT_EQ(solve(parse_board("AAB\n")).status, SolveResult::Status::unsolvable);
}

TEST(LinkSolver, EmptyAndTrivialBoards) {
  const SolveResult e = solve(Board(5, 5));
  EXPECT_EQ(e.status, SolveResult::Status::solved);
  EXPECT_TRUE(e.moves.empty());
  expect_clears(parse_board("A..A\n"), solve(parse_board("A..A\n")), Gravity::none);
}

TEST(LinkSolver, NodeLimit) {
  const Board board = random_full_board(24, 10, 8, 24);
  SolveOptions o;
  o.node_limit = 1;
  const SolveResult r = solve(board, o);
  // One board expanded, then the search stops unless that board already decided it.
  if (r.status == SolveResult::Status::node_limit) {
    EXPECT_TRUE(r.moves.empty());
    EXPECT_LE(r.nodes, 1u);
  }
  o.node_limit = 0;
  EXPECT_EQ(solve(board, o).status, SolveResult::Status::node_limit);
}

TEST(LinkSolver, RandomEightByTenBoardsClearOrRefuteQuickly) {
  // Uniformly shuffled full boards (10 wide, 8 high) from easy to mostly unsolvable kind counts,
  // every gravity; solutions replay. The whole test stays well under the 1 s per board target.
  int solved = 0, refuted = 0;
  for (std::uint32_t seed = 0; seed < 60; ++seed) {
    const Board board = random_full_board(seed, 10, 8, 16 + static_cast<int>(seed % 4) * 4);
    const Gravity g = seed % 3 == 0 ? kGravities[1 + seed / 3 % 5] : Gravity::none;
    SolveOptions o;
    o.gravity = g;
    const SolveResult r = solve(board, o);
    ASSERT_NE(r.status, SolveResult::Status::node_limit) << seed;
    if (r.status == SolveResult::Status::solved) {
      expect_clears(board, r, g);
      ++solved;
    } else {
      ++refuted;
    }
  }
  EXPECT_GT(solved, 20);
  EXPECT_GT(refuted, 5);
  const Board shared = shared_board();
  EXPECT_EQ(shared.width(), 10);
  EXPECT_EQ(shared.height(), 8);
  const SolveResult r = solve(shared);
  if (r.status == SolveResult::Status::solved) expect_clears(shared, r, Gravity::none);
  EXPECT_NE(r.status, SolveResult::Status::node_limit);
}

TEST(LinkGenerate, DeterministicBalancedAndSolvable) {
  const int sizes[][3] = {{2, 1, 1},   {1, 2, 1},    {2, 2, 2},  {3, 4, 3},  {5, 2, 5},
                          {10, 8, 20}, {12, 20, 30}, {7, 6, 21}, {1, 12, 6}, {16, 16, 62}};
  for (const auto& s : sizes) {
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
      const Board b = generate(s[0], s[1], s[2], seed);
      ASSERT_EQ(b.width(), s[0]);
      ASSERT_EQ(b.height(), s[1]);
      ASSERT_EQ(b.tiles(), static_cast<std::size_t>(s[0] * s[1]));
      EXPECT_EQ(b, generate(s[0], s[1], s[2], seed));
      std::map<char, int> count;
      for (const char c : b.cells()) ++count[c];
      ASSERT_EQ(static_cast<int>(count.size()), s[2]);
      int lo = 1 << 30, hi = 0;
      for (const auto& kc : count) {
        EXPECT_EQ(kc.second % 2, 0);
        lo = std::min(lo, kc.second);
        hi = std::max(hi, kc.second);
      }
      EXPECT_LE(hi - lo, 2);  // as evenly as pairs allow
      const SolveResult r = solve(b);
      expect_clears(b, r, Gravity::none);
    }
  }
  EXPECT_NE(generate(12, 20, 30, 1), generate(12, 20, 30, 2));
}

TEST(LinkGenerate, RejectsImpossibleSizes) {
  EXPECT_THROW((void)generate(3, 3, 2, 0), std::invalid_argument);  // odd cell count
  EXPECT_THROW((void)generate(2, 2, 3, 0), std::invalid_argument);  // more kinds than pairs
  EXPECT_THROW((void)generate(4, 4, 0, 0), std::invalid_argument);
  EXPECT_THROW((void)generate(20, 20, 63, 0), std::invalid_argument);
  EXPECT_THROW((void)generate(0, 2, 1, 0), std::invalid_argument);
  EXPECT_THROW((void)generate(kMaxSide + 1, 2, 1, 0), std::invalid_argument);
}
