// Tiled maps (.tmx, .tmj), the layered JSON map, hex in the plain formats and the --layout option
// (shared docs/DESIGN.md, "Every map a game has"). The fixtures in data/tiled are small maps
// written by make_fixtures.py and their .tmj exports made by the Tiled editor itself.
#include <pathlab/io/map.hpp>
#include <pathlab/io/tiled.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "io_test_util.hpp"

namespace {

using pathlab::Cell;
using pathlab::ParseError;
using pathlab::grid::Grid;
using pathlab::grid::Layout;
using pathlab::grid::Side;
using pathlab::io::load_map;
using pathlab::io::Map;
using pathlab::io::MapFormat;
using pathlab::io::MapOptions;

const std::string tiled_dir = pathlab::testing::data_dir + "tiled/";

Map tiled_load(const std::string& file, const MapOptions& options = {}) {
  return load_map(tiled_dir + file, options);
}

// The 6 x 5 map every orientation and encoding fixture holds (make_fixtures.py, BASE).
Grid tiled_base_grid() {
  Grid g(6, 5);
  const auto wall = [&](int x, int y) { g.set_blocked(x, y, true); };
  wall(2, 0);                 // gid 2: class wall
  wall(2, 2);                 // gid 5: walkable false
  wall(3, 3);                 // gid 0: an empty cell
  wall(4, 4);                 // gid 2
  g.set_terrain(4, 0, 3.5f);  // gid 7: cost 3.5
  g.set_terrain(1, 4, 3.5f);
  g.set_terrain(1, 1, 2.0f);  // gid 4: class S, cost 2
  g.set_class(1, 1, 'S');
  g.set_class(5, 1, 'x');  // gid 8: a class character of the user's
  g.set_class(0, 2, 'W');  // gid 3: water
  g.set_class(4, 2, 'T');  // gid 6: trees
  return g;
}

void expect_same_map(const Map& a, const Map& b, const std::string& what) {
  EXPECT_TRUE(a.grid == b.grid) << what;
  EXPECT_EQ(a.start, b.start) << what;
  EXPECT_EQ(a.goal, b.goal) << what;
}

TEST(TiledRead, OrthogonalCsvHoldsTheCellsItsTilesSay) {
  const Map m = tiled_load("ortho_csv.tmx");
  EXPECT_EQ(m.format, MapFormat::tmx);
  EXPECT_TRUE(m.grid == tiled_base_grid());
  EXPECT_EQ(m.grid.layout(), Layout::square);
  EXPECT_EQ(m.start, (Cell{0, 0}));
  EXPECT_EQ(m.goal, (Cell{5, 4}));
}

TEST(TiledRead, EveryEncodingAndCompressionGivesTheSameMap) {
  const Map csv = tiled_load("ortho_csv.tmx");
  for (const char* f : {"ortho_base64", "ortho_zlib", "ortho_gzip", "ortho_zstd"}) {
    expect_same_map(tiled_load(std::string(f) + ".tmx"), csv, f);
    expect_same_map(tiled_load(std::string(f) + ".tmj"), csv, std::string(f) + ".tmj");
  }
}

TEST(TiledRead, IsometricMapsAreReadAsSquareCells) {
  const Map m = tiled_load("isometric.tmx");
  expect_same_map(m, tiled_load("ortho_csv.tmx"), "isometric");
}

TEST(TiledRead, HexagonalMapsGiveTheirLayout) {
  const struct {
    const char* file;
    Layout layout;
  } cases[] = {{"hex_pointy_odd", Layout::pointy_odd_r},
               {"hex_pointy_even", Layout::pointy_even_r},
               {"hex_flat_odd", Layout::flat_odd_q},
               {"hex_flat_even", Layout::flat_even_q}};
  for (const auto& c : cases) {
    for (const char* ext : {".tmx", ".tmj"}) {
      const Map m = tiled_load(std::string(c.file) + ext);
      EXPECT_EQ(m.grid.layout(), c.layout) << c.file << ext;
      Grid want = tiled_base_grid();
      want.set_layout(c.layout);
      EXPECT_TRUE(m.grid == want) << c.file << ext;
      // The markers sit at hex centres of both parities.
      EXPECT_EQ(m.start, (Cell{1, 1})) << c.file << ext;
      EXPECT_EQ(m.goal, (Cell{4, 3})) << c.file << ext;
    }
  }
}

TEST(TiledRead, ExternalTilesetsFirstgidsAndFlipFlags) {
  for (const char* f : {"external.tmx", "external.tmj"}) {
    const Map m = tiled_load(f);
    Grid want(4, 3);
    want.set_blocked(1, 0, true);
    want.set_class(2, 0, 'S');
    want.set_blocked(0, 1, true);  // gid 2, flipped horizontally
    want.set_class(1, 1, 'S');     // gid 21, flipped vertically
    want.set_class(2, 1, 'W');
    want.set_class(3, 2, 'T');
    EXPECT_TRUE(m.grid == want) << f;
  }
}

Grid tiled_floors_grid() {
  Grid g = Grid::layered(4, 3, 2);
  const auto wall = [&](int l, int x, int y) {
    const Cell c = g.at(l, x, y);
    g.set_blocked(c.x, c.y, true);
  };
  wall(0, 1, 1);
  wall(1, 2, 0);
  wall(1, 0, 2);
  wall(1, 1, 2);
  EXPECT_FALSE(g.add_link({g.at(0, 3, 2), g.at(1, 3, 2), 2.0f, false}));
  EXPECT_FALSE(g.add_link({g.at(1, 1, 1), g.at(0, 0, 2), 1.5f, true}));
  return g;
}

TEST(TiledRead, FloorsLinksGroupsAndMarkersOnTwoFloors) {
  for (const char* f : {"floors.tmx", "floors.tmj"}) {
    const Map m = tiled_load(f);
    EXPECT_EQ(m.grid.layers(), 2) << f;
    EXPECT_EQ(m.grid.layer_height(), 3) << f;
    EXPECT_TRUE(m.grid == tiled_floors_grid()) << f;
    EXPECT_EQ(m.start, m.grid.at(0, 0, 0)) << f;
    EXPECT_EQ(m.goal, m.grid.at(1, 0, 0)) << f;
  }
}

TEST(TiledRead, ThinWallsFromTilesAndFromPolylines) {
  Grid want(5, 4);
  want.set_edge_wall(1, 0, Side::east, true);   // tile wall_e
  want.set_edge_wall(3, 1, Side::north, true);  // tile wall_n, wall_s
  want.set_edge_wall(3, 1, Side::south, true);
  want.set_edge_wall(0, 2, Side::north, true);  // the polyline (0,2) (2,2) (2,4)
  want.set_edge_wall(1, 2, Side::north, true);
  want.set_edge_wall(2, 2, Side::west, true);
  want.set_edge_wall(2, 3, Side::west, true);
  for (const Side s : {Side::north, Side::east, Side::south, Side::west}) {
    want.set_edge_wall(4, 0, s, true);  // the polygon around cell (4, 0)
  }
  for (const char* f : {"thin_walls.tmx", "thin_walls.tmj"}) {
    const Map m = tiled_load(f);
    // The two empty cells are ground: the layer says empty = ground.
    EXPECT_TRUE(m.grid == want) << f;
    EXPECT_EQ(m.grid.edge_wall_count(), want.edge_wall_count()) << f;
    EXPECT_EQ(m.start, (Cell{0, 0})) << f;
    EXPECT_EQ(m.goal, (Cell{4, 3})) << f;
  }
}

TEST(TiledRead, OverlaidLayersTheLastNonEmptyTileWins) {
  Grid want(4, 3);
  want.set_blocked(2, 0, true);
  want.set_class(1, 1, 'T');
  for (const char* f : {"overlay.tmx", "overlay.tmj"}) EXPECT_TRUE(tiled_load(f).grid == want) << f;
}

TEST(TiledRead, InfiniteMapsAreTheirChunksBoundingBox) {
  Grid want(32, 16);
  for (int y = 0; y < 16; ++y) {
    for (int x = 0; x < 16; ++x) {
      if ((x + y) % 5 == 0) want.set_blocked(16 + x, y, true);
    }
  }
  for (const char* f : {"infinite.tmx", "infinite.tmj"}) {
    const Map m = tiled_load(f);
    EXPECT_TRUE(m.grid == want) << f;
    EXPECT_EQ(m.start, (Cell{0, 0})) << f;
    EXPECT_EQ(m.goal, (Cell{31, 15})) << f;
  }
}

// Every fixture and the Tiled editor's own export of it load as the same map.
TEST(TiledRead, EveryMapEqualsItsExportByTheTiledEditor) {
  int compared = 0;
  for (const auto& e : std::filesystem::directory_iterator(tiled_dir)) {
    if (e.path().extension() != ".tmx") continue;
    std::filesystem::path tmj = e.path();
    tmj.replace_extension(".tmj");
    ASSERT_TRUE(std::filesystem::exists(tmj)) << tmj;
    expect_same_map(load_map(e.path().string()), load_map(tmj.string()), e.path().string());
    ++compared;
  }
  EXPECT_GE(compared, 15);
}

// ---------------------------------------------------------------------------------------------
// Writing .tmj.

Map tiled_random_map(std::mt19937& rng, int kind) {
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const int w = 1 + pick(12), h = 1 + pick(9);
  const Layout layouts[] = {Layout::pointy_odd_r, Layout::pointy_even_r, Layout::flat_odd_q,
                            Layout::flat_even_q};
  const bool hex = kind == 2 || kind == 4;
  const int floors = kind >= 3 ? 2 + pick(2) : 1;
  Map m{floors > 1 ? Grid::layered(w, h, floors) : Grid(w, h), std::nullopt, std::nullopt,
        MapFormat::automatic};
  Grid& g = m.grid;
  const auto random_cell = [&] { return g.at(pick(floors), pick(w), pick(h)); };
  const char classes[] = {'S', 'W', 'T', 'x', '"', '\\', '$'};
  for (int l = 0; l < floors; ++l) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        const Cell c = g.at(l, x, y);
        switch (pick(10)) {
          case 0:
          case 1:
            g.set_blocked(c.x, c.y, true);
            break;
          case 2:
          case 3:
            g.set_class(c.x, c.y, classes[pick(7)]);
            break;
          case 4:
            g.set_terrain(c.x, c.y, 1.0f + 0.1f * static_cast<float>(1 + pick(40)));
            break;
          case 5:
            g.set_terrain(c.x, c.y, static_cast<float>(2 + pick(5)));
            g.set_class(c.x, c.y, classes[pick(7)]);
            break;
          case 6:
            g.set_terrain(c.x, c.y, 3.0f);  // a wall that keeps a cost
            g.set_blocked(c.x, c.y, true);
            break;
          default:
            break;
        }
      }
    }
  }
  if (!hex && (kind == 1 || kind == 3)) {
    for (int i = pick(2 * w * h); i > 0; --i) {
      const Cell c = random_cell();
      g.set_edge_wall(c.x, c.y, static_cast<Side>(pick(4)), true);
    }
  }
  if (kind >= 2) {
    for (int i = pick(6); i > 0; --i) {
      const float cost = pick(2) ? static_cast<float>(1 + pick(4)) : 0.3f + 0.7f * pick(5);
      EXPECT_FALSE(g.add_link({random_cell(), random_cell(), cost, pick(2) == 0}));
    }
  }
  if (pick(3) > 0) m.start = random_cell();
  if (pick(3) > 0) m.goal = random_cell();
  if (hex) g.set_layout(layouts[pick(4)]);
  return m;
}

TEST(TiledWrite, RandomMapsOfEveryKindReadBackEqual) {
  std::mt19937 rng(29);
  for (int i = 0; i < 500; ++i) {
    const int kind = i % 5;
    const Map m = tiled_random_map(rng, kind);
    const std::string text = pathlab::io::write_map(m, MapFormat::tmj);
    Map back;
    try {
      back = pathlab::io::parse_map(text, "random.tmj");
    } catch (const ParseError& e) {
      FAIL() << "map " << i << " (kind " << kind << "): " << e.what() << "\n" << text;
    }
    EXPECT_EQ(back.format, MapFormat::tmj);
    ASSERT_TRUE(back.grid == m.grid) << "map " << i << " (kind " << kind << ")\n" << text;
    EXPECT_EQ(back.start, m.start) << i;
    EXPECT_EQ(back.goal, m.goal) << i;
  }
}

TEST(TiledWrite, WallsOnHexEdgesAreRefusedNotDropped) {
  // Tiled's thin walls are the four sides of a square tile: a hex map with walls on its edges
  // cannot be written without losing them, so neither tmj nor the plain formats write it.
  Map m;
  m.grid = pathlab::grid::Grid(5, 4);
  m.grid.set_layout(pathlab::grid::Layout::flat_odd_q);
  m.grid.set_hex_edge_wall(2, 1, 3, true);
  for (const MapFormat f : {MapFormat::tmj, MapFormat::movingai, MapFormat::text}) {
    try {
      (void)pathlab::io::write_map(m, f);
      ADD_FAILURE() << to_string(f) << " wrote a map whose hex edge walls it cannot hold";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("edge"), std::string::npos) << e.what();
    }
  }
  m.grid.set_hex_edge_wall(2, 1, 3, false);
  EXPECT_NO_THROW((void)pathlab::io::write_map(m, MapFormat::tmj));
}

TEST(TiledWrite, SaveMapByExtensionAndTheFixturesRoundTrip) {
  const auto dir = std::filesystem::temp_directory_path() / "pathlab_tiled_save";
  std::filesystem::create_directories(dir);
  for (const char* f : {"floors.tmx", "thin_walls.tmx", "hex_flat_even.tmx", "ortho_zstd.tmx"}) {
    const Map m = tiled_load(f);
    const std::string out = (dir / (std::string(f) + ".tmj")).string();
    pathlab::io::save_map(m, out);
    expect_same_map(load_map(out), m, f);
  }
  std::filesystem::remove_all(dir);
}

// ---------------------------------------------------------------------------------------------
// The layered JSON map, hex in Moving AI, --layout.

std::string tiled_write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

TEST(LayeredJson, FloorsFromMapFilesAndLinks) {
  const auto dir = std::filesystem::temp_directory_path() / "pathlab_layered";
  std::filesystem::create_directories(dir / "floors");
  tiled_write_file(dir / "floors/f0.map", "type octile\nheight 2\nwidth 3\nmap\n..@\nS..\n");
  tiled_write_file(dir / "floors/f1.txt", "S.#\n..G\n");
  const std::string json = tiled_write_file(
      dir / "tower.json",
      "{\"layers\": [{\"map\": \"floors/f0.map\"}, {\"map\": \"floors/f1.txt\"}],\n"
      " \"links\": [{\"from\": [0, 1, 1], \"to\": [1, 1, 0], \"cost\": 2.5},\n"
      "           {\"from\": [1, 0, 1], \"to\": [0, 0, 0], \"oneway\": true}],\n"
      " \"layout\": \"square\"}\n");
  const Map m = load_map(json);
  EXPECT_EQ(m.format, MapFormat::layered);
  Grid want = Grid::layered(3, 2, 2);
  const auto at = [&](int l, int x, int y) { return want.at(l, x, y); };
  want.set_blocked(at(0, 2, 0).x, at(0, 2, 0).y, true);
  want.set_class(at(0, 0, 1).x, at(0, 0, 1).y, 'S');
  want.set_blocked(at(1, 2, 0).x, at(1, 2, 0).y, true);
  EXPECT_FALSE(want.add_link({at(0, 1, 1), at(1, 1, 0), 2.5f, false}));
  EXPECT_FALSE(want.add_link({at(1, 0, 1), at(0, 0, 0), 1.0f, true}));
  EXPECT_TRUE(m.grid == want);
  EXPECT_EQ(m.start, at(1, 0, 0));  // the ASCII floor's S and G
  EXPECT_EQ(m.goal, at(1, 2, 1));

  // A hex layout for every floor; the .tmj writer keeps all of it.
  tiled_write_file(dir / "hex.json",
                   "{\"layers\": [{\"map\": \"floors/f0.map\"}, {\"map\": \"floors/f0.map\"}], "
                   "\"layout\": \"flat-even-q\"}");
  const Map hex = load_map((dir / "hex.json").string());
  EXPECT_EQ(hex.grid.layout(), Layout::flat_even_q);
  EXPECT_EQ(hex.grid.layers(), 2);
  expect_same_map(pathlab::io::parse_map(pathlab::io::write_tmj(hex), "x.tmj"), hex, "hex");

  // Errors name the file and the line of the layer or link at fault.
  const struct {
    const char* text;
    int line;
    const char* says;
  } bad[] = {
      {"{\"layers\": [{\"map\": \"floors/f0.map\"},\n {\"map\": \"floors/other.map\"}]}", 2,
       "cannot read the floor"},
      {"{\"layers\": [{\"map\": \"floors/f0.map\"},\n {\"map\": \"small.map\"}]}", 2,
       "floors must have one size"},
      {"{\"layers\": [{\"map\": \"floors/f0.map\"}],\n \"links\": [\n {\"from\": [0, 0, 0], "
       "\"to\": [1, 0, 0]}]}",
       3, "not a cell of the map"},
      {"{\"layers\": [{\"map\": \"floors/f0.map\"}],\n \"links\": [\n {\"from\": [0, 0, 0], "
       "\"to\": [0, 1, 0], \"cost\": 0}]}",
       3, "cost"},
      {"{\"layers\": [{\"map\": \"floors/f0.map\"}], \"layout\": \"hexagon\"}", 1,
       "unknown layout"},
      {"{\"layers\": [{\"map\": \"loop.json\"}]}", 1, "layered map itself"},
      {"{\"layers\": [\n{\"map\": 3}]}", 2, "needs \"map\""},
      {"{\"layers\": [{\"map\": \"floors/f0.map\"}],\n \"links\": 5,}", 2, "not valid JSON"},
  };
  tiled_write_file(dir / "small.map", "type octile\nheight 1\nwidth 1\nmap\n.\n");
  tiled_write_file(dir / "loop.json", "{\"layers\": [{\"map\": \"loop.json\"}]}");
  for (const auto& b : bad) {
    const std::string path = tiled_write_file(dir / "bad.json", b.text);
    try {
      (void)load_map(path);
      ADD_FAILURE() << "accepted: " << b.text;
    } catch (const ParseError& e) {
      EXPECT_EQ(e.file(), path) << b.text;
      EXPECT_EQ(e.line(), b.line) << e.what();
      EXPECT_NE(e.message().find(b.says), std::string::npos) << e.what();
    }
  }
  std::filesystem::remove_all(dir);
}

// Bytes parsed from memory (an upload to the HTTP API) never make pathlab read the files they
// name; load_map reads them from disk.
TEST(TiledRead, MapsParsedFromMemoryReadNoOtherFile) {
  for (const char* f : {"external.tmx", "external.tmj"}) {
    const std::string bytes = pathlab::testing::slurp(tiled_dir + f);
    try {
      (void)pathlab::io::parse_map(bytes, tiled_dir + f);
      ADD_FAILURE() << f << ": read its tileset";
    } catch (const ParseError& e) {
      EXPECT_NE(e.message().find("reads no other file"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW((void)load_map(tiled_dir + f));
  }
  try {
    (void)pathlab::io::parse_map("{\"layers\": [{\"map\": \"/etc/hostname\"}]}", "upload");
    ADD_FAILURE() << "a layered map from memory read a floor";
  } catch (const ParseError& e) {
    EXPECT_NE(e.message().find("reads no other file"), std::string::npos) << e.what();
  }
}

TEST(HexPlainFormats, MovingAiHexTypeReadAndWritten) {
  const std::string text = "type hex-flat-odd-q\nheight 2\nwidth 3\nmap\n.@.\nT..\n";
  const Map m = pathlab::io::parse_map(text, "hex.map");
  EXPECT_EQ(m.grid.layout(), Layout::flat_odd_q);
  EXPECT_EQ(pathlab::io::write_map(m, MapFormat::movingai), text);
  for (const Layout l : {Layout::pointy_odd_r, Layout::pointy_even_r, Layout::flat_even_q}) {
    Map h = m;
    h.grid.set_layout(l);
    const std::string written = pathlab::io::write_map(h, MapFormat::movingai);
    EXPECT_EQ(written.substr(0, written.find('\n')),
              "type hex-" + std::string(pathlab::grid::to_string(l)));
    EXPECT_TRUE(pathlab::io::parse_map(written, "again.map").grid == h.grid);
  }
  try {
    (void)pathlab::io::parse_map("height 1\ntype hex-round\nwidth 1\nmap\n.\n", "bad.map");
    ADD_FAILURE() << "accepted type hex-round";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(e.message().find("hex-pointy-odd-r"), std::string::npos) << e.what();
  }
}

TEST(HexPlainFormats, LayoutOptionSetsTheLayoutOfAnyMap) {
  MapOptions o;
  o.layout = Layout::pointy_even_r;
  const Map ascii = pathlab::io::parse_map("..#\nS.G\n", "m.ascii", o);
  EXPECT_EQ(ascii.grid.layout(), Layout::pointy_even_r);
  EXPECT_EQ(tiled_load("ortho_csv.tmx", o).grid.layout(), Layout::pointy_even_r);
  o.layout = Layout::square;
  EXPECT_EQ(tiled_load("hex_flat_odd.tmx", o).grid.layout(), Layout::square);
  // Thin walls are defined on square cells only.
  o.layout = Layout::flat_odd_q;
  try {
    (void)tiled_load("thin_walls.tmx", o);
    ADD_FAILURE() << "a hex layout over thin walls was accepted";
  } catch (const ParseError& e) {
    EXPECT_NE(e.message().find("square"), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// The Tiled editor itself, when installed: it exports the fixtures as the committed .tmj files
// say, and reads the maps write_tmj writes.

bool tiled_installed() {
  return std::system("command -v tiled >/dev/null 2>&1") == 0;
}

int tiled_export(const std::string& from, const std::string& to) {
  const std::string cmd = "QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp tiled --export-map " +
                          std::string(to.ends_with(".tmx") ? "tmx" : "json") + " '" + from + "' '" +
                          to + "' >/dev/null 2>&1";
  return std::system(cmd.c_str());
}

TEST(TiledEditor, ExportsAgreeAndItReadsWhatPathlabWrites) {
  if (!tiled_installed()) {
    GTEST_SKIP() << "the Tiled editor (Debian package tiled) is not installed: the committed "
                    ".tmj exports are compared instead (TiledRead.EveryMapEqualsItsExport...)";
  }
  const auto dir = std::filesystem::temp_directory_path() / "pathlab_tiled_editor";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(tiled_dir + "walls.tsx", dir / "walls.tsx",
                             std::filesystem::copy_options::overwrite_existing);
  for (const char* f : {"ortho_zstd", "floors", "thin_walls", "external", "hex_pointy_even"}) {
    const std::string out = (dir / (std::string(f) + ".tmj")).string();
    ASSERT_EQ(tiled_export(tiled_dir + f + ".tmx", out), 0) << f;
    expect_same_map(load_map(out), tiled_load(std::string(f) + ".tmx"), f);
  }
  // pathlab's .tmj, opened and saved as .tmx by Tiled, reads back as the same map.
  std::mt19937 rng(7);
  for (int i = 0; i < 10; ++i) {
    const Map m = tiled_random_map(rng, i % 5);
    const std::string tmj = (dir / "written.tmj").string();
    const std::string tmx = (dir / "written.tmx").string();
    pathlab::io::save_map(m, tmj);
    ASSERT_EQ(tiled_export(tmj, tmx), 0) << i;
    expect_same_map(load_map(tmx), m, "written " + std::to_string(i));
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
