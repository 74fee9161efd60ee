// The 14 Moving AI benchmark maps and scenario files in shared/benchmarks/movingai: sizes as
// listed in SOURCES.md, scenario counts, map resolution, and every start and goal passable.
#include <pathlab/io/map.hpp>
#include <pathlab/io/scenario.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

struct Benchmark {
  const char* map;
  int width;
  int height;
  std::size_t entries;
};

std::ostream& operator<<(std::ostream& os, const Benchmark& b) {
  return os << b.map;
}

const std::string bench_dir = PATHLAB_SHARED_DIR "/benchmarks/movingai/";

class MovingAiBenchmark : public ::testing::TestWithParam<Benchmark> {};

TEST_P(MovingAiBenchmark, MapAndScenariosLoad) {
  const Benchmark& b = GetParam();
  const std::string map_path = bench_dir + b.map;
  if (!std::filesystem::exists(map_path)) {
    GTEST_SKIP() << "Moving AI benchmark data not found at " << map_path
                 << " (expected shared/benchmarks/movingai beside the repository)";
  }
  const pathlab::io::Map m = pathlab::io::load_map(map_path);
  EXPECT_EQ(m.format, pathlab::io::MapFormat::movingai);
  EXPECT_EQ(m.grid.width(), b.width);
  EXPECT_EQ(m.grid.height(), b.height);
  EXPECT_GT(m.grid.wall_count(), 0);
  EXPECT_LT(m.grid.wall_count(), m.grid.cells());

  const pathlab::io::ScenarioFile s = pathlab::io::load_scenarios(map_path + ".scen");
  EXPECT_EQ(s.entries.size(), b.entries);
  EXPECT_EQ(std::filesystem::path(s.map_path()), std::filesystem::path(map_path));
  int bad = 0;
  for (const pathlab::io::ScenarioEntry& e : s.entries) {
    EXPECT_EQ(e.width, b.width) << "line " << e.line;
    EXPECT_EQ(e.height, b.height) << "line " << e.line;
    if (!m.grid.passable(e.start) || !m.grid.passable(e.goal)) {
      ADD_FAILURE() << b.map << ".scen line " << e.line << ": start or goal blocked";
      if (++bad > 5) break;
    }
  }
}

// Sizes and scenario counts from shared/benchmarks/movingai/SOURCES.md.
INSTANTIATE_TEST_SUITE_P(
    Sources, MovingAiBenchmark,
    ::testing::Values(
        Benchmark{"arena.map", 49, 49, 160}, Benchmark{"brc202d.map", 530, 481, 2519},
        Benchmark{"den520d.map", 256, 257, 888}, Benchmark{"lak303d.map", 194, 194, 1060},
        Benchmark{"ost003d.map", 194, 194, 846}, Benchmark{"AR0011SR.map", 512, 512, 1280},
        Benchmark{"Aurora.map", 1024, 768, 2990}, Benchmark{"ht_chantry.map", 162, 141, 470},
        Benchmark{"maze512-1-0.map", 512, 512, 11960}, Benchmark{"maze512-8-0.map", 512, 512, 6090},
        Benchmark{"8room_000.map", 512, 512, 1940}, Benchmark{"random512-10-0.map", 512, 512, 1670},
        Benchmark{"Berlin_0_256.map", 256, 256, 930},
        Benchmark{"Boston_0_1024.map", 1024, 1024, 3840}),
    [](const auto& info) {
      std::string n = info.param.map;
      n = n.substr(0, n.find('.'));
      for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return n;
    });

}  // namespace
