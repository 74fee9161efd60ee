// Malformed Tiled maps (.tmx, .tmj) and tilesets: each raises pathlab::ParseError naming the
// file and the line at fault (shared docs/DESIGN.md: malformed input names the file and line),
// never crashes and never allocates for a size it has not checked.
#include <pathlab/io/map.hpp>

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace {

using pathlab::ParseError;
using pathlab::io::MapOptions;

// Tilesets the maps below name, served from memory.
const std::map<std::string, std::string> tm_tilesets = {
    {"good.tsx",
     "<?xml version=\"1.0\"?>\n<tileset name=\"g\" tilecount=\"2\">\n"
     " <tile id=\"1\"><properties><property name=\"class\" value=\"wall\"/></properties></tile>\n"
     "</tileset>\n"},
    {"bad.tsx",
     "<?xml version=\"1.0\"?>\n<tileset name=\"b\" tilecount=\"2\">\n"
     " <tile id=\"0\"/>\n"
     " <tile id=\"1\"><properties><property name=\"cost\" value=\"0\"/></properties></tile>\n"
     "</tileset>\n"},
    {"bad.tsj",
     "{\"name\": \"b\", \"tilecount\": 2,\n \"tiles\": [\n"
     "  {\"id\": 1, \"properties\": [{\"name\": \"class\", \"value\": \"lava\"}]}]}\n"},
    {"broken.tsx", "<tileset name=\"b\">\n<tile id=\"1\">\n</tileset>\n"},
};

MapOptions tm_options() {
  MapOptions o;
  o.read_file = [](const std::string& path) {
    const auto it = tm_tilesets.find(path);
    if (it == tm_tilesets.end()) throw ParseError(path, 0, "cannot open file");
    return it->second;
  };
  return o;
}

// A 2 x 1 .tmx map: `tileset` and `layer` replace lines 3 and 4.
std::string tm_tmx(const std::string& map_attrs, const std::string& tileset,
                   const std::string& layer, const std::string& extra = "") {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"  // 1
         "<map orientation=\"orthogonal\" " +
         map_attrs + " tilewidth=\"8\" tileheight=\"8\">\n" +  // 2
         tileset + "\n" +                                      // 3
         layer + "\n" +                                        // 4
         extra + "</map>\n";
}

const std::string kTmSize = "width=\"2\" height=\"1\"";
const std::string kTmTileset =
    " <tileset firstgid=\"1\" name=\"t\" tilecount=\"2\"><tile id=\"1\"><properties><property "
    "name=\"class\" value=\"W\"/></properties></tile></tileset>";
std::string tm_tile_prop(const std::string& name, const std::string& value) {
  return " <tileset firstgid=\"1\" name=\"t\" tilecount=\"2\"><tile id=\"1\"><properties><property "
         "name=\"" +
         name + "\" value=\"" + value + "\"/></properties></tile></tileset>";
}
std::string tm_csv_layer(const std::string& data,
                         const std::string& size = "width=\"2\" height=\"1\"") {
  return " <layer name=\"l\" " + size + "><data encoding=\"csv\">" + data + "</data></layer>";
}
std::string tm_b64_layer(const std::string& compression, const std::string& data) {
  return " <layer name=\"l\" width=\"2\" height=\"1\"><data encoding=\"base64\" compression=\"" +
         compression + "\">" + data + "</data></layer>";
}
std::string tm_objects(const std::string& body) {
  return " <objectgroup name=\"o\">\n" + body + " </objectgroup>\n";  // body starts at line 6
}

struct TmCase {
  std::string name;  // the file name given (its extension picks the format)
  std::string text;
  std::string file;  // expected in the error
  int line;
  std::string says;
};

void tm_expect(const TmCase& c) {
  try {
    (void)pathlab::io::parse_map(c.text, c.name, tm_options());
    ADD_FAILURE() << "accepted:\n" << c.text;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), c.file) << e.what() << "\n" << c.text;
    EXPECT_EQ(e.line(), c.line) << e.what() << "\n" << c.text;
    EXPECT_NE(e.message().find(c.says), std::string::npos) << e.what();
  }
}

TEST(TiledMalformed, TmxEveryProblemNamesFileAndLine) {
  const std::string ok_layer = tm_csv_layer("1,2");
  const TmCase cases[] = {
      {"m.tmx", "<?xml version=\"1.0\"?>\n<map width=\"2\">\n<layer>\n</map>\n", "m.tmx", 4,
       "not valid XML"},
      {"m.tmx", "<?xml version=\"1.0\"?>\n<tileset/>\n", "m.tmx", 2, "not a Tiled map"},
      {"m.tmx", tm_tmx(kTmSize, tm_tile_prop("cost", "0.5"), ok_layer), "m.tmx", 3, "cost 0.5"},
      {"m.tmx", tm_tmx(kTmSize, tm_tile_prop("cost", "cheap"), ok_layer), "m.tmx", 3,
       "not a number"},
      {"m.tmx", tm_tmx(kTmSize, tm_tile_prop("class", "lava"), ok_layer), "m.tmx", 3, "'lava'"},
      {"m.tmx", tm_tmx(kTmSize, tm_tile_prop("walkable", "maybe"), ok_layer), "m.tmx", 3,
       "true or false"},
      {"m.tmx", tm_tmx(kTmSize, tm_tile_prop("wall_n", "yes"), ok_layer), "m.tmx", 3,
       "true or false"},
      {"m.tmx",
       tm_tmx(kTmSize, kTmTileset,
              " <layer name=\"l\" width=\"2\" height=\"1\"><data "
              "encoding=\"hex\">0102</data></layer>"),
       "m.tmx", 4, "unknown layer data encoding 'hex'"},
      {"m.tmx", tm_tmx(kTmSize, kTmTileset, tm_b64_layer("lzma", "AQAAAAIAAAA=")), "m.tmx", 4,
       "unknown layer data compression 'lzma'"},
      {"m.tmx", tm_tmx(kTmSize, kTmTileset, tm_b64_layer("zlib", "AQAAAAIAAAA=")), "m.tmx", 4,
       "broken zlib"},
      {"m.tmx", tm_tmx(kTmSize, kTmTileset, tm_b64_layer("gzip", "H4sIAAAAAAAA")), "m.tmx", 4,
       "broken gzip"},
      {"m.tmx", tm_tmx(kTmSize, kTmTileset, tm_b64_layer("zstd", "KLUv/SAIQQAAAQ==")), "m.tmx", 4,
       "zstd"},
      {"m.tmx", tm_tmx(kTmSize, kTmTileset, tm_b64_layer("", "AQAAAAIAAA*=")), "m.tmx", 4,
       "invalid base64"},
      {"m.tmx", tm_tmx(kTmSize, kTmTileset, tm_b64_layer("", "AQAAAA==")), "m.tmx", 4,
       "holds 4 bytes"},
      {"m.tmx", tm_tmx(kTmSize, kTmTileset, tm_csv_layer("1")), "m.tmx", 4, "too short"},
      {"m.tmx", tm_tmx(kTmSize, kTmTileset, tm_csv_layer("1,\n2,\n1")), "m.tmx", 6,
       "more than 2 tiles"},
      {"m.tmx", tm_tmx(kTmSize, kTmTileset, tm_csv_layer("1,x")), "m.tmx", 4, "unexpected 'x'"},
      {"m.tmx", tm_tmx(kTmSize, kTmTileset, tm_csv_layer("1,2,1", "width=\"3\" height=\"1\"")),
       "m.tmx", 4, "is 3x1, the map 2x1"},
      {"m.tmx", tm_tmx(kTmSize, kTmTileset, tm_csv_layer("1,5")), "m.tmx", 4,
       "past the end of tileset"},
      {"m.tmx",
       tm_tmx(kTmSize, " <tileset firstgid=\"3\" name=\"t\" tilecount=\"2\"/>",
              tm_csv_layer("3,1")),
       "m.tmx", 4, "tile id 1 is in no tileset"},
      {"m.tmx", tm_tmx(kTmSize, " <tileset firstgid=\"1\" source=\"missing.tsx\"/>", ok_layer),
       "m.tmx", 3, "cannot read the tileset 'missing.tsx'"},
      {"m.tmx", tm_tmx(kTmSize, " <tileset firstgid=\"1\" source=\"bad.tsx\"/>", ok_layer),
       "bad.tsx", 4, "cost 0"},
      {"m.tmx", tm_tmx(kTmSize, " <tileset firstgid=\"1\" source=\"bad.tsj\"/>", ok_layer),
       "bad.tsj", 3, "'lava'"},
      {"m.tmx", tm_tmx(kTmSize, " <tileset firstgid=\"1\" source=\"broken.tsx\"/>", ok_layer),
       "broken.tsx", 3, "not valid XML"},
      {"m.tmx", tm_tmx(kTmSize, " <tileset name=\"t\"/>", ok_layer), "m.tmx", 3,
       "without firstgid"},
      {"m.tmx", tm_tmx("width=\"100000\" height=\"100000\"", kTmTileset, ok_layer), "m.tmx", 2,
       "exceeds the limit of 2^28 cells"},
      {"m.tmx", tm_tmx("width=\"-2\" height=\"1\"", kTmTileset, ok_layer), "m.tmx", 2, "empty"},
      {"m.tmx", tm_tmx("width=\"two\" height=\"1\"", kTmTileset, ok_layer), "m.tmx", 2,
       "not a whole number"},
      {"m.tmx",
       "<?xml version=\"1.0\"?>\n<map orientation=\"staggered\" width=\"2\" height=\"1\" "
       "tilewidth=\"8\" tileheight=\"8\">\n" +
           kTmTileset + "\n" + ok_layer + "\n</map>\n",
       "m.tmx", 2, "staggered maps are not read"},
      {"m.tmx",
       "<?xml version=\"1.0\"?>\n<map orientation=\"hexagonal\" staggeraxis=\"z\" width=\"2\" "
       "height=\"1\" tilewidth=\"8\" tileheight=\"8\">\n" +
           kTmTileset + "\n" + ok_layer + "\n</map>\n",
       "m.tmx", 2, "staggeraxis"},
      {"m.tmx", tm_tmx(kTmSize, kTmTileset, ""), "m.tmx", 2, "no tile layer"},
      {"m.tmx",
       tm_tmx(kTmSize, kTmTileset,
              " <layer name=\"l\" width=\"2\" height=\"1\"><properties><property name=\"floor\" "
              "value=\"2\"/></properties><data encoding=\"csv\">1,1</data></layer>"),
       "m.tmx", 2, "floors 0 to 2"},
      {"m.tmx",
       tm_tmx(kTmSize, kTmTileset,
              " <layer name=\"l\" width=\"2\" height=\"1\"><properties><property name=\"empty\" "
              "value=\"lava\"/></properties><data encoding=\"csv\">1,1</data></layer>"),
       "m.tmx", 4, "property 'empty'"},
      {"m.tmx", tm_tmx("width=\"2\" height=\"1\" infinite=\"1\"", kTmTileset, ok_layer), "m.tmx", 2,
       "no chunks"},
      // Objects start at line 6.
      {"m.tmx",
       tm_tmx(kTmSize, kTmTileset, ok_layer,
              tm_objects(
                  "  <object x=\"1\" y=\"1\"><properties><property name=\"to_layer\" "
                  "value=\"0\"/>\n<property name=\"to_x\" value=\"0\"/></properties></object>\n")),
       "m.tmx", 6, "all of to_layer, to_x and to_y"},
      {"m.tmx",
       tm_tmx(
           kTmSize, kTmTileset, ok_layer,
           tm_objects("  <object x=\"1\" y=\"1\"><properties>\n<property name=\"to_layer\" "
                      "value=\"0\"/><property name=\"to_x\" value=\"9\"/><property name=\"to_y\" "
                      "value=\"0\"/></properties></object>\n")),
       "m.tmx", 7, "link target 0:9,0"},
      {"m.tmx",
       tm_tmx(
           kTmSize, kTmTileset, ok_layer,
           tm_objects("  <object x=\"1\" y=\"1\"><properties>\n<property name=\"to_layer\" "
                      "value=\"1\"/><property name=\"to_x\" value=\"0\"/><property name=\"to_y\" "
                      "value=\"0\"/></properties></object>\n")),
       "m.tmx", 7, "link target 1:0,0"},
      {"m.tmx",
       tm_tmx(
           kTmSize, kTmTileset, ok_layer,
           tm_objects("  <object x=\"100\" y=\"1\"><properties><property name=\"to_layer\" "
                      "value=\"0\"/><property name=\"to_x\" value=\"0\"/><property name=\"to_y\" "
                      "value=\"0\"/></properties></object>\n")),
       "m.tmx", 6, "outside the map"},
      {"m.tmx",
       tm_tmx(kTmSize, kTmTileset, ok_layer,
              tm_objects("  <object x=\"0\" y=\"0\"><polyline points=\"0,0 8,8\"/></object>\n")),
       "m.tmx", 6, "not along a cell edge"},
      {"m.tmx",
       tm_tmx(kTmSize, kTmTileset, ok_layer,
              tm_objects("  <object x=\"0\" y=\"0\"><polyline points=\"0,0 4,0\"/></object>\n")),
       "m.tmx", 6, "not a corner of cells"},
      {"m.tmx",
       tm_tmx(kTmSize, kTmTileset, ok_layer,
              tm_objects("  <object x=\"0\" y=\"0\"><polyline points=\"0,0 24,0\"/></object>\n")),
       "m.tmx", 6, "leaves the map"},
      {"m.tmx",
       tm_tmx(kTmSize, kTmTileset, ok_layer,
              tm_objects("  <object name=\"start\" x=\"1\" y=\"1\"><point/></object>\n"
                         "  <object name=\"start\" x=\"9\" y=\"1\"><point/></object>\n")),
       "m.tmx", 7, "second start marker"},
      {"m.tmx",
       tm_tmx(kTmSize, kTmTileset, ok_layer,
              tm_objects("  <object name=\"goal\" x=\"-1\" y=\"1\"><point/></object>\n")),
       "m.tmx", 6, "outside the map"},
  };
  for (const TmCase& c : cases) tm_expect(c);
}

// A 2 x 1 .tmj map; the tileset's tile property is on line 4, the layer on line 6.
std::string tm_tmj(const std::string& map_extra, const std::string& prop,
                   const std::string& layer) {
  return "{\"type\": \"map\", \"orientation\": \"orthogonal\", \"width\": 2, \"height\": 1,\n"  // 1
         " \"tilewidth\": 8, \"tileheight\": 8" +
         map_extra +
         ",\n"                                                                 // 2
         " \"tilesets\": [{\"firstgid\": 1, \"tilecount\": 2, \"tiles\": [\n"  // 3
         "   {\"id\": 1, \"properties\": [" +
         prop +
         "]}]}],\n"          // 4
         " \"layers\": [\n"  // 5
         "  " +
         layer + "]}\n";  // 6
}

TEST(TiledMalformed, TmjEveryProblemNamesFileAndLine) {
  const std::string ok_prop = "{\"name\": \"class\", \"value\": \"wall\"}";
  const std::string ok_layer =
      "{\"type\": \"tilelayer\", \"name\": \"l\", \"width\": 2, \"height\": 1, \"data\": [1, 2]}";
  const auto layer = [](const std::string& fields) {
    return "{\"type\": \"tilelayer\", \"name\": \"l\", \"width\": 2, \"height\": 1, " + fields +
           "}";
  };
  const TmCase cases[] = {
      {"m.tmj", "{\"type\": \"map\",\n \"width\": 2,,\n}", "m.tmj", 2, "not valid JSON"},
      {"m.tmj", "{\"type\": \"map\",\n \"width\": 1E999}", "m.tmj", 2, "number overflow"},
      {"m.tmj", "{\"type\": \"tileset\", \"orientation\": \"orthogonal\"}", "m.tmj", 1,
       "not a Tiled map"},
      {"m.tmj", tm_tmj("", "{\"name\": \"cost\", \"type\": \"float\", \"value\": 0.5}", ok_layer),
       "m.tmj", 4, "cost 0.5"},
      {"m.tmj", tm_tmj("", "{\"name\": \"class\", \"value\": \"lava\"}", ok_layer), "m.tmj", 4,
       "'lava'"},
      {"m.tmj", tm_tmj("", "{\"name\": \"walkable\", \"value\": 3}", ok_layer), "m.tmj", 4,
       "true or false"},
      {"m.tmj", tm_tmj("", ok_prop, layer("\"data\": [1, 2, 1]")), "m.tmj", 6, "holds 3 tiles"},
      {"m.tmj", tm_tmj("", ok_prop, layer("\"data\": [1, -2]")), "m.tmj", 6, "not a tile id"},
      {"m.tmj", tm_tmj("", ok_prop, layer("\"data\": [1, 9]")), "m.tmj", 6, "past the end"},
      {"m.tmj", tm_tmj("", ok_prop, layer("\"encoding\": \"base32\", \"data\": \"AQAA\"")), "m.tmj",
       6, "unknown layer data encoding 'base32'"},
      {"m.tmj",
       tm_tmj("", ok_prop,
              layer("\"encoding\": \"base64\", \"compression\": \"lz4\", \"data\": \"AQAA\"")),
       "m.tmj", 6, "unknown layer data compression 'lz4'"},
      {"m.tmj",
       tm_tmj("", ok_prop,
              layer("\"encoding\": \"base64\", \"compression\": \"zlib\", \"data\": \"eJxjZA==\"")),
       "m.tmj", 6, "broken zlib"},
      {"m.tmj", tm_tmj("", ok_prop, layer("\"data\": {}")), "m.tmj", 6, "neither an array"},
      {"m.tmj",
       tm_tmj(
           "", ok_prop,
           "{\"type\": \"tilelayer\", \"name\": \"l\", \"width\": 3, \"height\": 1, \"data\": [1, "
           "1, 1]}"),
       "m.tmj", 6, "is 3x1, the map 2x1"},
      {"m.tmj", tm_tmj(", \"orientation\": \"staggered\"", ok_prop, ok_layer), "m.tmj", 1,
       "staggered"},
      {"m.tmj", tm_tmj(", \"tilewidth\": \"8\"", ok_prop, ok_layer), "m.tmj", 1,
       "not a whole number"},
      {"m.tmj", tm_tmj(", \"infinite\": true", ok_prop, layer("\"chunks\": [{\"x\": 0}]")), "m.tmj",
       6, "a chunk needs x, y, width and height"},
      {"m.tmj",
       tm_tmj(", \"infinite\": true", ok_prop,
              layer("\"chunks\": [{\"x\": 0, \"y\": 0, \"width\": 65536, \"height\": 65536, "
                    "\"data\": []}]")),
       "m.tmj", 6, "exceeds the limit"},
      {"m.tmj",
       "{\"type\": \"map\", \"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8,\n"
       " \"tilesets\": [{\"firstgid\": 1, \"source\": \"bad.tsx\"}], \"layers\": []}",
       "bad.tsx", 4, "cost 0"},
      {"m.tmj",
       "{\"type\": \"map\", \"width\": 2, \"height\": 1, \"tilewidth\": 8, \"tileheight\": 8,\n"
       " \"tilesets\": [{\"firstgid\": 1, \"source\": \"gone.tsj\"}], \"layers\": []}",
       "m.tmj", 2, "cannot read the tileset 'gone.tsj'"},
      {"m.tmj",
       tm_tmj("", ok_prop,
              ok_layer +
                  ",\n  {\"type\": \"objectgroup\", \"objects\": [\n"
                  "   {\"x\": 1, \"y\": 1, \"properties\": [{\"name\": \"to_layer\", \"value\": "
                  "0}, {\"name\": \"to_x\", \"value\": 0}, {\"name\": \"to_y\", \"value\": "
                  "\"up\"}]}]}"),
       "m.tmj", 8, "not a whole number"},
  };
  for (const TmCase& c : cases) tm_expect(c);
}

TEST(TiledMalformed, LayersOfAnotherSizeAreRefusedBeforeTheyAreDecoded) {
  // A map claiming 2^28 cells whose layer holds 2 tiles: the size is checked, the data refused,
  // and nothing of the claimed size is allocated for the gids.
  const std::string text = tm_tmx("width=\"16384\" height=\"16384\"", kTmTileset,
                                  tm_b64_layer("zlib", "eJxjZGBgAAAADAAC"));
  try {
    (void)pathlab::io::parse_map(text, "huge.tmx");
    ADD_FAILURE() << "accepted";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), 4) << e.what();
    EXPECT_NE(e.message().find("is 2x1, the map 16384x16384"), std::string::npos) << e.what();
  }
}

}  // namespace
