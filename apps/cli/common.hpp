// Shared pieces of the pathlab command: the error type the subcommands throw (caught in main and
// printed as "pathlab: error: ..." with the contract's exit code), option parsing helpers and
// map loading with the image/clearance options every map-reading command takes.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <pathlab/io/map.hpp>
#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>

namespace pathlab::cli {

/// Thrown by subcommands; main prints "pathlab: error: <message>" and exits with `code`.
struct CliError {
  std::string message;
  int code = 2;
};

/// Exit codes of the CLI contract (shared docs/DESIGN.md).
inline constexpr int kExitOk = 0;
inline constexpr int kExitNegative = 1;
inline constexpr int kExitBadInput = 2;

/// Options for reading a map (format, image threshold and cell size, agent radius).
struct MapArgs {
  std::string format = "auto";
  int threshold = 128;
  int cell = 1;
  double radius = 0;
  std::string layout;  ///< --layout: empty keeps the file's own
  void add_to(CLI::App& app, bool with_radius = true);
  [[nodiscard]] io::MapOptions options() const;
};

/// Loads a map, applying clearance when a radius is given. Errors become CliError.
io::Map load_map(const std::string& path, const MapArgs& args);

/// Parses "X,Y"; `what` names the option in the error message.
/// "WxH", "WxH, N floors" on layered maps, with ", hex LAYOUT" on hex maps: a map's shape in
/// messages.
std::string map_shape(const grid::Grid& g);
/// "X,Y", or "L:X,Y" on a layered map: a cell as the CLI reads it.
std::string cell_text(const grid::Grid& g, Cell c);
/// "X,Y", or on a layered map `g` also "L:X,Y" (cell X,Y of floor L; X,Y alone is floor 0's).
/// [Throws CliError for malformed text or a floor or row outside the map.]
Cell parse_cell(const std::string& text, const std::string& what, const grid::Grid* g = nullptr);
/// Whether an endpoint's text is a point in map units rather than a cell: X,Y with a '.' in it
/// ("10.3,4.7"; "10,4" is cell (10, 4)).
bool is_point_text(const std::string& text);
/// X,Y as a point in map units (two finite numbers); CliError naming `what` otherwise.
Point parse_point(const std::string& text, const std::string& what);

/// Options shared by solve and bench for the search itself.
struct SearchArgs {
  std::string heuristic;
  std::optional<double> weight;
  std::string diagonal = "no-corner-cut";
  std::string cost_model = "octile";
  std::uint64_t node_limit = 10'000'000;
  std::optional<std::string> class_cost;  ///< --class-cost C=V[,C=V...]
  double radius = 0;  ///< --radius R: the unit's, served from the grid's clearance field
  std::vector<std::string> edits;  ///< --edit KIND:X,Y[:X2,Y2], applied in order
  void add_to(CLI::App& app, bool with_moves = true);
  /// Adds --class-cost, --radius (the unit of the query, grid/unit.hpp) and --edit.
  void add_unit_options(CLI::App& app);
  /// Applies the --edit options to the map through the edit API; a malformed edit or one
  /// outside the map is a CliError naming it.
  void apply_edits(grid::Grid& g) const;
  /// Builds search options; unknown names are CliErrors.
  [[nodiscard]] search::Options options() const;
};

/// The unit's view of the grid the finder searches, with `c` checked on it: a CliError naming
/// `option`, the cell and why the unit cannot stand there (a wall, a class it may not enter,
/// too close to a blocked square for its radius).
void check_endpoint(const grid::Grid& g, const search::Options& o, Cell c, const char* option,
                    const std::string& map);

/// Splits "a,b,c" into algorithms; unknown names are CliErrors.
std::vector<search::Algorithm> parse_algorithms(const std::string& list);

/// Whether stdout / stderr is a terminal (colours and progress bars only there).
bool stdout_is_terminal();
bool stderr_is_terminal();

void write_json_file(const std::string& path, const nlohmann::json& j);

/// The cache folder of prepared data: the option's value, else $XDG_CACHE_HOME/pathlab, else
/// ~/.cache/pathlab (DESIGN.md: never beside a map that may be read-only).
std::filesystem::path cache_dir(const std::string& option);
/// Adds `--cache DIR` (the folder cache_dir reads) to a subcommand.
void add_cache_option(CLI::App& cmd, std::string& value);

struct PreparedOutcome {
  search::PrepareInfo info;
  std::filesystem::path file;  ///< where the data is (or would be) cached
  bool loaded = false;         ///< read from the cache and verified
  bool stale = false;          ///< a cached file was there but did not match: rebuilt
  bool saved = false;          ///< written to the cache now
};

/// Gives the finder its algorithm's preprocessed data: from the cache folder when a file there
/// matches the map and format, else built now (and saved there when `save`). info.ready is
/// false when the algorithm has none here.
PreparedOutcome load_or_prepare(search::Pathfinder& finder, const grid::Grid& g,
                                search::Algorithm algorithm, const std::string& cache_option,
                                bool save);

void register_solve(CLI::App& app, int& exit_code);
void register_bench(CLI::App& app, int& exit_code);
void register_algorithms(CLI::App& app, int& exit_code);
void register_convert(CLI::App& app, int& exit_code);
void register_serve(CLI::App& app, int& exit_code);
void register_simulate(CLI::App& app, int& exit_code);
void register_link(CLI::App& app, int& exit_code);
void register_prepare(CLI::App& app, int& exit_code);
void register_reach(CLI::App& app, int& exit_code);
void register_flow(CLI::App& app, int& exit_code);

}  // namespace pathlab::cli
