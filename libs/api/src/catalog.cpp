// The catalogs (see catalog.hpp): folders on disk for `pathlab serve`, files in memory for the
// static page. Both list and read through the library's own readers.
#include <pathlab/api/catalog.hpp>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <system_error>
#include <utility>

#include <pathlab/core/error.hpp>
#include <pathlab/json/link.hpp>

namespace pathlab::api {

namespace fs = std::filesystem;

bool plain_name(std::string_view name) {
  return !name.empty() && name.find('/') == std::string_view::npos &&
         name.find('\\') == std::string_view::npos && name.front() != '.';
}

bool is_map_file(std::string_view name) {
  static const char* exts[] = {".txt", ".map", ".ascii", ".asc", ".png", ".bmp",
                               ".jpg", ".gif", ".tmx",   ".tmj", ".json"};
  const fs::path p{std::string(name)};
  const std::string e = p.extension().string();
  if (p.filename().string().find(".scen") != std::string::npos) return false;
  if (e == ".json" && is_board_file(name)) return false;  // link_*.json: a Link board
  return std::any_of(std::begin(exts), std::end(exts), [&](const char* x) { return e == x; });
}

bool is_board_file(std::string_view name) {
  const fs::path p{std::string(name)};
  const std::string file = p.filename().string();
  const std::string ext = p.extension().string();
  return file.rfind("link_", 0) == 0 && (ext == ".txt" || ext == ".json");
}

// ---- folders on disk ------------------------------------------------------------------------

namespace {

/// The regular files of `dirs` that `keep` accepts, by name: each folder's sorted, the first
/// folder that has a name wins it.
template <class Keep>
std::vector<std::pair<std::string, fs::path>> files_of(const std::vector<std::string>& dirs,
                                                       Keep keep) {
  std::vector<std::pair<std::string, fs::path>> out;
  for (const auto& dir : dirs) {
    std::vector<std::pair<std::string, fs::path>> here;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      if (e.is_regular_file() && keep(e.path()) &&
          std::none_of(out.begin(), out.end(), [&](const auto& f) { return f.first == name; })) {
        here.emplace_back(name, e.path());
      }
    }
    std::sort(here.begin(), here.end());
    out.insert(out.end(), here.begin(), here.end());
  }
  return out;
}

std::vector<std::pair<std::string, fs::path>> board_files(const std::vector<std::string>& dirs) {
  return files_of(dirs, [](const fs::path& p) { return is_board_file(p.filename().string()); });
}

std::vector<std::pair<std::string, fs::path>> scenario_files(const std::vector<std::string>& dirs) {
  return files_of(dirs, [](const fs::path& p) {
    return p.extension() == ".json" && plain_name(p.filename().string());
  });
}

}  // namespace

FolderCatalog::FolderCatalog(std::vector<std::string> map_dirs,
                             std::vector<std::string> scenario_dirs)
    : map_dirs_(std::move(map_dirs)), scenario_dirs_(std::move(scenario_dirs)) {}

std::vector<std::string> FolderCatalog::maps() const {
  std::vector<std::string> names;
  for (const auto& dir : map_dirs_) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.is_regular_file() && is_map_file(e.path().filename().string()))
        names.push_back(e.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::optional<io::Map> FolderCatalog::map(const std::string& name,
                                          const io::MapOptions& options) const {
  if (!plain_name(name)) return std::nullopt;
  for (const auto& dir : map_dirs_) {
    const fs::path p = fs::path(dir) / name;
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) continue;
    if (!is_map_file(name)) return std::nullopt;
    return io::load_map(p.string(), options);
  }
  return std::nullopt;
}

std::vector<std::string> FolderCatalog::boards() const {
  std::vector<std::string> names;
  for (const auto& [name, path] : board_files(map_dirs_)) names.push_back(name);
  return names;
}

link::Board FolderCatalog::board(const std::string& name) const {
  for (const auto& [file, path] : board_files(map_dirs_)) {
    if (file == name) return json::load_link_board(path.string());
  }
  throw ParseError(name, 0, "no such board");
}

std::vector<std::string> FolderCatalog::scenarios() const {
  std::vector<std::string> names;
  for (const auto& [name, path] : scenario_files(scenario_dirs_)) names.push_back(name);
  return names;
}

std::optional<agents::Scenario> FolderCatalog::scenario(const std::string& name) const {
  if (!plain_name(name)) return std::nullopt;
  for (const auto& [file, path] : scenario_files(scenario_dirs_)) {
    if (file == name) return agents::load_scenario(path.string());
  }
  return std::nullopt;
}

// The text may name a map only as a listed map is named (its file name in a map folder, or a
// path relative to a scenario folder that lands in a map folder, like the shipped
// "../maps/NAME"), never an arbitrary file on the server.
std::optional<std::string> FolderCatalog::text_scenario_path(const std::string& map) const {
  if (map.empty() || fs::path(map).is_absolute()) return std::nullopt;
  std::vector<std::string> bases = map_dirs_;
  bases.insert(bases.end(), scenario_dirs_.begin(), scenario_dirs_.end());
  for (const auto& base : bases) {
    std::error_code ec;
    const fs::path file = fs::weakly_canonical(fs::path(base) / map, ec);
    if (ec || !fs::is_regular_file(file, ec)) continue;
    for (const auto& dir : map_dirs_) {
      const fs::path d = fs::weakly_canonical(dir, ec);
      if (!ec && file.parent_path() == d) return (fs::path(base) / "scenario_text.json").string();
    }
  }
  return std::nullopt;
}

agents::Scenario FolderCatalog::parse_scenario(std::string_view text,
                                               const std::string& path) const {
  return agents::parse_scenario(text, path);
}

// ---- files in memory ------------------------------------------------------------------------

namespace {

constexpr const char* kMaps = "maps";
constexpr const char* kScenarios = "scenarios";

std::string in_maps(const std::string& name) {
  return std::string(kMaps) + "/" + name;
}

}  // namespace

void MemoryCatalog::add_map(const std::string& name, std::string bytes) {
  maps_[name] = std::move(bytes);
}

void MemoryCatalog::add_scenario(const std::string& name, std::string text) {
  scenarios_[name] = std::move(text);
}

std::vector<std::string> MemoryCatalog::maps() const {
  std::vector<std::string> names;
  for (const auto& [name, bytes] : maps_) {
    if (plain_name(name) && is_map_file(name)) names.push_back(name);
  }
  return names;
}

std::optional<io::Map> MemoryCatalog::map(const std::string& name,
                                          const io::MapOptions& options) const {
  const auto it = maps_.find(name);
  if (it == maps_.end() || !plain_name(name) || !is_map_file(name)) return std::nullopt;
  // The files a map names (a layered map's floors, Tiled's external tilesets) come from maps/
  // in memory too, never from elsewhere.
  io::MapOptions o = options;
  o.read_file = [this](const std::string& path) {
    const fs::path normal = fs::path(path).lexically_normal();
    const auto f =
        normal.parent_path() == kMaps ? maps_.find(normal.filename().string()) : maps_.end();
    if (f == maps_.end()) throw ParseError(path, 0, "no such file among the page's maps");
    return f->second;
  };
  return io::parse_map(it->second, in_maps(name), o);
}

std::vector<std::string> MemoryCatalog::boards() const {
  std::vector<std::string> names;
  for (const auto& [name, bytes] : maps_) {
    if (plain_name(name) && is_board_file(name)) names.push_back(name);
  }
  return names;
}

link::Board MemoryCatalog::board(const std::string& name) const {
  const auto it = maps_.find(name);
  if (it == maps_.end() || !is_board_file(name)) throw ParseError(name, 0, "no such board");
  return json::parse_link_board(it->second, in_maps(name));
}

std::vector<std::string> MemoryCatalog::scenarios() const {
  std::vector<std::string> names;
  for (const auto& [name, text] : scenarios_) {
    if (plain_name(name) && fs::path(name).extension() == ".json") names.push_back(name);
  }
  return names;
}

std::optional<agents::Scenario> MemoryCatalog::scenario(const std::string& name) const {
  const auto it = scenarios_.find(name);
  if (it == scenarios_.end() || !plain_name(name)) return std::nullopt;
  return parse_scenario(it->second, std::string(kScenarios) + "/" + name);
}

namespace {

/// The name of the map `path` (a path in the catalog's two folders) lands on, if it is in maps/.
std::optional<std::string> map_in_maps(const std::string& path) {
  const fs::path normal = fs::path(path).lexically_normal();
  if (normal.parent_path() != kMaps) return std::nullopt;
  return normal.filename().string();
}

}  // namespace

std::optional<std::string> MemoryCatalog::text_scenario_path(const std::string& map) const {
  if (map.empty() || fs::path(map).is_absolute()) return std::nullopt;
  for (const char* base : {kMaps, kScenarios}) {
    const auto name = map_in_maps((fs::path(base) / map).string());
    if (name && maps_.count(*name) != 0) return std::string(base) + "/scenario_text.json";
  }
  return std::nullopt;
}

agents::Scenario MemoryCatalog::parse_scenario(std::string_view text,
                                               const std::string& path) const {
  return agents::parse_scenario(
      text, path,
      [this](const std::string& map_path, std::string& problem) -> std::optional<io::Map> {
        const auto name = map_in_maps(map_path);
        const auto it = name ? maps_.find(*name) : maps_.end();
        if (it == maps_.end()) {
          problem = "map file '" + map_path + "' not found";
          return std::nullopt;
        }
        return io::parse_map(it->second, in_maps(*name));
      });
}

}  // namespace pathlab::api
