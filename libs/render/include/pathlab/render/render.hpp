// Pictures of a search: the grid with terrain shading, the cells a search explored coloured by
// expansion order, its open set, the path, start and goal; as PNG, as an animated GIF of the
// search's progress, or as SVG. Several searches on one map are drawn side by side, in
// lockstep in a GIF (the same number of trace events per frame in every panel).
//
// Every map kind (shared docs/DESIGN.md, "Every map a game has"): hex maps are drawn as hexes
// (hex::corners; Options::cell_px is then the distance between neighbouring hex centres, and
// points of polylines are in hex units), thin walls as lines on the cell edges they block
// (kEdgeWall), a layered map's floors side by side in each panel (floor 0 on the left, a gap
// between floors), its links as thin lines between their ends with a dot on each (kLink), and a
// path's steps through a link (to another floor, or between cells that are not neighbours) as a
// thick line with a dot on each end (kLinkTaken): where the path changes floor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pathlab/core/types.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/search/trace.hpp>

namespace pathlab::render {

/// One search to draw: its trace (optional) and its path (optional).
struct Panel {
  std::string title;  ///< a label drawn in the panel's top-left corner (SVG only); may be empty
  /// The search's trace events in order (borrowed; must outlive the drawing); null: no trace,
  /// the panel shows only its path.
  const std::vector<search::TraceEvent>* trace = nullptr;
  /// Grid algorithms: every cell of the path. Any-angle algorithms: the turning cells (drawn as
  /// cells; `polyline` joins them).
  const std::vector<Cell>* path = nullptr;
  /// An any-angle path in map units (cell centres, or lattice corners for anyangle-exact),
  /// drawn as straight segments over the grid.
  const std::vector<Point>* polyline = nullptr;
  /// A smoothed (waypoint-pruned) path in map units, drawn as straight segments in its own
  /// colour over the grid path.
  const std::vector<Point>* smoothed = nullptr;
};

/// A map and the searches to draw on it. Pointers here and in the panels are borrowed: what
/// they point to must outlive the drawing.
struct Scene {
  const grid::Grid* grid = nullptr;  ///< the map every panel shows; required, not empty
  std::optional<Cell> start,         ///< drawn in kStart when set
      goal;                          ///< drawn in kGoal when set
  std::vector<Panel> panels;         ///< drawn left to right
};

/// Picture size and GIF timing.
struct Options {
  int cell_px = 0;           ///< pixels per cell; 0 = fit each panel in about 640 pixels
  int frames = 120;          ///< GIF: frames of search progress before the final one
  int frame_delay_cs = 3;    ///< GIF: hundredths of a second per frame
  int final_delay_cs = 300;  ///< GIF: how long the last frame holds
};

/// A palette image: one byte per pixel, indices into palette() (256 RGB entries).
struct IndexedImage {
  int width = 0,                     ///< pixels across
      height = 0;                    ///< pixels down
  std::vector<std::uint8_t> pixels;  ///< width * height palette indices, row-major from top-left
};

/// The 256-colour palette every render uses (RGB triples).
[[nodiscard]] const std::vector<std::uint8_t>& palette();

/// Palette indices of the fixed colours, for tests and other renderers.
enum Colour : std::uint8_t {
  kBackground = 0,
  kFree,
  kWall,
  kOpen,
  kPath,
  kStart,
  kGoal,
  kSeparator,
  kTerrainFirst,              ///< kTerrainFirst + k: terrain cost k+2 (2..9, darker is dearer)
  kLine = kTerrainFirst + 8,  ///< an any-angle path's segments and vertices (Panel::polyline)
  kSmoothed,                  ///< a smoothed path's segments and waypoints (Panel::smoothed)
  kSightClear,                ///< GIF frames: the latest line-of-sight check of a trace, visible
  kSightBlocked,              ///< ... and not visible
  kObstacle,                  ///< simulations (simulation.hpp): a dynamic obstacle
  kColliding,                 ///< simulations: an agent overlapping something
  kForce,                     ///< simulations: an agent's force arrow
  kEdgeWall,                  ///< a thin wall: a line on the cell edge it blocks
  kLink,                      ///< a link of a map: a line between its two ends, a dot on each
  kLinkTaken,                 ///< a path's step through a link: where it changes floor
  kGridLine,                  ///< hex maps: the hairline between two hexes of one colour
  kAgentFirst,                ///< simulations: kAgentFirst + k, the k-th of kAgentHues colours
  kAgentFadedFirst = kAgentFirst + 8,   ///< the same faded: trails, agents that arrived
  kClosedFirst = kAgentFadedFirst + 8,  ///< closed cells, early (kClosedFirst) to late (255)
};
/// How many agent colours there are (8): agent k is drawn in hue k % kAgentHues.
inline constexpr int kAgentHues = kAgentFadedFirst - kAgentFirst;

/// Draws the scene with the first `events` trace events of each panel (all by default); the
/// path, and the polyline and smoothed segments over it (with a dot at each vertex), are drawn
/// once a panel's whole trace is shown. Until then the latest line-of-sight check of the trace
/// shown so far (Theta*, Lazy Theta*) is drawn as a thin line, kSightClear or kSightBlocked.
[[nodiscard]] IndexedImage draw(const Scene& scene, const Options& options,
                                std::size_t events = static_cast<std::size_t>(-1));

/// Writes PNG, GIF or SVG, chosen by the extension. Throws std::runtime_error naming the file
/// on an unknown extension or a write failure.
void render_file(const Scene& scene, const std::string& path, const Options& options = {});

/// Whether the path's extension names a format the renders write (.png, .gif or .svg, in any
/// case), for checking an output name before the work that fills it.
[[nodiscard]] bool is_render_path(std::string_view path);

/// Writes the final picture, draw() with every event, as a PNG file. Throws
/// std::invalid_argument on an empty scene (no grid or no cells) and std::runtime_error naming
/// the file when it cannot be written.
void write_png(const Scene& scene, const std::string& path, const Options& options = {});
/// Writes an animated GIF: about Options::frames frames of the panels' traces in lockstep, then
/// the final picture held for final_delay_cs. Throws std::invalid_argument on an empty scene (no
/// grid or no cells) and std::runtime_error naming the file when it cannot be written.
void write_gif(const Scene& scene, const std::string& path, const Options& options = {});
/// SVG: the cells as rectangles, then per panel the path as `<polyline class="path">` through
/// cell centres (or, with a polyline, `<polyline class="line">` through its points instead) and
/// the smoothed path as `<polyline class="smoothed">`, in pixels (map units × cell_px), each
/// with round joins and a `<circle>` per vertex.
[[nodiscard]] std::string svg(const Scene& scene, const Options& options = {});

/// The text picture `pathlab solve` prints, of the first panel: '#' wall, ' ' free, '2'..'9'
/// terrain cost, '.' expanded, 'o' opened but not expanded, '*' path (its cells, and the cells
/// whose interior a polyline segment crosses), '+' a smoothed segment off the path, 'S' start,
/// 'G' goal; with ANSI colours when `color` is set (for terminals).
[[nodiscard]] std::string text_picture(const Scene& scene, bool color);

}  // namespace pathlab::render
