// Malformed maps and scenario files: each must raise pathlab::ParseError naming the file and the
// offending line (0 where no line applies), never crash, hang or allocate without bound.
#include <pathlab/io/map.hpp>
#include <pathlab/io/scenario.hpp>

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io_test_util.hpp"

namespace {

using pathlab::ParseError;
using pathlab::io::MapFormat;

using pathlab::testing::data_dir;
using pathlab::testing::maps_dir;
using pathlab::testing::slurp;

std::string be32(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

// A PNG signature and IHDR chunk (CRC not checked by the decoder) declaring w x h gray pixels,
// followed by nothing: the file is far too small for what it claims.
std::string png_header(std::uint32_t w, std::uint32_t h) {
  return std::string("\x89PNG\r\n\x1a\n", 8) + be32(13) + "IHDR" + be32(w) + be32(h) +
         std::string("\x08\x00\x00\x00\x00", 5) + be32(0);
}

std::string garbage(std::size_t n, std::uint32_t seed) {
  std::string s(n, '\0');
  for (char& c : s) {
    seed = seed * 1664525u + 1013904223u;
    c = static_cast<char>(seed >> 24);
  }
  return s;
}

enum class Kind { map, scenario };

struct Case {
  const char* label;
  std::string bytes;
  std::string name;
  int line;              // expected ParseError::line(), or -1 where no particular line applies
  const char* fragment;  // must appear in the message
  Kind kind = Kind::map;
  MapFormat format = MapFormat::automatic;
};

std::ostream& operator<<(std::ostream& os, const Case& c) {
  return os << c.label;
}

const std::string header = "type octile\nheight 2\nwidth 3\nmap\n";
const std::string scen_ok = "version 1\n0\tmaps/a.map\t10\t8\t1\t2\t3\t4\t5.5\n";

std::vector<Case> cases() {
  std::string bytes_0_255;
  for (int i = 0; i < 256; ++i) bytes_0_255 += static_cast<char>(i);
  const std::string cave = slurp(maps_dir + "cave_100.png");
  std::string wide_text(20000, '1');
  wide_text = "----+\n" + wide_text + "\n" + std::string(20000, '\n') + "1\n";
  return {
      // --- empty and size problems ------------------------------------------------------
      {"EmptyFile", "", "empty.txt", 0, "empty file"},
      {"OnlyARuler", "----+----+\n", "ruler.txt", 0, "empty map"},
      {"RulerAndBlankLines", "----+----+\r\n\r\n\n", "ruler2.txt", 0, "empty map"},
      {"OnlyRowEnds", "----+\n$\n$\n", "dollars.txt", 0, "empty map"},
      {"TextTooManyCells", wide_text, "wide.txt", 0, "exceeds the limit"},
      // --- text and ASCII characters ------------------------------------------------------
      {"AsciiUnknownCharacter", "..#\n.X.\n", "a.txt", 2, "'X' at column 2"},
      {"AsciiTab", "#.#\n#.#\n.\t.\n", "tab.txt", 3, "byte 0x09 at column 2", Kind::map,
       MapFormat::ascii},
      {"AsciiSecondStart", "S..\n..S\n", "s.txt", 2, "second start"},
      {"TextSecondGoal", "----+\n9  $\n  9$\n", "g.txt", 3, "second goal"},
      {"TextNulByte", std::string("----+\n1 1$\n1\0 1$\n", 17), "nul.txt", 3,
       "byte 0x00 at column 2"},
      {"TextNonAscii", "----+\n1 1$\n1\xC3\xA9$\n", "utf8.txt", 3, "byte 0xC3 at column 2"},
      {"TextControlAfterDollar", "----+\n11$ok\x01\n", "after.txt", 2, "byte 0x01 at column 6"},
      {"Bytes0To255", bytes_0_255, "bytes.bin", 1, "byte 0x00 at column 1"},
      // --- Moving AI header ----------------------------------------------------------------
      {"MovingAiTruncatedHeader", "type octile\nheight 4\n", "t.map", 3, "truncated header"},
      {"MovingAiOnlyType", "type octile", "t1.map", 2, "missing 'height', 'width'"},
      {"MovingAiHeaderLacksWidth", "type octile\nheight 2\nmap\n...\n...\n", "w.map", 3,
       "lacks 'width'"},
      {"MovingAiHeightNotANumber", "type octile\nheight abc\nwidth 3\nmap\n", "h.map", 2,
       "height is not a number: 'abc'"},
      {"MovingAiHeightTrailingJunk", "type octile\nheight 3x\nwidth 3\nmap\n", "h2.map", 2,
       "not a number"},
      {"MovingAiNegativeWidth", "type octile\nheight 2\nwidth -3\nmap\n", "n.map", 3,
       "negative width"},
      {"MovingAiAbsurdHeight", "type octile\nheight 2000000000\nwidth 1\nmap\n", "a.map", 2,
       "exceeds the limit"},
      {"MovingAiHugeNumber", "type octile\nheight 99999999999999999999999\nwidth 1\nmap\n",
       "a2.map", 2, "exceeds the limit"},
      {"MovingAiAbsurdProduct", "type octile\nheight 100000\nwidth 100000\nmap\n", "p.map", 3,
       "100000x100000 cells exceeds"},
      {"MovingAiZeroHeight", "type octile\nheight 0\nwidth 3\nmap\n", "z.map", 2, "empty map"},
      {"MovingAiUnknownType", "type hex\nheight 1\nwidth 1\nmap\n.\n", "ty.map", 1,
       "unsupported map type 'hex'"},
      {"MovingAiUnknownHeaderLine", "type octile\ndepth 3\n", "k.map", 2, "unknown header line"},
      {"MovingAiDuplicateHeight", "type octile\nheight 1\nheight 1\n", "d.map", 3,
       "second 'height'"},
      // --- Moving AI rows ------------------------------------------------------------------
      {"MovingAiRowTooShort", header + "...\n..\n", "s.map", 6,
       "row 1 has 2 cells, expected width 3"},
      {"MovingAiRowTooLong", header + "....\n...\n", "l.map", 5, "row 0 has 4 cells"},
      {"MovingAiTooFewRows", header + "...\n", "f.map", 6, "ends after 1 of 2 rows"},
      {"MovingAiTooManyRows", header + "...\n...\n...\n", "m.map", 7, "more rows than the height"},
      {"MovingAiRowAfterBlankLines", header + "...\n...\n\n\n.@.\n", "m2.map", 9, "more rows"},
      {"MovingAiUnknownCharacter", header + "...\n.x.\r\n", "u.map", 6, "'x' at column 2"},
      {"MovingAiBlankRowInside", header + "...\n\n...\n", "b.map", 6, "row 1 has 0 cells"},
      {"MovingAiCrInsideRow", header + ".\r.\n...\n", "cr.map", 5, "byte 0x0D at column 2"},
      // --- images --------------------------------------------------------------------------
      {"TextBytesWithPngName", "----+\n1 1$\n", "fake.png", 0, "not a valid image"},
      {"TextForcedImage", "....\n", "x.txt", 0, "not a valid image", Kind::map, MapFormat::image},
      {"TruncatedPng", cave.substr(0, cave.size() / 2), "half.png", 0, "truncated or corrupt PNG"},
      // Found by fuzz_map_image: stb would allocate 2 GiB for a chunk the file does not hold.
      {"PngChunkLongerThanFile", png_header(8, 6) + be32(0x40000000) + "IDATxxxx", "chunk.png", 0,
       "runs past the end of the file"},
      {"PngTooLittleCompressedData",
       png_header(500, 500) + be32(4) + "IDAT" + "abcd" + be32(0) + be32(0) + "IEND" + be32(0),
       "thin.png", 0, "cannot come from 4 bytes"},
      {"PngSignatureOnly", std::string("\x89PNG\r\n\x1a\n", 8), "sig.png", 0, "not a valid image"},
      {"PngHeaderTooBigForFile", png_header(10000, 10000), "big.png", 0, "cannot fit in"},
      {"PngOverPixelLimit", png_header(20000, 20000), "huge.png", 0, "exceeds the limit of 2^28"},
      {"GarbageNamedPng", garbage(4096, 7), "noise.png", 0, "not a valid image"},
      // Found by fuzz_map_image: JPEGs that make stb_image 2.27 write or read out of bounds.
      // JPEG is refused before stb sees it (libs/io/src/map.cpp says why).
      {"JpegHuffmanTableOverflow", slurp(data_dir + "huffman_overflow.jpg"), "h.jpg", 0,
       "JPEG images are not read"},
      {"JpegHuffmanTableOverflowAtEof", slurp(data_dir + "huffman_overflow_eof.jpg"), "h2.jpg", 0,
       "JPEG images are not read"},
      {"JpegUndefinedHuffmanTable", slurp(data_dir + "undefined_table.jpg"), "u.jpg", 0,
       "JPEG images are not read"},
      {"JpegMagicThenGarbage", "\xFF\xD8\xFF" + garbage(200, 3), "j.jpg", 0,
       "JPEG images are not read"},
      // --- binary garbage under detection ---------------------------------------------------
      {"Garbage1", garbage(1000, 1), "g1.bin", -1, ""},
      {"Garbage2", garbage(65536, 2), "g2", -1, ""},
      {"GarbageAsMovingAi", garbage(300, 5), "g3.map", -1, ""},
      // --- scenarios ------------------------------------------------------------------------
      {"ScenEmptyFile", "", "e.scen", 0, "empty file", Kind::scenario},
      {"ScenBadVersion", "version 2\n", "v.scen", 1, "unsupported version", Kind::scenario},
      {"ScenVersionAfterEntries", scen_ok + "version 1\n", "v2.scen", 3, "'version' line after",
       Kind::scenario},
      {"ScenTooFewFields", scen_ok + "0 maps/a.map 10 8 1 2 3 4\n", "f.scen", 3,
       "expected 9 fields", Kind::scenario},
      {"ScenTooManyFields", scen_ok + "0 maps/a.map 10 8 1 2 3 4 5 6\n", "f2.scen", 3, "found 10",
       Kind::scenario},
      {"ScenBadNumber", scen_ok + "\n0\tmaps/a.map\t10\t8\t1a\t2\t3\t4\t5\n", "n.scen", 4,
       "start x is not an integer: '1a'", Kind::scenario},
      {"ScenBadOptimal", scen_ok + "0 a.map 10 8 1 2 3 4 5.5.5\n", "o.scen", 3,
       "optimal length is not a number", Kind::scenario},
      {"ScenNanOptimal", scen_ok + "0 a.map 10 8 1 2 3 4 nan\r\n", "nan.scen", 3, "not finite",
       Kind::scenario},
      {"ScenInfOptimal", scen_ok + "0 a.map 10 8 1 2 3 4 inf\n", "inf.scen", 3, "not finite",
       Kind::scenario},
      {"ScenNegativeOptimal", scen_ok + "0 a.map 10 8 1 2 3 4 -1\n", "neg.scen", 3,
       "negative optimal", Kind::scenario},
      {"ScenNegativeCoordinate", scen_ok + "0 a.map 10 8 -1 2 3 4 5\n", "nc.scen", 3,
       "negative start x", Kind::scenario},
      {"ScenStartOutsideWidth", scen_ok + "0 a.map 10 8 10 2 3 4 5\n", "w.scen", 3,
       "start (10,2) is outside the 10x8 map", Kind::scenario},
      {"ScenGoalOutsideHeight", scen_ok + "0 a.map 10 8 1 2 3 8 5\n", "h.scen", 3,
       "goal (3,8) is outside", Kind::scenario},
      {"ScenZeroWidth", "0 a.map 0 8 0 0 0 0 0\n", "z.scen", 1, "empty map size", Kind::scenario},
      {"ScenHugeNumber", "0 a.map 99999999999 8 0 0 0 0 0\n", "big.scen", 1, "out of range",
       Kind::scenario},
      {"ScenControlByte", scen_ok + "0 a.map\x01 10 8 1 2 3 4 5\n", "c.scen", 3, "byte 0x01",
       Kind::scenario},
      {"ScenGarbage", garbage(2000, 9), "g.scen", -1, "", Kind::scenario},
  };
}

class Malformed : public ::testing::TestWithParam<Case> {};

TEST_P(Malformed, RaisesParseErrorWithFileAndLine) {
  const Case& c = GetParam();
  try {
    if (c.kind == Kind::map) {
      pathlab::io::MapOptions o;
      o.format = c.format;
      (void)pathlab::io::parse_map(c.bytes, c.name, o);
    } else {
      (void)pathlab::io::parse_scenarios(c.bytes, c.name);
    }
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), c.name);
    if (c.line >= 0) {
      EXPECT_EQ(e.line(), c.line) << e.what();
    }
    EXPECT_NE(e.message().find(c.fragment), std::string::npos) << e.what();
    // The printed form names file and line the way the command prints it.
    const std::string prefix = c.name + (e.line() > 0 ? ":" + std::to_string(e.line()) : "") + ": ";
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Inputs, Malformed, ::testing::ValuesIn(cases()),
                         [](const auto& info) { return std::string(info.param.label); });

// Files on disk: the error names the path given to load_*.
TEST(MalformedFiles, MissingFiles) {
  const std::string missing = data_dir + "does-not-exist.map";
  try {
    (void)pathlab::io::load_map(missing);
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), missing);
    EXPECT_EQ(e.line(), 0);
    EXPECT_EQ(e.message(), "cannot open file");
  }
  try {
    (void)pathlab::io::load_scenarios(missing + ".scen");
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), missing + ".scen");
    EXPECT_EQ(e.line(), 0);
  }
}

TEST(MalformedFiles, DirectoryIsNotAMap) {
  try {
    (void)pathlab::io::load_map(data_dir);
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), data_dir);
    EXPECT_EQ(e.line(), 0);
  }
}

TEST(MalformedFiles, NonImageBytesWithPngExtension) {
  const std::string path = data_dir + "not_an_image.png";
  try {
    (void)pathlab::io::load_map(path);
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 0);
    EXPECT_NE(e.message().find("not a valid image"), std::string::npos) << e.what();
  }
}

TEST(MalformedFiles, TruncatedBmp) {
  // A BMP whose pixel rows are cut off: stb would fill them with black, so it must be refused.
  pathlab::io::Map m{pathlab::grid::Grid(40, 30), std::nullopt, std::nullopt, MapFormat::image};
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("pathlab_io_trunc_" + std::to_string(::getpid()) + ".bmp"))
                               .string();
  pathlab::io::save_map(m, path);
  const std::string full = slurp(path);
  std::filesystem::remove(path);
  ASSERT_GT(full.size(), 400u);
  try {
    (void)pathlab::io::parse_map(full.substr(0, full.size() - 100), "cut.bmp");
    ADD_FAILURE() << "no ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), "cut.bmp");
    EXPECT_EQ(e.line(), 0);
    EXPECT_NE(e.message().find("truncated image"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW((void)pathlab::io::parse_map(full, "full.bmp"));
}

// Every prefix of valid files of each format either parses or raises ParseError.
TEST(MalformedFiles, EveryPrefixOfValidFilesIsHandled) {
  const std::vector<std::string> files = {
      slurp(maps_dir + "seed_maze.txt"), slurp(maps_dir + "hybrid_30x20.txt"),
      slurp(data_dir + "crlf.map"), slurp(maps_dir + "cave_100.png").substr(0, 600)};
  for (const std::string& f : files) {
    for (std::size_t n = 0; n <= f.size(); ++n) {
      try {
        (void)pathlab::io::parse_map(std::string_view(f).substr(0, n), "prefix");
      } catch (const ParseError& e) {
        EXPECT_EQ(e.file(), "prefix");
      }
    }
  }
}

}  // namespace
