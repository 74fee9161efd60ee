// Loading Tiled maps: a generated 1024 x 1024 .tmx whose two tile layers are base64 + zlib (as
// Tiled saves by default), read with load_map (target: under 100 ms a load); the same map as
// .tmj written by write_tmj, and the writer itself.
//   build/bench/pathlab_tiled_bench --benchmark_min_time=1
#include <benchmark/benchmark.h>

#include <pathlab/io/map.hpp>
#include <pathlab/io/tiled.hpp>

#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kSide = 1024;

std::string base64(const std::vector<unsigned char>& in) {
  static constexpr char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < in.size(); i += 3) {
    const std::uint32_t b0 = in[i];
    const std::uint32_t b1 = i + 1 < in.size() ? in[i + 1] : 0;
    const std::uint32_t b2 = i + 2 < in.size() ? in[i + 2] : 0;
    const std::uint32_t v = (b0 << 16) | (b1 << 8) | b2;
    out += abc[(v >> 18) & 63];
    out += abc[(v >> 12) & 63];
    out += i + 1 < in.size() ? abc[(v >> 6) & 63] : '=';
    out += i + 2 < in.size() ? abc[v & 63] : '=';
  }
  return out;
}

std::string zlib_layer(const std::vector<std::uint32_t>& gids) {
  std::vector<unsigned char> raw(gids.size() * 4);
  for (std::size_t i = 0; i < gids.size(); ++i) {
    for (int b = 0; b < 4; ++b) raw[4 * i + b] = static_cast<unsigned char>(gids[i] >> (8 * b));
  }
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::vector<unsigned char> packed(size);
  if (compress(packed.data(), &size, raw.data(), static_cast<uLong>(raw.size())) != Z_OK) {
    throw std::runtime_error("zlib failed");
  }
  packed.resize(size);
  return base64(packed);
}

// A cave-like ground layer (walls in clumps, swamp and trees) and a sparse details layer.
std::string generated_tmx() {
  std::mt19937 rng(1024);
  std::vector<std::uint32_t> ground(static_cast<std::size_t>(kSide) * kSide, 1);
  std::vector<std::uint32_t> details(ground.size(), 0);
  for (int y = 0; y < kSide; ++y) {
    for (int x = 0; x < kSide; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * kSide + x;
      const bool clump = ((x / 16) * 7 + (y / 16) * 13) % 5 == 0;
      const unsigned r = rng() % 100;
      ground[i] = clump && r < 80 ? 2 : r < 5 ? 3 : r < 8 ? 4 : 1;
      if (rng() % 50 == 0) details[i] = 5 | (rng() % 2 ? 0x80000000u : 0);
    }
  }
  std::string m =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<map version=\"1.8\" orientation=\"orthogonal\" "
      "renderorder=\"right-down\" width=\"1024\" height=\"1024\" tilewidth=\"32\" "
      "tileheight=\"32\" infinite=\"0\">\n"
      " <tileset firstgid=\"1\" name=\"cells\" tilewidth=\"32\" tileheight=\"32\" "
      "tilecount=\"5\" columns=\"0\">\n"
      "  <tile id=\"1\"><properties><property name=\"class\" value=\"wall\"/></properties></tile>\n"
      "  <tile id=\"2\"><properties><property name=\"class\" value=\"swamp\"/><property "
      "name=\"cost\" type=\"float\" value=\"2\"/></properties></tile>\n"
      "  <tile id=\"3\"><properties><property name=\"class\" "
      "value=\"trees\"/></properties></tile>\n"
      "  <tile id=\"4\"><properties><property name=\"cost\" type=\"float\" value=\"1.5\"/>"
      "<property name=\"wall_n\" type=\"bool\" value=\"true\"/></properties></tile>\n"
      " </tileset>\n";
  m += " <layer id=\"1\" name=\"ground\" width=\"1024\" height=\"1024\">\n  <data "
       "encoding=\"base64\" compression=\"zlib\">\n   " +
       zlib_layer(ground) + "\n  </data>\n </layer>\n";
  m += " <layer id=\"2\" name=\"details\" width=\"1024\" height=\"1024\">\n  <data "
       "encoding=\"base64\" compression=\"zlib\">\n   " +
       zlib_layer(details) + "\n  </data>\n </layer>\n";
  m += " <objectgroup id=\"3\" name=\"markers\">\n  <object id=\"1\" name=\"start\" x=\"16\" "
       "y=\"16\"><point/></object>\n </objectgroup>\n</map>\n";
  return m;
}

struct Files {
  std::string tmx, tmj;
  Files() {
    const auto dir = std::filesystem::temp_directory_path() / "pathlab_tiled_bench";
    std::filesystem::create_directories(dir);
    tmx = (dir / "generated_1024.tmx").string();
    tmj = (dir / "generated_1024.tmj").string();
    std::ofstream(tmx, std::ios::binary) << generated_tmx();
    pathlab::io::save_map(pathlab::io::load_map(tmx), tmj);
  }
};

const Files& files() {
  static const Files f;
  return f;
}

void BM_LoadTmx1024Zlib(benchmark::State& state) {
  const std::string& path = files().tmx;
  state.counters["bytes"] = static_cast<double>(std::filesystem::file_size(path));
  for (auto _ : state) {
    const pathlab::io::Map m = pathlab::io::load_map(path);
    benchmark::DoNotOptimize(m.grid.wall_words().data());
  }
}
BENCHMARK(BM_LoadTmx1024Zlib)->Unit(benchmark::kMillisecond);

void BM_LoadTmj1024Csv(benchmark::State& state) {
  const std::string& path = files().tmj;
  state.counters["bytes"] = static_cast<double>(std::filesystem::file_size(path));
  for (auto _ : state) {
    const pathlab::io::Map m = pathlab::io::load_map(path);
    benchmark::DoNotOptimize(m.grid.wall_words().data());
  }
}
BENCHMARK(BM_LoadTmj1024Csv)->Unit(benchmark::kMillisecond);

void BM_WriteTmj1024(benchmark::State& state) {
  const pathlab::io::Map m = pathlab::io::load_map(files().tmx);
  for (auto _ : state) {
    const std::string text = pathlab::io::write_tmj(m);
    benchmark::DoNotOptimize(text.data());
  }
}
BENCHMARK(BM_WriteTmj1024)->Unit(benchmark::kMillisecond);

}  // namespace
