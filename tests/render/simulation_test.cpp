// Simulation renders: frames are kept at an even stride within the cap and end on the latest
// state; each frame shows agents at their positions in their own colour (red while colliding,
// faded once arrived), obstacles where they were at that frame's time (and only while present);
// the GIF decodes to one image per frame that compose to the last picture, the PNG to the last
// frame, and the SVG names the obstacles' outlines.
#include <gtest/gtest.h>

#include <gif_lib.h>
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include <pathlab/agents/scenario.hpp>
#include <pathlab/agents/world.hpp>
#include <pathlab/render/simulation.hpp>
#include "render_test_util.hpp"

using namespace pathlab;
using agents::Vec2;
using render::IndexedImage;
using render::SimulationOptions;
using render::SimulationRecorder;
namespace fs = std::filesystem;

namespace {

using pathlab::testing::count;
using pathlab::testing::temp_path;

/// An open 20x10 room, one agent crossing it along row 5, a disc rolling right along row 2, a
/// square that appears at t = 1 s in the far corner and a thin wall in the other.
agents::WorldSpec room() {
  agents::WorldSpec s;
  s.grid = grid::Grid(20, 10);
  s.dt = 0.05;
  s.time_limit = 30;
  agents::AgentSpec a;
  a.id = 7;
  a.start = {2.5, 5.5};
  a.goal = {17.5, 5.5};
  s.agents.push_back(a);
  agents::Obstacle disc;
  disc.id = 1;
  disc.shape = {agents::ShapeKind::disc, 0.6, {}};
  disc.motion.start = {2, 2};
  disc.motion.velocity = {1, 0};
  s.obstacles.push_back(disc);
  agents::Obstacle square;
  square.id = 2;
  square.shape = {agents::ShapeKind::polygon, 0, {{0, 0}, {2, 0}, {2, 2}, {0, 2}}};
  square.motion.start = {16, 7};
  square.appear = 1;
  s.obstacles.push_back(square);
  agents::Obstacle wall;  // a thin wall standing still in the top-right corner
  wall.id = 4;
  wall.shape = {agents::ShapeKind::segment, 0, {{0, 0}, {0, 2}}};
  wall.motion.start = {18, 0.5};
  s.obstacles.push_back(wall);
  return s;
}

/// Steps the world `ticks` times (or to the end), capturing after each step; the last tick is
/// kept as a frame.
void run(agents::World& w, SimulationRecorder& rec, int ticks = 1 << 30) {
  for (int k = 0; k < ticks && !w.finished(); ++k) {
    w.step();
    rec.capture(w, k + 1 == ticks);
  }
}

std::uint8_t pixel(const IndexedImage& img, int cp, Vec2 p) {
  return pathlab::testing::pixel(img, static_cast<int>(std::floor(p.x * cp)),
                                 static_cast<int>(std::floor(p.y * cp)));
}

TEST(SimulationRender, FramesKeepAnEvenStrideWithinTheCap) {
  agents::World w(room());
  SimulationOptions o;
  o.ticks_per_frame = 5;
  SimulationRecorder rec(w, o);
  auto ticks = [&] {
    std::vector<std::uint64_t> out;
    for (const auto& f : rec.frames()) out.push_back(f.tick);
    return out;
  };
  for (int k = 0; k < 23; ++k) {
    w.step();
    rec.capture(w);
  }
  EXPECT_EQ(ticks(), (std::vector<std::uint64_t>{0, 5, 10, 15, 20}));
  rec.capture(w, true);  // cut short here: the latest state closes the frames
  EXPECT_EQ(ticks(), (std::vector<std::uint64_t>{0, 5, 10, 15, 20, 23}));
  EXPECT_NEAR(rec.frames().back().time, 23 * 0.05, 1e-9);
  w.step();
  rec.capture(w, true);  // replaces the previous extra frame
  EXPECT_EQ(ticks(), (std::vector<std::uint64_t>{0, 5, 10, 15, 20, 24}));
  w.step();
  rec.capture(w);  // back on the stride: the extra frame goes
  EXPECT_EQ(ticks(), (std::vector<std::uint64_t>{0, 5, 10, 15, 20, 25}));

  // A whole run with a cap of 10: the stride doubles until the frames fit, the last frame is
  // the end of the run.
  agents::World whole(room());
  o.ticks_per_frame = 0;
  o.max_frames = 10;
  SimulationRecorder capped(whole, o);
  run(whole, capped);
  ASSERT_TRUE(whole.agents()[0].arrived);
  const auto& frames = capped.frames();
  ASSERT_LE(frames.size(), 10u);
  ASSERT_GE(frames.size(), 5u);  // halving never leaves fewer than half
  const std::uint64_t stride = capped.stride();
  EXPECT_EQ(stride & (stride - 1), 0u) << stride;  // a power of two
  EXPECT_GE(stride * 10, whole.ticks());
  EXPECT_EQ(frames.front().tick, 0u);
  EXPECT_EQ(frames.back().tick, whole.ticks());
  for (std::size_t k = 1; k + 1 < frames.size(); ++k) {
    EXPECT_EQ(frames[k].tick - frames[k - 1].tick, stride) << k;
  }
  EXPECT_LE(frames.back().tick - frames[frames.size() - 2].tick, stride);
}

TEST(SimulationRender, AgentsAndObstaclesAreWhereTheWorldHadThem) {
  agents::World w(room());
  SimulationOptions o;
  o.cell_px = 10;
  SimulationRecorder rec(w, o);
  run(w, rec, 40);  // 2 s: the disc has rolled 2 cells, the square has appeared
  ASSERT_EQ(rec.cell_px(), 10);
  const auto& frames = rec.frames();
  ASSERT_EQ(frames.size(), 41u);

  const IndexedImage first = rec.draw(0);
  EXPECT_EQ(first.width, 200);
  EXPECT_EQ(first.height, 100);
  const IndexedImage now = rec.draw(frames.size() - 1);
  const Vec2 agent = w.agents()[0].position;
  ASSERT_GT(agent.x, 4.0);  // it moved
  EXPECT_EQ(pixel(now, 10, agent), render::agent_colour(0));
  EXPECT_EQ(pixel(first, 10, {2.5, 5.5}), render::agent_colour(0));
  // Where the agent started, its faded trail runs under nothing else now.
  EXPECT_EQ(pixel(now, 10, {3.0, 5.5}), render::agent_colour(0, true));

  // The disc at its position at each frame's time, gone from where it was.
  const agents::Obstacle& disc = w.spec().obstacles[0];
  EXPECT_EQ(pixel(first, 10, disc.position(0)), render::kObstacle);
  EXPECT_EQ(pixel(now, 10, disc.position(frames.back().time)), render::kObstacle);
  EXPECT_NE(pixel(now, 10, disc.position(0)), render::kObstacle);
  EXPECT_NEAR(disc.position(frames.back().time).x, 4.0, 1e-9);

  // The square only once it has appeared (t = 1 s).
  const Vec2 inside{17, 8};
  EXPECT_EQ(frames[10].obstacles.size(), 2u);
  EXPECT_EQ(frames[30].obstacles.size(), 3u);
  EXPECT_NE(pixel(rec.draw(10), 10, inside), render::kObstacle);
  EXPECT_EQ(pixel(rec.draw(30), 10, inside), render::kObstacle);
  // Its area: 2x2 cells of 10 px, plus the disc's (radius 6 px, about 113 px), plus the thin
  // wall's (2 cells long, 2 px wide).
  EXPECT_EQ(pixel(now, 10, {18, 1.5}), render::kObstacle);
  const std::size_t area = count(now, render::kObstacle);
  EXPECT_GE(area, 400u + 100u + 40u);
  EXPECT_LE(area, 400u + 130u + 46u);

  // The force arrow and the plan are drawn.
  EXPECT_GT(count(now, render::kForce), 0u);
  EXPECT_FALSE(frames.back().agents[0].plan.empty());
  EXPECT_EQ(frames.back().agents[0].id, 7);
}

TEST(SimulationRender, CollidingAgentsAreRedAndArrivedOnesFaded) {
  agents::WorldSpec s = room();
  // A disc rolling left down row 5 straight through the agent: it cannot get out of the way.
  agents::Obstacle ram;
  ram.id = 3;
  ram.shape = {agents::ShapeKind::disc, 1.5, {}};
  ram.motion.start = {7, 5.5};
  ram.motion.velocity = {-6, 0};
  ram.disappear = 2;
  s.obstacles.push_back(ram);
  agents::World w(std::move(s));
  SimulationOptions o;
  o.cell_px = 10;
  SimulationRecorder rec(w, o);
  bool seen = false;
  while (!w.finished()) {
    w.step();
    rec.capture(w, true);
    const auto& f = rec.frames().back();
    if (!f.agents[0].colliding || seen) continue;
    seen = true;
    // The ram covers the agent's centre; its disc is drawn over the obstacle, in red.
    const IndexedImage img = rec.draw(rec.frames().size() - 1);
    EXPECT_EQ(pixel(img, 10, f.agents[0].position), render::kColliding);
  }
  EXPECT_TRUE(seen);
  ASSERT_TRUE(w.agents()[0].arrived);
  EXPECT_GE(w.agents()[0].metrics.collisions, 1);
  const IndexedImage last = rec.draw(rec.frames().size() - 1);
  EXPECT_EQ(pixel(last, 10, w.agents()[0].position), render::agent_colour(0, true));
  EXPECT_EQ(count(last, render::kColliding), 0u);
  EXPECT_EQ(count(last, render::kForce), 0u);  // no force once arrived
}

TEST(SimulationRender, PaletteColoursAreDistinct) {
  const auto& pal = render::palette();
  std::set<std::tuple<int, int, int>> seen;
  std::vector<int> sim{render::kFree, render::kWall, render::kObstacle, render::kColliding,
                       render::kForce};
  for (int k = 0; k < render::kAgentHues; ++k) {
    sim.push_back(render::agent_colour(static_cast<std::size_t>(k)));
    sim.push_back(render::agent_colour(static_cast<std::size_t>(k), true));
  }
  for (int c : sim) {
    EXPECT_TRUE(seen.insert({pal[c * 3u], pal[c * 3u + 1], pal[c * 3u + 2]}).second) << c;
  }
  EXPECT_EQ(render::agent_colour(render::kAgentHues), render::agent_colour(0));
}

TEST(SimulationRender, GifPngAndSvgFiles) {
  agents::World w(room());
  SimulationOptions o;
  o.max_frames = 40;
  SimulationRecorder rec(w, o);
  run(w, rec);
  const auto& frames = rec.frames();
  const IndexedImage last = rec.draw(frames.size() - 1);
  EXPECT_EQ(rec.cell_px(), 24);  // 640 / 20 cells, at most 24
  EXPECT_EQ(last.width, 20 * 24);

  // GIF: one image per frame, each laid over the ones before it giving that frame's picture,
  // shown for the simulated time between frames (clamped to [2, 10] cs), the last one 3 s.
  const std::string gif_path = temp_path("run.gif");
  rec.write(gif_path);
  int err = 0;
  GifFileType* gif = DGifOpenFileName(gif_path.c_str(), &err);
  ASSERT_NE(gif, nullptr);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK);
  EXPECT_EQ(gif->SWidth, last.width);
  EXPECT_EQ(gif->SHeight, last.height);
  ASSERT_EQ(static_cast<std::size_t>(gif->ImageCount), frames.size());
  const int delay = std::clamp(static_cast<int>(rec.stride()) * 5, 2, 10);
  std::vector<std::uint8_t> canvas(last.pixels.size(), 0);
  const std::ptrdiff_t stride = last.width;
  for (int k = 0; k < gif->ImageCount; ++k) {
    const GifImageDesc& d = gif->SavedImages[k].ImageDesc;
    for (std::ptrdiff_t y = 0; y < d.Height; ++y) {
      const GifByteType* row = gif->SavedImages[k].RasterBits + y * d.Width;
      std::copy(row, row + d.Width, canvas.begin() + (d.Top + y) * stride + d.Left);
    }
    ASSERT_EQ(canvas, rec.draw(static_cast<std::size_t>(k)).pixels) << "frame " << k;
    GraphicsControlBlock gcb{};
    ASSERT_EQ(DGifSavedExtensionToGCB(gif, k, &gcb), GIF_OK);
    EXPECT_EQ(gcb.DelayTime, k + 1 == gif->ImageCount ? 300 : delay) << k;
  }
  DGifCloseFile(gif, &err);
  fs::remove(gif_path);

  // PNG: the last frame.
  const std::string png_path = temp_path("run.png");
  rec.write(png_path);
  int pw = 0, ph = 0, n = 0;
  unsigned char* rgb = stbi_load(png_path.c_str(), &pw, &ph, &n, 3);
  ASSERT_NE(rgb, nullptr);
  EXPECT_EQ(std::pair(pw, ph), std::pair(last.width, last.height));
  std::vector<std::uint8_t> expected;
  for (const std::uint8_t c : last.pixels) {
    const auto* colour = &render::palette()[c * 3u];
    expected.insert(expected.end(), colour, colour + 3);
  }
  if (pw == last.width && ph == last.height) {
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), rgb));
  }
  stbi_image_free(rgb);
  fs::remove(png_path);

  // SVG: the square's outline where it stands at the end, the disc, the agent and its trail.
  const std::string svg = rec.svg();
  const double cp = rec.cell_px();
  std::string square;
  for (const auto& p : std::vector<Vec2>{{16, 7}, {18, 7}, {18, 9}, {16, 9}}) {
    square += std::to_string(p.x * cp) + "," + std::to_string(p.y * cp) + " ";
  }
  EXPECT_NE(svg.find("<polygon class=\"obstacle\" data-id=\"2\""), std::string::npos);
  EXPECT_NE(svg.find("points=\"" + square + "\""), std::string::npos) << svg.substr(0, 400);
  EXPECT_NE(svg.find("<circle class=\"obstacle\" data-id=\"1\""), std::string::npos);
  EXPECT_NE(svg.find("<line class=\"obstacle\" data-id=\"4\" x1=\"" + std::to_string(18 * cp)),
            std::string::npos);
  EXPECT_NE(svg.find("<circle class=\"agent\" data-id=\"7\""), std::string::npos);
  EXPECT_NE(svg.find("<polyline class=\"trail\""), std::string::npos);
  EXPECT_EQ(svg.rfind("</svg>\n"), svg.size() - 7);
}

TEST(SimulationRender, EveryShippedScenarioFitsTheCap) {
  int seen = 0;
  for (const auto& entry : fs::directory_iterator(PATHLAB_SOURCE_DIR "/scenarios")) {
    if (entry.path().extension() != ".json") continue;
    ++seen;
    const agents::Scenario sc = agents::load_scenario(entry.path().string());
    agents::World w(sc.world);
    SimulationRecorder rec(w);
    run(w, rec);
    const auto& frames = rec.frames();
    EXPECT_LE(frames.size(), 300u) << sc.name;
    EXPECT_GE(frames.size(), std::min<std::size_t>(150, w.ticks() + 1)) << sc.name;
    EXPECT_EQ(frames.back().tick, w.ticks()) << sc.name;
    EXPECT_EQ(frames.back().agents.size(), sc.world.agents.size());
    const IndexedImage last = rec.draw(frames.size() - 1);
    EXPECT_LE(std::max(last.width, last.height), 640) << sc.name;
    EXPECT_EQ(last.width, sc.world.grid.width() * rec.cell_px()) << sc.name;
    EXPECT_NE(rec.svg().find("class=\"agent\""), std::string::npos);
  }
  EXPECT_GE(seen, 1);
}

TEST(SimulationRender, BadFileNamesAreErrors) {
  agents::World w(room());
  SimulationRecorder rec(w);
  EXPECT_THROW(rec.write(temp_path("run.bmp")), std::runtime_error);
  EXPECT_THROW(rec.write("/nonexistent-dir/run.gif"), std::runtime_error);
  EXPECT_THROW(rec.write("/nonexistent-dir/run.png"), std::runtime_error);
  EXPECT_THROW(rec.write("/nonexistent-dir/run.svg"), std::runtime_error);
  EXPECT_TRUE(render::is_render_path("out.GIF"));
  EXPECT_FALSE(render::is_render_path("out.gif.txt"));
}

}  // namespace
