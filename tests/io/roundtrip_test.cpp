// Round trips: writing a map and reading it back gives the same cells and markers in every
// writable format (text, ASCII, Moving AI, PNG, BMP), on fixed maps and on random ones.
#include <pathlab/io/map.hpp>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace {

using pathlab::Cell;
using pathlab::grid::Grid;
using pathlab::io::load_map;
using pathlab::io::Map;
using pathlab::io::MapFormat;
using pathlab::io::parse_map;
using pathlab::io::write_map;

std::string temp_path(const std::string& ext) {
  static int counter = 0;
  return (std::filesystem::temp_directory_path() /
          ("pathlab_io_rt_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ext))
      .string();
}

// Reads back what write_map produced, detecting the format as a user's file would be.
Map reparse(const Map& m, MapFormat f) {
  return parse_map(write_map(m, f), "roundtrip");
}

Map sample() {
  Map m{Grid(7, 4), Cell{0, 3}, Cell{6, 0}, MapFormat::automatic};
  for (int x = 1; x < 6; ++x) m.grid.set_blocked(x, 1, true);
  m.grid.set_blocked(0, 0, true);
  m.grid.set_blocked(6, 3, true);
  return m;
}

TEST(RoundTrip, TextFormat) {
  const Map m = sample();
  const std::string s = write_map(m, MapFormat::text);
  EXPECT_EQ(s.substr(0, s.find('\n')), "----+--");
  EXPECT_EQ(s.substr(s.find('\n') + 1, 9), "1     9$\n");
  const Map back = reparse(m, MapFormat::text);
  EXPECT_EQ(back.format, MapFormat::text);
  EXPECT_EQ(back.grid, m.grid);
  EXPECT_EQ(back.start, m.start);
  EXPECT_EQ(back.goal, m.goal);
}

TEST(RoundTrip, AsciiFormat) {
  const Map m = sample();
  EXPECT_EQ(write_map(m, MapFormat::ascii), "#.....G\n.#####.\n.......\nS.....#\n");
  const Map back = reparse(m, MapFormat::ascii);
  EXPECT_EQ(back.format, MapFormat::ascii);
  EXPECT_EQ(back.grid, m.grid);
  EXPECT_EQ(back.start, m.start);
  EXPECT_EQ(back.goal, m.goal);
}

TEST(RoundTrip, MovingAiDropsMarkers) {
  const Map m = sample();
  const std::string s = write_map(m, MapFormat::movingai);
  EXPECT_EQ(s.rfind("type octile\nheight 4\nwidth 7\nmap\n@......\n", 0), 0u);
  const Map back = reparse(m, MapFormat::movingai);
  EXPECT_EQ(back.format, MapFormat::movingai);
  EXPECT_EQ(back.grid, m.grid);
  EXPECT_FALSE(back.start.has_value());
  EXPECT_FALSE(back.goal.has_value());
}

TEST(RoundTrip, TerrainIsWrittenAsFreeInTextFormats) {
  Map m = sample();
  m.grid.set_terrain(3, 2, 5.0f);
  for (MapFormat f : {MapFormat::text, MapFormat::ascii, MapFormat::movingai}) {
    const Map back = reparse(m, f);
    EXPECT_TRUE(back.grid.passable(3, 2));
    EXPECT_FALSE(back.grid.has_terrain());
  }
}

TEST(RoundTrip, ImageFilesPngAndBmp) {
  const Map m = sample();
  for (const char* ext : {".png", ".bmp"}) {
    const std::string path = temp_path(ext);
    pathlab::io::save_map(m, path);
    const Map back = load_map(path);
    std::filesystem::remove(path);
    EXPECT_EQ(back.format, MapFormat::image) << ext;
    EXPECT_EQ(back.grid, m.grid) << ext;
    EXPECT_EQ(back.start, m.start) << ext;
    EXPECT_EQ(back.goal, m.goal) << ext;
  }
}

TEST(RoundTrip, SaveMapPicksTheFormatFromTheExtension) {
  const Map m = sample();
  for (auto [ext, format] : {std::pair{".map", MapFormat::movingai},
                             {".txt", MapFormat::text},
                             {".ascii", MapFormat::ascii},
                             {".asc", MapFormat::ascii},
                             {".PNG", MapFormat::image}}) {
    const std::string path = temp_path(ext);
    pathlab::io::save_map(m, path);
    const Map back = load_map(path);
    std::filesystem::remove(path);
    EXPECT_EQ(back.format, format) << ext;
    EXPECT_EQ(back.grid, m.grid) << ext;
  }
  EXPECT_THROW(pathlab::io::save_map(m, temp_path(".unknown")), std::runtime_error);
  EXPECT_THROW(pathlab::io::save_map(m, "/nonexistent-dir/x.map"), std::runtime_error);
  EXPECT_THROW((void)write_map(m, MapFormat::image), std::invalid_argument);
}

// A random map: walls anywhere, markers on distinct free cells (a marker on a wall cannot
// survive a text format: '8' and 'S' are free cells).
rc::Gen<Map> random_map() {
  return rc::gen::exec([] {
    const int w = *rc::gen::inRange(1, 41);
    const int h = *rc::gen::inRange(1, 41);
    Map m{Grid(w, h), std::nullopt, std::nullopt, MapFormat::automatic};
    const int density = *rc::gen::inRange(0, 101);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if (*rc::gen::inRange(0, 100) < density) m.grid.set_blocked(x, y, true);
    if (*rc::gen::arbitrary<bool>()) {
      m.start = Cell{*rc::gen::inRange(0, w), *rc::gen::inRange(0, h)};
      m.grid.set_blocked(*m.start, false);
    }
    if (*rc::gen::arbitrary<bool>()) {
      const Cell g{*rc::gen::inRange(0, w), *rc::gen::inRange(0, h)};
      if (!m.start || g != *m.start) {
        m.goal = g;
        m.grid.set_blocked(g, false);
      }
    }
    return m;
  });
}

RC_GTEST_PROP(RoundTripProperty, TextAndAsciiKeepCellsAndMarkers, ()) {
  const Map m = *random_map();
  for (MapFormat f : {MapFormat::text, MapFormat::ascii}) {
    const Map back = reparse(m, f);
    RC_ASSERT(back.format == f);
    RC_ASSERT(back.grid == m.grid);
    RC_ASSERT(back.start == m.start);
    RC_ASSERT(back.goal == m.goal);
    // Forcing the format gives the same result as detecting it.
    RC_ASSERT(parse_map(write_map(m, f), "forced", {f}).grid == m.grid);
  }
}

RC_GTEST_PROP(RoundTripProperty, MovingAiKeepsCells, ()) {
  const Map m = *random_map();
  const Map back = reparse(m, MapFormat::movingai);
  RC_ASSERT(back.grid == m.grid);
  RC_ASSERT(!back.start && !back.goal);
}

RC_GTEST_PROP(RoundTripProperty, ImageKeepsCellsMarkersAndTerrain, ()) {
  Map m = *random_map();
  // Integer terrain costs survive as gray levels when read back with gray_terrain.
  for (int y = 0; y < m.grid.height(); ++y)
    for (int x = 0; x < m.grid.width(); ++x)
      if (m.grid.passable(x, y) && *rc::gen::inRange(0, 4) == 0)
        m.grid.set_terrain(x, y, static_cast<float>(*rc::gen::inRange(1, 10)));
  const std::string path = temp_path(*rc::gen::element(".png", ".bmp"));
  pathlab::io::save_map(m, path);
  pathlab::io::MapOptions o;
  o.gray_terrain = true;
  const Map back = load_map(path, o);
  std::filesystem::remove(path);
  for (int y = 0; y < m.grid.height(); ++y) {
    for (int x = 0; x < m.grid.width(); ++x) {
      // A marker pixel is red or green, so its cell reads back as plain free ground.
      const bool marker = (m.start && *m.start == Cell{x, y}) || (m.goal && *m.goal == Cell{x, y});
      RC_ASSERT(back.grid.passable(x, y) == m.grid.passable(x, y));
      RC_ASSERT(back.grid.terrain(x, y) == (marker ? 1.0f : m.grid.terrain(x, y)));
    }
  }
  RC_ASSERT(back.start == m.start);
  RC_ASSERT(back.goal == m.goal);
}

}  // namespace
