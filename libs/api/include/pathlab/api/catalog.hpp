// Where the API's named things come from: the maps /api/maps lists and reads, the Link boards of
// /api/link/boards and the simulation scenarios of /api/scenarios and /api/sim. `pathlab serve`
// reads folders on disk (FolderCatalog); the static web page holds the files it ships in memory
// (MemoryCatalog), laid out as the repository's maps/ and scenarios/ folders.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pathlab/agents/scenario.hpp>
#include <pathlab/io/map.hpp>
#include <pathlab/link/board.hpp>

namespace pathlab::api {

/// A file name the catalogs accept: not empty, no '/' or '\', not starting with '.'.
[[nodiscard]] bool plain_name(std::string_view name);
/// A map file: .txt, .map, .ascii, .asc, .png, .bmp, .jpg, .gif, .tmx, .tmj or .json (Tiled
/// JSON or a layered map) and no ".scen" in the name; a .json Link board (link_*.json) is not.
[[nodiscard]] bool is_map_file(std::string_view name);
/// A Link board file: link_*.txt or link_*.json.
[[nodiscard]] bool is_board_file(std::string_view name);

/// The named maps, boards and scenarios of an API. Read from any number of threads at once.
class Catalog {
 public:
  virtual ~Catalog() = default;

  /// Every map file's name, sorted, each once.
  [[nodiscard]] virtual std::vector<std::string> maps() const = 0;
  /// The map named so (as maps() lists it), or std::nullopt when there is none. Throws
  /// ParseError when it does not read.
  [[nodiscard]] virtual std::optional<io::Map> map(const std::string& name,
                                                   const io::MapOptions& options) const = 0;

  /// Every Link board file's name, in the order /api/link/boards lists them.
  [[nodiscard]] virtual std::vector<std::string> boards() const = 0;
  /// The board named so (as boards() lists it). Throws ParseError.
  [[nodiscard]] virtual link::Board board(const std::string& name) const = 0;

  /// Every scenario file's name (*.json), in the order /api/scenarios lists them.
  [[nodiscard]] virtual std::vector<std::string> scenarios() const = 0;
  /// The scenario named so, its map read; std::nullopt when there is none. Throws ParseError.
  [[nodiscard]] virtual std::optional<agents::Scenario> scenario(const std::string& name) const = 0;

  /// The path a scenario text whose "map" is `map` is read as, so that its map resolves to one of
  /// this catalog's maps; std::nullopt when `map` names none of them (the text may not reach
  /// anything else).
  [[nodiscard]] virtual std::optional<std::string> text_scenario_path(
      const std::string& map) const = 0;
  /// Parses a scenario text as the file `path` (from text_scenario_path()), its map read from
  /// this catalog. Throws ParseError.
  [[nodiscard]] virtual agents::Scenario parse_scenario(std::string_view text,
                                                        const std::string& path) const = 0;
};

/// Folders on disk: maps and boards from `map_dirs`, scenarios from `scenario_dirs` (the first
/// folder that has a name wins it). Read as each request comes: files added later are offered.
class FolderCatalog final : public Catalog {
 public:
  /// Over these folders (a folder that cannot be read offers nothing).
  FolderCatalog(std::vector<std::string> map_dirs, std::vector<std::string> scenario_dirs);

  [[nodiscard]] std::vector<std::string> maps() const override;
  [[nodiscard]] std::optional<io::Map> map(const std::string& name,
                                           const io::MapOptions& options) const override;
  [[nodiscard]] std::vector<std::string> boards() const override;
  [[nodiscard]] link::Board board(const std::string& name) const override;
  [[nodiscard]] std::vector<std::string> scenarios() const override;
  [[nodiscard]] std::optional<agents::Scenario> scenario(const std::string& name) const override;
  [[nodiscard]] std::optional<std::string> text_scenario_path(
      const std::string& map) const override;
  [[nodiscard]] agents::Scenario parse_scenario(std::string_view text,
                                                const std::string& path) const override;

 private:
  std::vector<std::string> map_dirs_, scenario_dirs_;
};

/// Files held in memory, as two folders: "maps/" (maps and Link boards) and "scenarios/"
/// (scenario files, whose "map" is "../maps/NAME" as in the repository). Add every file before
/// the catalog is shared; it is read-only afterwards.
class MemoryCatalog final : public Catalog {
 public:
  /// A map or Link board file, by file name (a plain_name()); the last added of a name wins.
  void add_map(const std::string& name, std::string bytes);
  /// A scenario file (JSON text), by file name.
  void add_scenario(const std::string& name, std::string text);

  [[nodiscard]] std::vector<std::string> maps() const override;
  [[nodiscard]] std::optional<io::Map> map(const std::string& name,
                                           const io::MapOptions& options) const override;
  [[nodiscard]] std::vector<std::string> boards() const override;
  [[nodiscard]] link::Board board(const std::string& name) const override;
  [[nodiscard]] std::vector<std::string> scenarios() const override;
  [[nodiscard]] std::optional<agents::Scenario> scenario(const std::string& name) const override;
  [[nodiscard]] std::optional<std::string> text_scenario_path(
      const std::string& map) const override;
  [[nodiscard]] agents::Scenario parse_scenario(std::string_view text,
                                                const std::string& path) const override;

 private:
  std::map<std::string, std::string, std::less<>> maps_, scenarios_;
};

}  // namespace pathlab::api
