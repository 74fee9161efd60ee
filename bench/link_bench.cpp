// The Link game's targets (issue 6): connect <= 1 us on average on a 12x20 board, a hint over a
// full 12x20 board <= 50 us, the solver clears or refutes a random 8x10 board in <= 1 s.
// Boards are tiles dealt in pairs and shuffled uniformly (splitmix64, fixed seeds).
#include <benchmark/benchmark.h>

#include <pathlab/link/connect.hpp>
#include <pathlab/link/moves.hpp>
#include <pathlab/link/solver.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace pathlab;
using namespace pathlab::link;

namespace {

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// A full w x h board with `kinds` kinds in pairs, shuffled; with `cleared`, that fraction of
/// its pairs removed at random (the tiles, not by play: a mid-game-looking board).
Board random_board(int w, int h, int kinds, std::uint64_t seed, double cleared = 0) {
  std::string cells;
  for (int i = 0; i < w * h; ++i) cells.push_back(static_cast<char>('A' + (i / 2) % kinds));
  std::uint64_t s = seed;
  for (std::size_t i = cells.size(); i > 1; --i) std::swap(cells[i - 1], cells[splitmix(s) % i]);
  Board b(w, h, cells);
  // Visit the cells in random order and remove tiles while their kind's quota (an even number,
  // so pairs go) lasts.
  std::vector<int> order(static_cast<std::size_t>(w * h));
  for (int i = 0; i < w * h; ++i) order[static_cast<std::size_t>(i)] = i;
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[splitmix(s) % i]);
  std::vector<int> quota(static_cast<std::size_t>(kinds));
  for (int k = 0; k < kinds; ++k) {
    const int per_kind = w * h / kinds;
    quota[static_cast<std::size_t>(k)] = static_cast<int>(cleared * per_kind) / 2 * 2;
  }
  for (const int i : order) {
    const Cell c{i % w, i / w};
    int& q = quota[static_cast<std::size_t>(b.at(c) - 'A')];
    if (q > 0) {
      b.set(c, kEmpty);
      --q;
    }
  }
  return b;
}

/// Random pairs of tiles of the same kind on the board.
std::vector<Move> same_kind_pairs(const Board& b, std::size_t n) {
  std::vector<Move> out;
  std::uint64_t s = 42;
  const int cells = b.width() * b.height();
  while (out.size() < n) {
    const int i = static_cast<int>(splitmix(s) % static_cast<std::uint64_t>(cells));
    const int j = static_cast<int>(splitmix(s) % static_cast<std::uint64_t>(cells));
    const Cell a{i % b.width(), i / b.width()}, c{j % b.width(), j / b.width()};
    if (i != j && !b.is_empty(a) && b.at(a) == b.at(c)) out.push_back({a, c});
  }
  return out;
}

template <bool kConnect>
void BM_Connect(benchmark::State& state) {
  const Board b = random_board(12, 20, 30, 7, state.range(0) / 100.0);
  const std::vector<Move> pairs = same_kind_pairs(b, 4096);
  std::size_t i = 0, connected = 0;
  for (auto _ : state) {
    const Move m = pairs[i++ & 4095];
    if constexpr (kConnect) {
      const Connection c = connect(b, m.a, m.b);
      connected += c.connected();
      benchmark::DoNotOptimize(c);
    } else {
      const bool c = connectable(b, m.a, m.b);
      connected += c;
      benchmark::DoNotOptimize(c);
    }
  }
  state.counters["connected_pct"] =
      100.0 * static_cast<double>(connected) / static_cast<double>(state.iterations());
}
// Argument: percent of the tiles removed (0 = full board, 50 = half cleared).
BENCHMARK(BM_Connect<false>)->Name("connectable/12x20")->Arg(0)->Arg(50)->Arg(80);
BENCHMARK(BM_Connect<true>)->Name("connect/12x20")->Arg(0)->Arg(50)->Arg(80);

void BM_Hint(benchmark::State& state) {
  std::vector<Board> boards;
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    boards.push_back(random_board(12, 20, static_cast<int>(state.range(0)), seed));
  }
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(hint(boards[i++ & 15]));
}
BENCHMARK(BM_Hint)->Name("hint/full_12x20/kinds")->Arg(20)->Arg(30)->Arg(60);

void BM_Moves(benchmark::State& state) {
  const Board b = random_board(12, 20, 30, 3);
  for (auto _ : state) benchmark::DoNotOptimize(moves(b));
}
BENCHMARK(BM_Moves)->Name("moves/full_12x20");

/// One board per iteration, cycling over 8 seeds; counters: solved and refuted shares, nodes.
void BM_Solve(benchmark::State& state) {
  const int kinds = static_cast<int>(state.range(0));
  SolveOptions o;
  o.gravity = static_cast<Gravity>(state.range(1));
  std::vector<Board> boards;
  for (std::uint64_t seed = 0; seed < 8; ++seed) boards.push_back(random_board(10, 8, kinds, seed));
  std::size_t i = 0, solved = 0, nodes = 0;
  for (auto _ : state) {
    const SolveResult r = solve(boards[i++ & 7], o);
    solved += r.status == SolveResult::Status::solved;
    nodes += r.nodes;
  }
  const auto n = static_cast<double>(state.iterations());
  state.counters["solved_pct"] = 100.0 * static_cast<double>(solved) / n;
  state.counters["nodes"] = static_cast<double>(nodes) / n;
}
// Arguments: kinds (16: nearly always solvable ... 32: nearly never), gravity (0 none, 1 down,
// 5 centre).
BENCHMARK(BM_Solve)
    ->Name("solve/random_8x10")
    ->ArgsProduct({{16, 20, 24, 28, 32}, {0}})
    ->Args({24, 1})
    ->Args({24, 5})
    ->Unit(benchmark::kMillisecond);

void BM_Generate(benchmark::State& state) {
  std::uint64_t seed = 0;
  for (auto _ : state) benchmark::DoNotOptimize(generate(12, 20, 30, seed++));
}
BENCHMARK(BM_Generate)->Name("generate/12x20")->Unit(benchmark::kMicrosecond);

}  // namespace
