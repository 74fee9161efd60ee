// pathlab._pathlab: the Python module, a thin layer over the library (shared docs/DESIGN.md,
// "Python package"). Coordinates are (x, y); arrays are numpy, indexed [y, x]. Every bad
// argument raises ValueError (pathlab.ParseError, a subclass, for a malformed file); nothing a
// caller passes can crash the interpreter. Batches run without the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <pathlab/agents/scenario.hpp>
#include <pathlab/agents/world.hpp>
#include <pathlab/bench/bench.hpp>
#include <pathlab/core/error.hpp>
#include <pathlab/flow/field.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/moves.hpp>
#include <pathlab/grid/unit.hpp>
#include <pathlab/io/map.hpp>
#include <pathlab/io/scenario.hpp>
#include <pathlab/link/board.hpp>
#include <pathlab/link/connect.hpp>
#include <pathlab/link/moves.hpp>
#include <pathlab/link/solver.hpp>
#include <pathlab/post/smooth.hpp>
#include <pathlab/search/algorithm.hpp>
#include <pathlab/search/batch.hpp>
#include <pathlab/search/pathfinder.hpp>
#include <pathlab/search/prepare.hpp>
#include <pathlab/search/trace.hpp>

namespace py = pybind11;

namespace pathlab::python {
namespace {

[[noreturn]] void fail(const std::string& message) {
  throw py::value_error(message);
}

std::string cell_text(Cell c) {
  // Built with append(): g++ 12 gives a false -Wrestrict on chained operator+ here.
  std::string s = "(";
  s.append(std::to_string(c.x)).append(", ").append(std::to_string(c.y)).append(")");
  return s;
}

struct QueryArgs {
  std::string algorithm;
  std::string diagonal;
  std::optional<std::string> heuristic;
  std::optional<double> weight;
  double radius = 0;
  py::object class_cost;
  bool partial = false;
  std::uint64_t node_limit = 10'000'000;
};

/// The arguments as find() last saw them, when they name no class costs: the same again reuse
/// the finder without reading them again (find()'s overhead over the C++ query is what a
/// Python loop pays per call).
struct QueryKey {
  std::string algorithm, diagonal;
  std::optional<std::string> heuristic;
  std::optional<double> weight;
  double radius = 0;
  bool partial = false;
  std::uint64_t node_limit = 0;
  [[nodiscard]] static std::optional<QueryKey> of(const QueryArgs& a) {
    if (!a.class_cost.is_none()) return std::nullopt;
    return QueryKey{a.algorithm, a.diagonal, a.heuristic, a.weight,
                    a.radius,    a.partial,  a.node_limit};
  }
  friend bool operator==(const QueryKey&, const QueryKey&) = default;
};

/// A grid shared by the Python objects that use it (finders keep it alive), and the finder
/// find() reuses while its options stay the same (warm: a query then allocates nothing).
struct GridHandle {
  std::shared_ptr<grid::Grid> grid;
  std::unique_ptr<search::Pathfinder> finder;
  std::optional<Cell> start, goal;  // the markers of the file it was read from
  search::Result scratch;           // find()'s, reused (its path keeps its capacity)
  std::optional<QueryKey> key;      // what made `finder`, when it can be compared
  // find_many()'s pool of finders, kept warm between batches of the same options and threads.
  // A batch runs without the GIL: one from another Python thread meanwhile makes its own.
  std::unique_ptr<search::BatchFinder> batch;
  int batch_threads = -1;
  std::vector<search::Result> batch_results;  // its answers, reused: paths keep their room
  std::unique_ptr<std::mutex> batch_busy = std::make_unique<std::mutex>();
  // Work without the GIL (batches, flow fields) reads the grid under a shared lock; an edit
  // takes it alone, so a batch on another Python thread never sees a grid half edited.
  std::unique_ptr<std::shared_mutex> edit_lock = std::make_unique<std::shared_mutex>();
};

template <class T>
using Array = py::array_t<T, py::array::c_style | py::array::forcecast>;
using Walls = Array<bool>;
using Costs = Array<double>;
using Ints = Array<std::int64_t>;

/// obj as a C-ordered array of T, refused (ValueError) unless numpy reads it as an array whose
/// dtype kind is one of `kinds` ('b' bool, 'i' signed, 'u' unsigned, 'f' float).
template <class T>
Array<T> as_array(const py::handle& obj, const std::string& name, const char* kinds,
                  const char* expected) {
  py::array a = py::array::ensure(obj);
  if (!a) fail(name + " must be " + expected + ", not " + py::repr(obj).cast<std::string>());
  const char kind = a.dtype().kind();
  if (std::string_view(kinds).find(kind) == std::string_view::npos) {
    fail(name + " must be " + expected + ", not an array of dtype " +
         py::str(a.dtype()).cast<std::string>());
  }
  auto out = Array<T>::ensure(a);
  if (!out) fail(name + " must be " + expected);
  return out;
}

/// The arrays of a grid's cells, 2-D (height, width) or, for a layered map, 3-D (layers,
/// height, width): their shape as (layers, height, width), checked against `walls` when given.
template <class Array>
std::array<int, 3> floors_shape(const Array& a, const char* name,
                                const std::array<int, 3>* walls = nullptr) {
  if (a.ndim() != 2 && a.ndim() != 3) {
    fail(std::string(name) +
         " must be a 2-D array (height, width) or a 3-D array (layers, height, width), not " +
         std::to_string(a.ndim()) + "-D");
  }
  std::array<py::ssize_t, 3> s{1, a.shape(0), a.shape(1)};
  if (a.ndim() == 3) s = {a.shape(0), a.shape(1), a.shape(2)};
  auto text = [&](const auto& v) {
    std::string t = "(";
    if (a.ndim() == 3) t.append(std::to_string(v[0])).append(", ");
    return t.append(std::to_string(v[1])).append(", ").append(std::to_string(v[2])).append(")");
  };
  if (s[0] < 1 || s[1] < 1 || s[2] < 1 || s[0] > 1 << 20 || s[1] > 1 << 20 || s[2] > 1 << 20) {
    fail(std::string(name) + " has shape " + text(s) + ": each side must be 1 to 1048576");
  }
  const std::array<int, 3> out{static_cast<int>(s[0]), static_cast<int>(s[1]),
                               static_cast<int>(s[2])};
  if (walls != nullptr && out != *walls) {
    fail(std::string(name) + " has shape " + text(s) + ", the walls " + text(*walls));
  }
  return out;
}

/// A grid of the walls (2-D, or 3-D for a layered map: one floor a slice), with costs and
/// classes of the same shape, in `layout`.
std::shared_ptr<grid::Grid> make_grid(const py::handle& walls_in, const py::handle& costs_in,
                                      const py::handle& classes_in, grid::Layout layout) {
  const Walls walls = as_array<bool>(walls_in, "walls", "biu", "a bool array (height, width)");
  std::optional<Costs> costs;
  std::optional<Ints> classes;
  if (!costs_in.is_none()) {
    costs = as_array<double>(costs_in, "costs", "fiu", "a float array (height, width)");
  }
  if (!classes_in.is_none()) {
    classes = as_array<std::int64_t>(classes_in, "classes", "iu",
                                     "a uint8 array (height, width) of class characters");
  }
  const std::array<int, 3> shape = floors_shape(walls, "walls");
  const auto [layers, h, w] = shape;
  std::shared_ptr<grid::Grid> g;
  try {
    g = std::make_shared<grid::Grid>(grid::Grid::layered(w, h, layers));
  } catch (const std::length_error& e) {
    fail(std::string("walls: ") + e.what());
  }
  // The value at [l, y, x] (or [y, x]) of a C-ordered array of `shape`.
  const auto at = [&](int l, int y, int x) {
    return (static_cast<std::size_t>(l) * static_cast<std::size_t>(h) +
            static_cast<std::size_t>(y)) *
               static_cast<std::size_t>(w) +
           static_cast<std::size_t>(x);
  };
  auto index = [&](int l, int y, int x) {
    std::string s = "[";
    if (walls.ndim() == 3) s.append(std::to_string(l)).append(", ");
    return s.append(std::to_string(y)).append(", ").append(std::to_string(x)).append("]");
  };
  if (classes) {
    floors_shape(*classes, "classes", &shape);
    const std::int64_t* cls = classes->data();
    for (int l = 0; l < layers; ++l) {
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          const std::int64_t v = cls[at(l, y, x)];
          const char c = grid::canonical_class(static_cast<char>(v >= 0 && v < 128 ? v : 0));
          if (!grid::valid_class(c)) {
            fail("classes" + index(l, y, x) + " = " + std::to_string(v) +
                 ": a class is a printable character other than space (ord('.') ground, "
                 "ord('@') wall, ord('T'), ...)");
          }
          if (c != grid::kGroundClass) g->set_class(x, g->at(l, x, y).y, c);
        }
      }
    }
  }
  if (costs) {
    floors_shape(*costs, "costs", &shape);
    const double* cost = costs->data();
    for (int l = 0; l < layers; ++l) {
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          const double v = cost[at(l, y, x)];
          const int gy = g->at(l, x, y).y;
          if (std::isinf(v) && v > 0) {
            g->set_blocked(x, gy, true);
          } else if (!(v >= 1) || v > 3.0e38) {
            fail("costs" + index(l, y, x) + " = " + py::str(py::float_(v)).cast<std::string>() +
                 ": a cost is a number >= 1, or inf for a wall");
          } else if (v != 1) {
            g->set_terrain(x, gy, static_cast<float>(v));
          }
        }
      }
    }
  }
  const bool* wall = walls.data();
  for (int l = 0; l < layers; ++l) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        if (wall[at(l, y, x)]) g->set_blocked(x, g->at(l, x, y).y, true);
      }
    }
  }
  if (layout != grid::Layout::square) g->set_layout(layout);
  return g;
}

/// The unit of radius and class_cost ({"T": 2.0, "W": None}: None forbids the class).
grid::Unit make_unit(double radius, const py::object& class_cost) {
  grid::Unit unit;
  if (!(radius >= 0) || radius > grid::Unit::max_radius) {
    fail("radius " + py::str(py::float_(radius)).cast<std::string>() +
         ": the radius must be a number from 0 to " +
         std::to_string(static_cast<int>(grid::Unit::max_radius)));
  }
  unit.radius = radius;
  if (!class_cost.is_none()) {
    if (!py::isinstance<py::dict>(class_cost)) {
      fail("class_cost must be a dict {class: cost or None}, e.g. {\"T\": 2.0, \"W\": None}");
    }
    std::string text;
    for (const auto& [key, value] : class_cost.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key)) fail("class_cost: a class is a one-character string");
      if (!text.empty()) text += ',';
      text += key.cast<std::string>() + '=';
      if (value.is_none()) {
        text += 'x';
      } else if (py::isinstance<py::float_>(value) || py::isinstance<py::int_>(value)) {
        text += py::repr(py::float_(value.cast<double>())).cast<std::string>();
      } else {
        fail("class_cost[" + py::repr(key).cast<std::string>() +
             "]: a cost is a number >= 1, or None to forbid the class");
      }
    }
    if (auto bad = grid::parse_class_costs(text, unit)) fail("class_cost: " + *bad);
  }
  return unit;
}

search::Options make_options(const QueryArgs& a) {
  search::Options o;
  const auto algo = search::parse_algorithm(a.algorithm);
  if (!algo) {
    std::string known;
    for (const auto& i : search::algorithms()) known.append(" ").append(i.name);
    fail("unknown algorithm '" + a.algorithm + "' (known:" + known + ")");
  }
  o.algorithm = *algo;
  const auto rule = grid::parse_diagonal_rule(a.diagonal);
  if (!rule) {
    fail("unknown diagonal rule '" + a.diagonal + "' (never, no-corner-cut, one-corner, always)");
  }
  o.moves.diagonal = *rule;
  if (a.heuristic) {
    o.heuristic = search::parse_heuristic(*a.heuristic);
    if (!o.heuristic) {
      fail("unknown heuristic '" + *a.heuristic +
           "' (manhattan, octile, euclidean, chebyshev, zero)");
    }
  }
  o.weight = a.weight;
  o.node_limit = a.node_limit;
  o.partial = a.partial;
  o.unit = make_unit(a.radius, a.class_cost);
  if (auto bad = search::validate(o)) fail(*bad);
  return o;
}

bool same_options(const search::Options& a, const search::Options& b) {
  return a.algorithm == b.algorithm && a.heuristic == b.heuristic && a.weight == b.weight &&
         a.moves.diagonal == b.moves.diagonal && a.moves.cost_model == b.moves.cost_model &&
         a.node_limit == b.node_limit && a.partial == b.partial && a.unit == b.unit;
}

/// (x, y) of a sequence of two integers, for boards (the Link game): no floors there.
Cell to_pair(const py::handle& p, const char* name) {
  try {
    const auto seq = p.cast<py::sequence>();
    if (py::len(seq) != 2 || py::isinstance<py::str>(p)) throw py::cast_error();
    return Cell{seq[0].cast<std::int32_t>(), seq[1].cast<std::int32_t>()};
  } catch (const py::cast_error&) {
    fail(std::string(name) + " must be a pair of integers (x, y), not " +
         py::repr(p).cast<std::string>());
  }
}

/// How a grid's cells show in Python (shared docs/DESIGN.md, "Every map a game has"): (x, y),
/// or on a layered map (x, y, layer) with y the row within the floor, as the CLI's JSON
/// writes them. The library stacks the floors in one grid (Grid::at): every cell that enters
/// or leaves the module goes through here.
struct Floors {
  int layers = 1;        ///< floors, >= 1
  int layer_height = 0;  ///< rows of each floor
  int pitch = 1;         ///< grid rows from one floor to the next
  Floors() = default;
  explicit Floors(const grid::Grid& g)
      : layers(g.layers()), layer_height(g.layer_height()), pitch(g.layer_pitch()) {}
  [[nodiscard]] bool layered() const noexcept { return layers > 1; }
  /// Numbers per cell in arrays: 2, or 3 on a layered map.
  [[nodiscard]] py::ssize_t columns() const noexcept { return layered() ? 3 : 2; }
  /// The floor of grid row y (rows outside the grid: floor 0, the row as it is).
  [[nodiscard]] int layer_of(int y) const noexcept {
    return layered() && y >= 0 ? std::min(y / pitch, layers - 1) : 0;
  }
  [[nodiscard]] int local_y(int y) const noexcept { return y - layer_of(y) * pitch; }
};

/// The cell as Python shows it: (x, y), or (x, y, layer) on a layered map.
py::tuple cell_tuple(const Floors& f, Cell c) {
  if (!f.layered()) return py::make_tuple(c.x, c.y);
  return py::make_tuple(c.x, f.local_y(c.y), f.layer_of(c.y));
}

/// "(x, y)", or "(x, y, layer)" on a layered map.
std::string cell_text(const Floors& f, Cell c) {
  if (!f.layered()) return cell_text(c);
  std::string s = "(";
  s.append(std::to_string(c.x)).append(", ").append(std::to_string(f.local_y(c.y)));
  s.append(", ").append(std::to_string(f.layer_of(c.y))).append(")");
  return s;
}

/// The grid cell of (x, y) on floor `layer` (floor 0 when not given), checked as the CLI
/// checks L:X,Y: the floor must be one of the map's and, on a layered map, the row one of the
/// floor's. Columns (and rows of a single-floor map) are left to the caller's checks.
Cell grid_cell(const grid::Grid& g, int x, int y, std::optional<int> layer,
               const std::string& name) {
  const Floors f(g);
  auto text = [&] {
    std::string s = "(";
    s.append(std::to_string(x)).append(", ").append(std::to_string(y));
    if (layer) s.append(", ").append(std::to_string(*layer));
    return s.append(")");
  };
  const int l = layer.value_or(0);
  if (l < 0 || l >= f.layers) {
    fail(name + " " + text() + ": floor " + std::to_string(l) + " is not one of the map's " +
         std::to_string(f.layers) + " (0 to " + std::to_string(f.layers - 1) + ")");
  }
  if (!f.layered()) return Cell{x, y};
  if (y < 0 || y >= f.layer_height) {
    fail(name + " " + text() + ": row " + std::to_string(y) + " is outside floor " +
         std::to_string(l) + " (" + std::to_string(f.layer_height) + " rows)" +
         (layer ? "" : "; give (x, y, layer) for another floor"));
  }
  return g.at(l, x, y);
}

/// A cell given as (x, y) or (x, y, layer) (any sequence of two or three integers): the grid's
/// cell (grid_cell). (x, y) is floor 0 of a layered map.
Cell to_cell(const grid::Grid& g, const py::handle& p, const std::string& name) {
  std::int32_t v[3] = {0, 0, 0};
  std::size_t n = 0;
  try {
    const auto seq = p.cast<py::sequence>();
    n = py::len(seq);
    if ((n != 2 && n != 3) || py::isinstance<py::str>(p)) throw py::cast_error();
    for (std::size_t i = 0; i < n; ++i) v[i] = seq[i].cast<std::int32_t>();
  } catch (const py::cast_error&) {
    fail(name + " must be a pair of integers (x, y) or a triple (x, y, layer), not " +
         py::repr(p).cast<std::string>());
  }
  return grid_cell(g, v[0], v[1], n == 3 ? std::optional<int>(v[2]) : std::nullopt, name);
}

/// Why the unit cannot stand on c (the CLI's checks, in Python's words), or nothing. `name`
/// gives the message's subject ("start", "goals[3]"): called only when there is a problem.
template <class Name>
std::optional<std::string> endpoint_problem(const grid::Grid& g, const search::Options& o, Cell c,
                                            Name&& name) {
  const Floors f(g);
  auto at = [&] { return std::string(name()) + " " + cell_text(f, c); };
  if (auto bad = grid::validate(o.unit, g.layout())) return bad;
  switch (grid::footing(g, o.unit, c)) {
    case grid::Footing::ok:
      return std::nullopt;
    case grid::Footing::outside:
      return at() + " is outside the " + std::to_string(g.width()) + "x" +
             std::to_string(f.layered() ? f.layer_height : g.height()) + " map" +
             (f.layered() ? " (" + std::to_string(f.layers) + " floors)" : std::string());
    case grid::Footing::wall:
      return at() + " is on a wall";
    case grid::Footing::forbidden_class: {
      const char cls = g.cell_class(c.x, c.y);
      return at() + " is on '" + std::string(1, cls) + "', a class the unit may not enter" +
             (grid::Unit{}.forbids(cls) ? " (give it a cost with class_cost)" : "");
    }
    case grid::Footing::too_close:
      return at() + " is closer than radius " +
             py::str(py::float_(o.unit.radius)).cast<std::string>() +
             " to a square the unit cannot enter";
  }
  return std::nullopt;
}

/// Cells as an int32 array (n, 2) of (x, y), or (n, 3) of (x, y, layer) on a layered map.
py::array_t<std::int32_t> path_array(const std::vector<Cell>& path, const Floors& f = {}) {
  const py::ssize_t k = f.columns();
  py::array_t<std::int32_t> out({static_cast<py::ssize_t>(path.size()), k});
  auto a = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < path.size(); ++i) {
    const auto r = static_cast<py::ssize_t>(i);
    a(r, 0) = path[i].x;
    a(r, 1) = f.local_y(path[i].y);
    if (k == 3) a(r, 2) = f.layer_of(path[i].y);
  }
  return out;
}

/// Points in map units as a float array (n, 2), or (n, 3) of (x, y, layer) on a layered map
/// (y within the floor: a cell's centre is (x + 0.5, y + 0.5)).
py::array_t<double> points_array(const std::vector<Point>& points, const Floors& f = {}) {
  const py::ssize_t k = f.columns();
  py::array_t<double> out({static_cast<py::ssize_t>(points.size()), k});
  auto p = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto r = static_cast<py::ssize_t>(i);
    const int layer = f.layer_of(static_cast<int>(std::floor(points[i].y)));
    p(r, 0) = points[i].x;
    p(r, 1) = points[i].y - static_cast<double>(layer) * f.pitch;
    if (k == 3) p(r, 2) = layer;
  }
  return out;
}

/// One value per map cell: an array (height, width) indexed [y, x], or on a layered map
/// (layers, layer_height, width) indexed [layer, y, x] (the rows between floors left out).
template <class T, class Get>
py::array_t<T> cell_array(const grid::Grid& g, Get&& get) {
  const Floors f(g);
  const int w = g.width(), h = f.layered() ? f.layer_height : g.height();
  py::array_t<T> out = f.layered() ? py::array_t<T>({f.layers, h, w}) : py::array_t<T>({h, w});
  T* p = out.mutable_data();
  for (int l = 0; l < f.layers; ++l) {
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) *p++ = get(g.at(l, x, y));
    }
  }
  return out;
}

/// What find() returns: the library's Result with the path as an (n, 2) int32 array.
struct PyResult {
  std::string status;
  double cost = 0;
  std::uint64_t expanded = 0;
  std::uint64_t generated = 0;
  double time_us = 0;
  py::array_t<std::int32_t> path;
  std::vector<Point> points;  // search::path_points: made an array only when asked
  Floors floors;              // how its cells show: (x, y) or (x, y, layer)
  std::string note;
  std::string answered_by;  // search::to_string(Result::answered_by)
  std::string fallback;     // search::to_string(Result::fallback)
  py::object partial = py::none();
  py::object trace = py::none();
  py::object smoothed = py::none();
};

/// A search's trace as arrays, one row an event in order: what plots want.
struct PyTrace {
  py::array_t<std::uint8_t> event;  // index into search event names (opened, updated, ...)
  py::array_t<std::uint8_t> side;   // 0 forward, 1 backward
  py::array_t<std::int32_t> cell;   // (n, 2)
  py::array_t<std::int32_t> other;  // (n, 2): the parent (opened, updated) or the second cell
  py::array_t<double> g, f;
  int width = 0, height = 0;  // of the map (height: of a floor on a layered map)
  int layers = 1;
};

PyTrace trace_arrays(const std::vector<search::TraceEvent>& events, const grid::Grid& grid) {
  const auto n = static_cast<py::ssize_t>(events.size());
  PyTrace t;
  t.event = py::array_t<std::uint8_t>(n);
  t.side = py::array_t<std::uint8_t>(n);
  const py::ssize_t k = Floors(grid).columns();
  t.cell = py::array_t<std::int32_t>({n, k});
  t.other = py::array_t<std::int32_t>({n, k});
  t.g = py::array_t<double>(n);
  t.f = py::array_t<double>(n);
  auto ev = t.event.mutable_unchecked<1>();
  auto sd = t.side.mutable_unchecked<1>();
  auto c = t.cell.mutable_unchecked<2>();
  auto o = t.other.mutable_unchecked<2>();
  auto g = t.g.mutable_unchecked<1>();
  auto f = t.f.mutable_unchecked<1>();
  const Floors fl(grid);
  for (py::ssize_t i = 0; i < n; ++i) {
    const search::TraceEvent& e = events[static_cast<std::size_t>(i)];
    ev(i) = static_cast<std::uint8_t>(e.type);
    sd(i) = e.side;
    c(i, 0) = e.cell.x;
    c(i, 1) = fl.local_y(e.cell.y);
    o(i, 0) = e.other.x;
    o(i, 1) = fl.local_y(e.other.y);
    if (fl.layered()) {
      c(i, 2) = fl.layer_of(e.cell.y);
      o(i, 2) = fl.layer_of(e.other.y);
    }
    g(i) = e.g;
    f(i) = e.f;
  }
  t.width = grid.width();
  t.height = fl.layered() ? fl.layer_height : grid.height();
  t.layers = fl.layers;
  return t;
}

PyResult to_python(const search::Result& r, bool partial, const Floors& fl) {
  PyResult out;
  out.floors = fl;
  out.status = std::string(to_string(r.status));
  out.cost = r.status == Status::found ? r.cost : std::nan("");
  out.expanded = r.stats.expanded;
  out.generated = r.stats.generated;
  out.time_us = r.stats.time_us;
  out.path = path_array(r.path, fl);
  out.points = search::path_points(r);
  out.note = std::string(r.note);
  out.answered_by = std::string(search::to_string(r.answered_by));
  out.fallback = std::string(search::to_string(r.fallback));
  if (partial && r.status != Status::found && r.status != Status::invalid_input) {
    py::dict d;
    d["reached"] = cell_tuple(fl, r.partial.reached);
    d["cost"] = r.partial.cost;
    d["path"] = path_array(r.partial.path, fl);
    out.partial = d;
  }
  return out;
}

/// The smoothing method named (None: no smoothing).
std::optional<post::Smoothing> smoothing_of(const std::optional<std::string>& name) {
  if (!name) return std::nullopt;
  const auto m = post::parse_smoothing(*name);
  if (!m) fail("unknown smoothing '" + *name + "' (greedy, refined)");
  return m;
}

PyResult run_find(search::Pathfinder& finder, search::Result& scratch, const py::handle& start,
                  const py::handle& goal, bool trace = false,
                  std::optional<post::Smoothing> smooth = std::nullopt) {
  const grid::Grid& g = finder.grid();
  const Cell s = to_cell(g, start, "start"), t = to_cell(g, goal, "goal");
  const search::Options& o = finder.options();
  // A hex map takes a radius of whole hexes (the layout may have changed since the finder).
  if (grid::is_hex(g.layout()) && o.unit.radius != std::floor(o.unit.radius)) {
    if (auto bad = grid::validate(o.unit, g.layout())) fail(*bad);
  }
  // The unit may stand where its view of the grid is free: a bit test each; the reason is
  // worked out only when one fails.
  const grid::Grid* view = finder.searched_grid();
  if (view == nullptr || !view->passable(s) || !view->passable(t)) {
    if (auto bad = endpoint_problem(g, o, s, [] { return "start"; })) fail(*bad);
    if (auto bad = endpoint_problem(g, o, t, [] { return "goal"; })) fail(*bad);
  }
  std::optional<search::TraceRecorder> recorder;
  if (trace) recorder.emplace();
  finder.find(s, t, scratch, recorder ? &*recorder : nullptr);
  if (scratch.status == Status::invalid_input) fail("the query is invalid for this map");
  const Floors fl(g);
  PyResult out = to_python(scratch, o.partial, fl);
  if (recorder) out.trace = py::cast(trace_arrays(recorder->events(), g));
  if (smooth && scratch.status == Status::found) {
    // As the CLI's --smooth: the waypoints that see each other, under the options' rule.
    const post::SmoothedPath sp = post::smooth_result(g, o, scratch, *smooth);
    py::dict d;
    d["path"] = path_array(sp.path, fl);
    d["points"] = points_array(sp.points, fl);
    d["cost"] = sp.cost;
    d["los_checks"] = sp.los_checks;
    out.smoothed = d;
  }
  return out;
}

/// The algorithms that answer queries between any points (search::answers_points), as "a, b".
std::string point_algorithms() {
  std::string names;
  for (const auto& i : search::algorithms()) {
    if (!search::answers_points(i.algorithm)) continue;
    if (!names.empty()) names.append(", ");
    names.append(i.name);
  }
  return names;
}

/// A point (x, y) in map units: any sequence of two finite numbers.
Point to_point(const py::handle& p, const std::string& name) {
  double v[2] = {0, 0};
  try {
    if (!py::isinstance<py::sequence>(p) || py::isinstance<py::str>(p)) throw py::cast_error();
    const auto seq = p.cast<py::sequence>();
    if (py::len(seq) != 2) throw py::cast_error();
    for (std::size_t i = 0; i < 2; ++i) v[i] = seq[i].cast<double>();
  } catch (const py::cast_error&) {
    fail(name + " must be a pair of numbers (x, y) in map units, not " +
         py::repr(p).cast<std::string>());
  }
  if (!std::isfinite(v[0]) || !std::isfinite(v[1])) {
    fail(name + " must be two finite numbers, not " + py::repr(p).cast<std::string>());
  }
  return {v[0], v[1]};
}

/// "(x, y)" of a point, each number as Python writes it.
std::string point_text(Point p) {
  std::string s = "(";
  s.append(py::repr(py::float_(p.x)).cast<std::string>()).append(", ");
  s.append(py::repr(py::float_(p.y)).cast<std::string>()).append(")");
  return s;
}

/// Why find_points()/find_corners() cannot run on this finder's map with its options, or
/// nothing: a map that is not a plain square one, a partial path asked for, an invalid unit.
std::optional<std::string> points_problem(const search::Pathfinder& finder, const char* what) {
  const grid::Grid& g = finder.grid();
  if (!g.plain()) {
    return std::string(what) +
           " takes a plain square map: not a hex layout, walls on cell edges, floors or links";
  }
  if (finder.options().partial) {
    return std::string(what) + " has no partial path: partial=True takes find() between cells";
  }
  if (finder.searched_grid() == nullptr) {
    if (auto bad = grid::validate(finder.options().unit, g.layout())) return bad;
    return std::string("the unit is invalid for this map");
  }
  return std::nullopt;
}

/// The rest of a query between points: the answer as a Result (with its trace).
PyResult points_result(search::Pathfinder& finder, search::Result& scratch,
                       std::optional<search::TraceRecorder>& recorder) {
  if (scratch.status == Status::invalid_input) fail("the query is invalid for this map");
  const grid::Grid& g = finder.grid();
  PyResult out = to_python(scratch, false, Floors(g));
  if (recorder) out.trace = py::cast(trace_arrays(recorder->events(), g));
  return out;
}

/// find_points(): the any-angle path between two points of free space in map units
/// (search::Pathfinder::find_points), the points checked first for Python's messages.
PyResult run_find_points(search::Pathfinder& finder, search::Result& scratch,
                         const py::handle& start, const py::handle& goal, bool trace) {
  const Point s = to_point(start, "start"), t = to_point(goal, "goal");
  if (auto bad = points_problem(finder, "find_points")) fail(*bad);
  const grid::Grid& g = finder.grid();
  const search::Options& o = finder.options();
  const grid::Grid& view = *finder.searched_grid();
  auto check = [&](Point p, const char* name) {
    if (search::point_cell(view, p)) return;
    std::string m = name;
    m.append(" ").append(point_text(p)).append(" is not in free space: outside the ");
    m.append(std::to_string(g.width())).append("x").append(std::to_string(g.height()));
    m.append(" map, inside a wall or on an edge between two walls");
    if (!g.sees_alike(o.unit)) m.append(" (as the unit of radius and class_cost sees the map)");
    fail(m);
  };
  check(s, "start");
  check(t, "goal");
  if (!search::answers_points(o.algorithm) && !(search::centre_cell(s) && search::centre_cell(t))) {
    fail(std::string(search::to_string(o.algorithm)) +
         " searches between cell centres ((x + 0.5, y + 0.5)); a point off them needs an "
         "algorithm that takes any point: " +
         point_algorithms());
  }
  std::optional<search::TraceRecorder> recorder;
  if (trace) recorder.emplace();
  finder.find_points(s, t, scratch, recorder ? &*recorder : nullptr);
  return points_result(finder, scratch, recorder);
}

/// find_corners(): the any-angle competition's query from the top-left corner of cell start to
/// that of cell goal (search::Pathfinder::find_corners).
PyResult run_find_corners(search::Pathfinder& finder, search::Result& scratch,
                          const py::handle& start, const py::handle& goal, bool trace) {
  if (auto bad = points_problem(finder, "find_corners")) fail(*bad);
  const grid::Grid& g = finder.grid();
  const search::Options& o = finder.options();
  if (!search::answers_points(o.algorithm)) {
    fail("find_corners needs an algorithm that takes any point: " + point_algorithms() + ", not " +
         std::string(search::to_string(o.algorithm)));
  }
  const Cell s = to_cell(g, start, "start"), t = to_cell(g, goal, "goal");
  if (auto bad = endpoint_problem(g, o, s, [] { return "start"; })) fail(*bad);
  if (auto bad = endpoint_problem(g, o, t, [] { return "goal"; })) fail(*bad);
  std::optional<search::TraceRecorder> recorder;
  if (trace) recorder.emplace();
  finder.find_corners(s, t, scratch, recorder ? &*recorder : nullptr);
  return points_result(finder, scratch, recorder);
}

/// A reusable finder: its options are fixed, its workspace stays warm between queries.
class PyPathfinder {
 public:
  PyPathfinder(py::object grid, const QueryArgs& args)
      : grid_obj_(std::move(grid)),
        handle_(grid_obj_.cast<GridHandle&>().grid),
        finder_(*handle_, make_options(args)) {}
  PyResult find(const py::handle& start, const py::handle& goal, bool trace,
                const std::optional<std::string>& smooth) {
    return run_find(finder_, result_, start, goal, trace, smoothing_of(smooth));
  }
  PyResult find_points(const py::handle& start, const py::handle& goal, bool trace) {
    return run_find_points(finder_, result_, start, goal, trace);
  }
  PyResult find_corners(const py::handle& start, const py::handle& goal, bool trace) {
    return run_find_corners(finder_, result_, start, goal, trace);
  }
  py::tuple reach(const py::handle& start, double budget);
  [[nodiscard]] std::string algorithm() const {
    return std::string(search::to_string(finder_.options().algorithm));
  }
  /// search::preparation_state, under the GIL (edits take it too).
  [[nodiscard]] std::string preparation_state() const {
    return std::string(search::to_string(search::preparation_state(finder_)));
  }

 private:
  py::object grid_obj_;  // keeps the Python Grid (and its grid) alive
  std::shared_ptr<grid::Grid> handle_;
  search::Pathfinder finder_;
  search::Result result_;
};

/// The grid's own finder, made for these arguments (kept while they stay the same).
search::Pathfinder& finder_for(GridHandle& g, const QueryArgs& args) {
  std::optional<QueryKey> key = QueryKey::of(args);
  if (!g.finder || !key || !g.key || !(*key == *g.key)) {
    const search::Options o = make_options(args);
    if (!g.finder || !same_options(g.finder->options(), o)) {
      g.finder = std::make_unique<search::Pathfinder>(*g.grid, o);
    }
    g.key = std::move(key);
  }
  return *g.finder;
}

PyResult find(GridHandle& g, const py::handle& start, const py::handle& goal, const QueryArgs& args,
              bool trace, const std::optional<std::string>& smooth) {
  return run_find(finder_for(g, args), g.scratch, start, goal, trace, smoothing_of(smooth));
}

/// Movement range: (cells int32 (n, 2), costs float64 (n,)), every cell whose least cost from
/// start is within budget, row-major (floor by floor; cells (n, 3) on a layered map).
py::tuple run_reach(search::Pathfinder& finder, const py::handle& start, double budget) {
  const Cell s = to_cell(finder.grid(), start, "start");
  if (auto bad = endpoint_problem(finder.grid(), finder.options(), s, [] { return "start"; })) {
    fail(*bad);
  }
  if (!(budget >= 0)) fail("budget must be a number >= 0");
  std::vector<search::ReachCell> cells;
  const Status st = finder.reach(s, budget, cells);
  if (st == Status::invalid_input) fail("the query is invalid for this map");
  if (st == Status::node_limit) fail("reach: the node limit stopped the search (raise node_limit)");
  const auto n = static_cast<py::ssize_t>(cells.size());
  std::vector<Cell> at(cells.size());
  py::array_t<double> cost(n);
  auto c = cost.mutable_unchecked<1>();
  for (py::ssize_t i = 0; i < n; ++i) {
    const search::ReachCell& r = cells[static_cast<std::size_t>(i)];
    at[static_cast<std::size_t>(i)] = r.cell;
    c(i) = r.cost;
  }
  return py::make_tuple(path_array(at, Floors(finder.grid())), cost);
}

py::tuple PyPathfinder::reach(const py::handle& start, double budget) {
  return run_reach(finder_, start, budget);
}

/// Runs `change` on the grid alone: batches and fields being built on other Python threads
/// finish first. Finders and fields built on the grid repair themselves on their next use.
template <class Change>
auto change_alone(GridHandle& g, Change&& change) {
  // Wait for the lock without the GIL (a batch's thread takes the GIL to check for Ctrl-C),
  // then change with both: find() on another Python thread runs under the GIL alone.
  py::gil_scoped_release release;
  const std::unique_lock<std::shared_mutex> alone(*g.edit_lock);
  py::gil_scoped_acquire again;
  return change(*g.grid);
}

/// Applies an edit to the grid (the CLI's --edit text, or a built Edit), alone (change_alone).
void apply_edit(GridHandle& g, const grid::Edit& e, const std::string& what) {
  if (auto bad = g.grid->check(e)) fail(what + ": " + *bad);
  const std::optional<std::string> bad =
      change_alone(g, [&](grid::Grid& grid) { return grid.apply(e); });
  if (bad) fail(what + ": " + *bad);
}

/// The rectangle from (x, y) to (x2, y2) (corners in either order; one cell without x2, y2) on
/// floor `layer`, as grid cells: on a layered map both rows must lie in the floor, and the
/// columns in the map (the library's own check names rows of the stacked grid).
grid::Rect area_of(const grid::Grid& g, int x, int y, std::optional<int> x2, std::optional<int> y2,
                   std::optional<int> layer, const std::string& what) {
  const int x1 = x2.value_or(x), y1 = y2.value_or(y);
  const Cell a = grid_cell(g, x, y, layer, what), b = grid_cell(g, x1, y1, layer, what);
  if (Floors(g).layered()) {
    for (const int c : {x, x1}) {
      if (c < 0 || c >= g.width()) {
        fail(what + ": column " + std::to_string(c) + " is outside the map (" +
             std::to_string(g.width()) + " columns)");
      }
    }
  }
  return grid::Rect{std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y)};
}

/// A side of a cell: "n", "e", "s", "w" (or "north", "east", "south", "west") on square maps,
/// the direction "0" .. "5" of the edge on hex maps; as an int (a grid::Side or a direction).
int side_of(const grid::Grid& g, const std::string& s, const std::string& what) {
  const bool hex = grid::is_hex(g.layout());
  if (const std::optional<int> d = grid::parse_edge_side(s, hex)) return *d;
  fail(what + ": unknown side '" + s + "' " +
       (hex ? "(a hex map names an edge by its direction 0..5)" : "(n, e, s, w)"));
}

/// Parses an edit as Grid.edit() reads it: the CLI's --edit text (grid::parse_edit with the
/// map: KIND:[L:]X,Y[:X2,Y2], wall-S / open-S with S n, e, s, w or north, east, south, west, or
/// 0..5 on hex maps).
grid::Edit parse_edit_text(const grid::Grid& g, const std::string& text) {
  grid::Edit e;
  if (auto bad = grid::parse_edit(text, e, &g)) fail("edit '" + text + "': " + *bad);
  return e;
}

/// The Moving AI scenarios of a .scen file as arrays.
py::dict load_scenarios(const std::string& path) {
  const io::ScenarioFile f = io::load_scenarios(path);
  const auto n = static_cast<py::ssize_t>(f.entries.size());
  py::array_t<std::int32_t> starts({n, py::ssize_t{2}}), goals({n, py::ssize_t{2}});
  py::array_t<double> optimal(n);
  py::array_t<std::int32_t> bucket(n);
  auto s = starts.mutable_unchecked<2>();
  auto t = goals.mutable_unchecked<2>();
  auto o = optimal.mutable_unchecked<1>();
  auto b = bucket.mutable_unchecked<1>();
  for (py::ssize_t i = 0; i < n; ++i) {
    const io::ScenarioEntry& e = f.entries[static_cast<std::size_t>(i)];
    s(i, 0) = e.start.x;
    s(i, 1) = e.start.y;
    t(i, 0) = e.goal.x;
    t(i, 1) = e.goal.y;
    o(i) = e.optimal;
    b(i) = e.bucket;
  }
  py::dict d;
  d["map"] = f.entries.empty() ? std::string() : f.map_path();
  d["starts"] = starts;
  d["goals"] = goals;
  d["optimal"] = optimal;
  d["bucket"] = bucket;
  return d;
}

std::vector<search::Query> read_queries(const py::handle& starts, const py::handle& goals,
                                        const grid::Grid& g, const search::Options& o) {
  const Ints s = as_array<std::int64_t>(starts, "starts", "iu", "an integer array (n, 2)");
  const Ints t = as_array<std::int64_t>(goals, "goals", "iu", "an integer array (n, 2)");
  for (const auto* a : {&s, &t}) {
    if (a->ndim() != 2 || (a->shape(1) != 2 && a->shape(1) != 3)) {
      fail(std::string(a == &s ? "starts" : "goals") +
           " must have shape (n, 2) or (n, 3): one (x, y) or (x, y, layer) a row");
    }
  }
  if (auto bad = grid::validate(o.unit, g.layout())) fail(*bad);
  const Floors fl(g);
  if (s.shape(0) != t.shape(0)) {
    fail("starts has " + std::to_string(s.shape(0)) + " rows, goals " + std::to_string(t.shape(0)));
  }
  const auto n = s.shape(0);
  std::vector<search::Query> out(static_cast<std::size_t>(n));
  const auto sa = s.unchecked<2>(), ta = t.unchecked<2>();
  // The cells the unit may stand on are the free cells of its view of the grid: one bit test
  // a row; the reason is worked out only for a row that fails it.
  const std::shared_ptr<const grid::Grid> view = g.view(o.unit);
  for (py::ssize_t i = 0; i < n; ++i) {
    for (int k = 0; k < 2; ++k) {
      const auto& a = k == 0 ? sa : ta;
      const std::int64_t x = a(i, 0), y = a(i, 1);
      const std::int64_t l = a.shape(1) == 3 ? a(i, 2) : 0;
      const char* name = k == 0 ? "starts" : "goals";
      auto label = [&] { return std::string(name) + "[" + std::to_string(i) + "]"; };
      if (x < INT32_MIN || x > INT32_MAX || y < INT32_MIN || y > INT32_MAX || l < INT32_MIN ||
          l > INT32_MAX) {
        fail(label() + " is outside the map");
      }
      Cell c{static_cast<std::int32_t>(x), static_cast<std::int32_t>(y)};
      if (fl.layered() || a.shape(1) == 3) {
        c = grid_cell(g, c.x, c.y,
                      a.shape(1) == 3 ? std::optional<int>(static_cast<int>(l)) : std::nullopt,
                      label());
      }
      if (!view || !view->passable(c)) {
        if (auto bad = endpoint_problem(g, o, c, label)) fail(*bad);
        if (!g.in_bounds(c) || !view) fail(label() + " " + cell_text(fl, c) + " cannot be used");
      }
      (k == 0 ? out[static_cast<std::size_t>(i)].start : out[static_cast<std::size_t>(i)].goal) = c;
    }
  }
  return out;
}

/// Costs of many queries, nan where there is no path, on `threads` threads without the GIL;
/// Ctrl-C (KeyboardInterrupt) stops it between slices.
py::array_t<double> find_many(GridHandle& g, const py::handle& starts, const py::handle& goals,
                              int threads, const QueryArgs& args) {
  const search::Options o = make_options(args);
  if (threads < 0) fail("threads must be >= 0 (0: every core)");
  const std::vector<search::Query> queries = read_queries(starts, goals, *g.grid, o);
  py::array_t<double> costs(static_cast<py::ssize_t>(queries.size()));
  double* out = costs.mutable_data();
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    const std::shared_lock<std::shared_mutex> reading(*g.edit_lock);
    std::unique_lock<std::mutex> mine(*g.batch_busy, std::try_to_lock);
    std::unique_ptr<search::BatchFinder> own;
    if (mine.owns_lock()) {
      if (!g.batch || g.batch_threads != threads || !same_options(g.batch->options(), o)) {
        g.batch.reset();
        g.batch = std::make_unique<search::BatchFinder>(*g.grid, o, threads);
        g.batch_threads = threads;
      }
    } else {
      own = std::make_unique<search::BatchFinder>(*g.grid, o, threads);
    }
    search::BatchFinder& batch = own ? *own : *g.batch;
    std::vector<search::Result> own_results;
    std::vector<search::Result>& results = own ? own_results : g.batch_results;
    // Slices run on this thread and the pool's; between them the GIL is taken for a moment
    // to see whether Ctrl-C was pressed. A slice starts at two queries a thread and grows
    // (eightfold under 2 ms, twofold under 20 ms) up to 1,024 queries (each result keeps its
    // path between batches): Ctrl-C stops the batch within about 40 ms, or one query a thread
    // when a query takes longer.
    const std::size_t pool = static_cast<std::size_t>(std::max(1, batch.threads()));
    std::size_t slice = 2 * pool;
    constexpr std::size_t kMaxSlice = 1024;
    if (results.size() < std::min(kMaxSlice, queries.size())) {
      results.resize(std::min(kMaxSlice, queries.size()));
    }
    for (std::size_t b = 0; b < queries.size();) {
      const std::size_t e = std::min(queries.size(), b + slice);
      const auto t0 = std::chrono::steady_clock::now();
      batch.find(std::span(queries).subspan(b, e - b), std::span(results).first(e - b));
      for (std::size_t i = b; i < e; ++i) {
        const search::Result& r = results[i - b];
        out[i] = r.status == Status::found ? r.cost : std::nan("");
      }
      b = e;
      if (b < queries.size()) {
        const py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) {
          interrupted = true;
          break;
        }
      }
      const auto took = std::chrono::steady_clock::now() - t0;
      if (took < std::chrono::milliseconds(2)) {
        slice = std::min(kMaxSlice, slice * 8);  // quick queries: fewer slices, fewer threads
      } else if (took < std::chrono::milliseconds(20)) {
        slice = std::min(kMaxSlice, slice * 2);
      }
    }
  }
  if (interrupted) throw py::error_already_set();
  return costs;
}

struct PyFlowField {
  py::array_t<double> distance;
  py::array_t<std::int8_t> direction;
  py::list goals;
  double time_us = 0;
  std::shared_ptr<const grid::Grid> grid;    // the grid it was built on, and its revision then:
  std::uint64_t revision = 0;                // the arrays are a copy, stale after an edit
  std::shared_ptr<const flow::Field> field;  // reads no grid once built (next())
  Floors floors;

  /// The cell the first move from c leads to (flow::Field::next), or None.
  [[nodiscard]] py::object next(const py::handle& cell) const {
    const Cell c = to_cell(*grid, cell, "cell");
    if (!field->in_bounds(c)) {
      fail("cell " + cell_text(floors, c) + " is outside the " + std::to_string(field->width()) +
           "x" + std::to_string(floors.layered() ? floors.layer_height : field->height()) + " map");
    }
    const std::optional<Cell> n = field->next(c);
    if (!n) return py::none();
    return cell_tuple(floors, *n);
  }
};

PyFlowField flow_field(GridHandle& g, const py::sequence& goals, const std::string& diagonal,
                       double radius, const py::object& class_cost) {
  flow::Options o;
  const auto rule = grid::parse_diagonal_rule(diagonal);
  if (!rule) {
    fail("unknown diagonal rule '" + diagonal + "' (never, no-corner-cut, one-corner, always)");
  }
  o.moves.diagonal = *rule;
  o.unit = make_unit(radius, class_cost);
  std::vector<Cell> cells;
  search::Options so;
  so.unit = o.unit;
  for (std::size_t i = 0; i < py::len(goals); ++i) {
    const Cell c = to_cell(*g.grid, goals[i], "goal");
    if (auto bad = endpoint_problem(*g.grid, so, c, [] { return "goal"; })) fail(*bad);
    cells.push_back(c);
  }
  if (cells.empty()) fail("flow_field needs at least one goal");
  flow::Field f;
  std::optional<std::string> bad;
  {
    py::gil_scoped_release release;
    const std::shared_lock<std::shared_mutex> reading(*g.edit_lock);
    bad = f.build(*g.grid, cells, o);
  }
  if (bad) fail(*bad);
  PyFlowField out;
  out.floors = Floors(*g.grid);
  out.distance = cell_array<double>(*g.grid, [&](Cell c) { return f.distance(c); });
  out.direction = cell_array<std::int8_t>(*g.grid, [&](Cell c) { return f.direction(c); });
  for (const Cell c : f.goals()) out.goals.append(cell_tuple(out.floors, c));
  out.time_us = f.stats().time_us;
  out.grid = g.grid;
  out.revision = f.revision();
  out.field = std::make_shared<const flow::Field>(std::move(f));
  return out;
}

/// The layout named as the CLI's --layout names it.
grid::Layout layout_of(const std::string& name) {
  const auto l = grid::parse_layout(name);
  if (!l) {
    fail("unknown layout '" + name +
         "' (square, pointy-odd-r, pointy-even-r, flat-odd-q, flat-even-q)");
  }
  return *l;
}

GridHandle load_map(const std::string& path, const std::string& format, int threshold, int cell,
                    const std::optional<std::string>& layout) {
  io::MapOptions mo;
  const auto f = io::parse_map_format(format);
  if (!f) {
    fail("unknown map format '" + format +
         "' (auto, text, ascii, movingai, image, tmx, tmj, layered)");
  }
  mo.format = *f;
  if (layout) mo.layout = layout_of(*layout);
  if (threshold < 0 || threshold > 255) fail("threshold must be 0 to 255");
  if (cell < 1 || cell > 4096) fail("cell must be 1 to 4096");
  mo.threshold = threshold;
  mo.cell = cell;
  io::Map m = io::load_map(path, mo);
  GridHandle g;
  g.grid = std::make_shared<grid::Grid>(std::move(m.grid));
  g.start = m.start;
  g.goal = m.goal;
  return g;
}

py::array_t<bool> walls_of(const grid::Grid& g) {
  return cell_array<bool>(g, [&](Cell c) { return !g.passable(c); });
}

/// The simulation: agents among moving obstacles (a scenario file, or agents on a Grid).
class PyWorld {
 public:
  explicit PyWorld(agents::WorldSpec spec, std::string name = {})
      : world_(std::move(spec)), name_(std::move(name)) {}

  void step(int ticks) {
    if (ticks < 0) fail("ticks must be >= 0");
    py::gil_scoped_release release;
    for (int i = 0; i < ticks && !world_.finished(); ++i) world_.step();
  }
  void run() {
    py::gil_scoped_release release;
    world_.run();
  }
  [[nodiscard]] bool finished() const { return world_.finished(); }
  [[nodiscard]] double time() const { return world_.time(); }
  [[nodiscard]] std::uint64_t ticks() const { return world_.ticks(); }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] std::size_t size() const { return world_.agents().size(); }

  /// An (n, 2) float array of one vector of each agent.
  template <class Get>
  py::array_t<double> vectors(Get&& get) const {
    const auto& a = world_.agents();
    py::array_t<double> out({static_cast<py::ssize_t>(a.size()), py::ssize_t{2}});
    auto o = out.mutable_unchecked<2>();
    for (std::size_t i = 0; i < a.size(); ++i) {
      const agents::Vec2 v = get(a[i]);
      o(static_cast<py::ssize_t>(i), 0) = v.x;
      o(static_cast<py::ssize_t>(i), 1) = v.y;
    }
    return out;
  }
  template <class T, class Get>
  py::array_t<T> column(Get&& get) const {
    const auto& a = world_.agents();
    py::array_t<T> out(static_cast<py::ssize_t>(a.size()));
    auto o = out.template mutable_unchecked<1>();
    for (std::size_t i = 0; i < a.size(); ++i) o(static_cast<py::ssize_t>(i)) = get(a[i]);
    return out;
  }
  /// What every agent did so far, as arrays (the fields of `simulate --json`).
  py::dict metrics() const {
    using S = agents::AgentState;
    py::dict d;
    d["id"] = column<std::int32_t>([](const S& a) { return a.metrics.id; });
    d["arrived"] = column<bool>([](const S& a) { return a.metrics.arrived; });
    d["time"] = column<double>([](const S& a) { return a.metrics.time; });
    d["path_length"] = column<double>([](const S& a) { return a.metrics.path_length; });
    d["optimal_length"] = column<double>([](const S& a) { return a.metrics.optimal_length; });
    d["min_clearance"] = column<double>([](const S& a) { return a.metrics.min_clearance; });
    d["collisions"] = column<std::int32_t>([](const S& a) { return a.metrics.collisions; });
    d["collision_time"] = column<double>([](const S& a) { return a.metrics.collision_time; });
    d["stalls"] = column<std::int32_t>([](const S& a) { return a.metrics.stalls; });
    d["local_replans"] = column<std::int32_t>([](const S& a) { return a.metrics.local_replans; });
    d["global_replans"] = column<std::int32_t>([](const S& a) { return a.metrics.global_replans; });
    return d;
  }
  void set_goal(const py::handle& indices, const py::handle& goal) {
    const Ints idx = as_array<std::int64_t>(indices, "indices", "iu", "an integer array (k,)");
    std::vector<std::size_t> which;
    const auto v = idx.unchecked();
    if (idx.ndim() != 1) fail("indices must be a 1-D integer array");
    for (py::ssize_t i = 0; i < idx.shape(0); ++i) {
      if (v(i) < 0 || static_cast<std::size_t>(v(i)) >= size()) {
        fail("indices[" + std::to_string(i) + "] = " + std::to_string(v(i)) +
             " is not an agent (0.." + std::to_string(size()) + ")");
      }
      which.push_back(static_cast<std::size_t>(v(i)));
    }
    const auto seq = goal.cast<py::sequence>();
    if (py::len(seq) != 2) fail("goal must be a point (x, y)");
    try {
      world_.set_goal(which, agents::Vec2{seq[0].cast<double>(), seq[1].cast<double>()});
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
  }
  [[nodiscard]] const agents::World& world() const { return world_; }

 private:
  agents::World world_;
  std::string name_;
};

PyWorld world_from_file(const std::string& path, const std::optional<std::string>& planner) {
  agents::Scenario sc = agents::load_scenario(path);
  if (planner) {
    const auto p = agents::parse_planner(*planner);
    if (!p) fail("unknown planner '" + *planner + "' (hybrid, apf, replan, dstar, flow)");
    for (auto& a : sc.world.agents) a.planner = *p;
  }
  try {
    return PyWorld(std::move(sc.world), sc.name);
  } catch (const std::invalid_argument& e) {
    fail(path + ": " + e.what());
  }
}

/// A world of agents on a Grid: starts and goals (n, 2) in map units (cell centres at +0.5).
PyWorld world_from_grid(const GridHandle& g, const py::handle& starts, const py::handle& goals,
                        double radius, double max_speed, const std::string& planner, double dt,
                        double time_limit) {
  const Costs s = as_array<double>(starts, "starts", "fiu", "a float array (n, 2)");
  const Costs t = as_array<double>(goals, "goals", "fiu", "a float array (n, 2)");
  if (s.ndim() != 2 || s.shape(1) != 2 || t.ndim() != 2 || t.shape(1) != 2 ||
      s.shape(0) != t.shape(0)) {
    fail("starts and goals must be float arrays of the same shape (n, 2)");
  }
  const auto p = agents::parse_planner(planner);
  if (!p) fail("unknown planner '" + planner + "' (hybrid, apf, replan, dstar, flow)");
  if (!(dt > 0) || !(time_limit > 0)) fail("dt and time_limit must be > 0");
  agents::WorldSpec spec;
  spec.grid = *g.grid;
  spec.dt = dt;
  spec.time_limit = time_limit;
  const auto sa = s.unchecked<2>(), ta = t.unchecked<2>();
  for (py::ssize_t i = 0; i < s.shape(0); ++i) {
    agents::AgentSpec a;
    a.id = static_cast<int>(i);
    a.start = {sa(i, 0), sa(i, 1)};
    a.goal = {ta(i, 0), ta(i, 1)};
    a.radius = radius;
    a.max_speed = max_speed;
    a.planner = *p;
    spec.agents.push_back(std::move(a));
  }
  try {
    return PyWorld(std::move(spec));
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
}

// --- the Link game ---------------------------------------------------------------------------

link::Gravity gravity_of(const std::string& name) {
  const auto g = link::parse_gravity(name);
  if (!g) fail("unknown gravity '" + name + "' (none, down, up, left, right, centre)");
  return *g;
}

/// A tile of the board (x, y), checked: inside and not empty.
Cell tile_of(const link::Board& b, const py::handle& p, const char* name) {
  const Cell c = to_pair(p, name);
  if (!b.inside(c)) {
    fail(std::string(name) + " " + cell_text(c) + " is outside the " + std::to_string(b.width()) +
         "x" + std::to_string(b.height()) + " board");
  }
  if (b.is_empty(c)) fail(std::string(name) + " " + cell_text(c) + " is empty");
  return c;
}

py::array_t<std::int32_t> moves_array(const std::vector<link::Move>& moves) {
  const auto n = static_cast<py::ssize_t>(moves.size());
  py::array_t<std::int32_t> out({n, py::ssize_t{2}, py::ssize_t{2}});
  auto a = out.mutable_unchecked<3>();
  for (py::ssize_t i = 0; i < n; ++i) {
    const link::Move& m = moves[static_cast<std::size_t>(i)];
    a(i, 0, 0) = m.a.x;
    a(i, 0, 1) = m.a.y;
    a(i, 1, 0) = m.b.x;
    a(i, 1, 1) = m.b.y;
  }
  return out;
}

link::Board board_from_text(const std::string& text) {
  return link::parse_board(text, "<board>");
}

// --- the benchmark ----------------------------------------------------------------------------

/// Runs algorithms over Moving AI scenario files, every answer verified against the optimum
/// (the library's bench, as `pathlab bench`): a dict a row.
py::list run_bench(const std::vector<std::string>& scenarios,
                   const std::vector<std::string>& algorithms, int threads, std::size_t max_queries,
                   const std::string& diagonal, const std::optional<std::string>& smooth) {
  if (scenarios.empty()) fail("bench needs at least one .scen file");
  if (threads < 1) fail("threads must be >= 1");
  bench::BenchOptions o;
  o.algorithms.clear();
  for (const std::string& name : algorithms) {
    QueryArgs a{name, diagonal, std::nullopt, std::nullopt, 0.0, py::none(), false, 10'000'000};
    const search::Options so = make_options(a);
    o.algorithms.push_back(so.algorithm);
    o.search.moves = so.moves;
  }
  if (o.algorithms.empty()) fail("bench needs at least one algorithm");
  o.threads = threads;
  o.max_queries = max_queries;
  if (const auto m = smoothing_of(smooth)) {
    o.smooth = true;
    o.smoothing = *m;
  }
  std::vector<bench::LoadedScenario> loaded;
  for (const std::string& path : scenarios)
    loaded.push_back(bench::load_scenario(path, max_queries));
  bench::Report report;
  {
    py::gil_scoped_release release;
    report = bench::run(loaded, o);
  }
  py::list rows;
  for (const bench::Row& r : report.rows) {
    py::dict d;
    d["algorithm"] = r.algorithm;
    d["optimal"] = r.optimal;
    d["passed"] = r.passed();
    d["queries"] = r.queries;
    d["solved"] = r.solved;
    d["suboptimal"] = r.suboptimal;
    d["illegal"] = r.illegal;
    d["missed"] = r.missed;
    d["gave_up"] = r.gave_up;
    d["max_error"] = r.max_error;
    d["mean_us"] = r.mean_us;
    d["median_us"] = r.median_us;
    d["p99_us"] = r.p99_us;
    d["mean_expanded"] = r.mean_expanded;
    d["prep_s"] = r.prep_s;
    d["failures"] = r.failures;
    if (r.dynamic) {  // the competition's dynamic track (version-2 scenarios)
      d["patches"] = r.patches;
      d["patch_us"] = r.patch_us;
      d["total_s"] = r.total_s;
    }
    py::list maps;
    for (const bench::MapRow& m : r.maps) {
      py::dict x;
      x["map"] = m.map;
      x["queries"] = m.queries;
      x["solved"] = m.solved;
      x["suboptimal"] = m.suboptimal;
      x["mean_us"] = m.mean_us;
      x["median_us"] = m.median_us;
      x["p99_us"] = m.p99_us;
      x["mean_expanded"] = m.mean_expanded;
      x["prep_s"] = m.prep_s;
      if (m.dynamic) {
        x["patches"] = m.patches;
        x["patch_us"] = m.patch_us;
        x["total_s"] = m.total_s;
        x["late_us"] = m.late_us;
      }
      maps.append(x);
    }
    d["maps"] = maps;
    rows.append(d);
  }
  return rows;
}

}  // namespace
}  // namespace pathlab::python

PYBIND11_MODULE(_pathlab, m) {
  using namespace pathlab::python;
  using pathlab::Cell;
  namespace search = pathlab::search;
  namespace grid = pathlab::grid;
  m.doc() = "pathlab: verified, competition-speed grid pathfinding (the C++ library's module)";

  static py::exception<pathlab::ParseError> parse_error(m, "ParseError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const pathlab::ParseError& e) {
      PyErr_SetString(parse_error.ptr(), e.what());
    }
  });

  py::class_<GridHandle>(m, "Grid", R"(A grid map: walls, optional terrain costs and classes.

Grid(walls, costs=None, classes=None, layout="square")
  walls:   bool array (height, width), True = wall; or (layers, height, width) for a layered
           map (one floor a slice)
  costs:   float array of the same shape, the cost multiplier of entering each cell: >= 1,
           inf for a wall
  classes: uint8 array of the same shape of class characters (ord('.') ground, ord('@') wall,
           ord('T') trees, ord('W') water, ...): units may be forbidden or charged per class
  layout:  "square", or a hex layout: "pointy-odd-r", "pointy-even-r", "flat-odd-q",
           "flat-even-q" (cells keep their (x, y); the layout says which rows or columns are
           shifted by half a hex)
Grid.layered(width, height, layers) is an empty layered map. Coordinates are (x, y), on a
layered map (x, y, layer) with y the row within the floor ((x, y) alone is floor 0); arrays
are indexed [y, x], on a layered map [layer, y, x].)")
      .def(py::init([](const py::handle& walls, const py::handle& costs, const py::handle& classes,
                       const std::string& layout) {
             GridHandle g;
             g.grid = make_grid(walls, costs, classes, layout_of(layout));
             return g;
           }),
           py::arg("walls"), py::kw_only(), py::arg("costs") = py::none(),
           py::arg("classes") = py::none(), py::arg("layout") = "square")
      .def_static(
          "layered",
          [](int width, int height, int layers, const std::string& layout) {
            if (width < 1 || height < 1 || layers < 1) {
              fail("Grid.layered(" + std::to_string(width) + ", " + std::to_string(height) + ", " +
                   std::to_string(layers) + "): width, height and layers must be >= 1");
            }
            const grid::Layout l = layout_of(layout);
            GridHandle g;
            try {
              g.grid = std::make_shared<grid::Grid>(grid::Grid::layered(width, height, layers));
            } catch (const std::length_error& e) {
              fail(std::string("Grid.layered: ") + e.what());
            }
            g.grid->set_layout(l);
            return g;
          },
          py::arg("width"), py::arg("height"), py::arg("layers"), py::kw_only(),
          py::arg("layout") = "square",
          "An all-free layered map: `layers` floors of width x height cells (join them with "
          "add_link).")
      .def_property_readonly("width", [](const GridHandle& g) { return g.grid->width(); })
      .def_property_readonly(
          "height",
          [](const GridHandle& g) {
            return g.grid->layers() > 1 ? g.grid->layer_height() : g.grid->height();
          },
          "rows (of each floor on a layered map)")
      .def_property_readonly(
          "layers", [](const GridHandle& g) { return g.grid->layers(); }, "floors, >= 1")
      .def_property_readonly(
          "layer_height", [](const GridHandle& g) { return g.grid->layer_height(); },
          "rows of each floor (height)")
      .def_property(
          "layout", [](const GridHandle& g) { return std::string(to_string(g.grid->layout())); },
          [](GridHandle& g, const std::string& name) {
            const grid::Layout l = layout_of(name);
            if (grid::is_hex(l) != grid::is_hex(g.grid->layout()) &&
                g.grid->edge_wall_count() > 0) {
              fail("layout '" + name + "': the map has " +
                   std::to_string(g.grid->edge_wall_count()) +
                   " walls on cell edges, and a square layout's sides are not a hex's (take them "
                   "down first)");
            }
            const std::optional<std::string> bad =
                change_alone(g, [&](grid::Grid& grid) -> std::optional<std::string> {
                  try {
                    grid.set_layout(l);
                  } catch (const std::invalid_argument& e) {
                    return std::string(e.what());
                  }
                  return std::nullopt;
                });
            if (bad) fail("layout '" + name + "': " + *bad);
          },
          "\"square\" or a hex layout (\"pointy-odd-r\", \"pointy-even-r\", \"flat-odd-q\", "
          "\"flat-even-q\"); setting it reads the same cells in another layout")
      .def_property_readonly(
          "start",
          [](const GridHandle& g) -> py::object {
            return g.start ? py::object(cell_tuple(Floors(*g.grid), *g.start))
                           : py::object(py::none());
          },
          "The start marker of the map file, (x, y) ((x, y, layer) on a layered map), or None")
      .def_property_readonly(
          "goal",
          [](const GridHandle& g) -> py::object {
            return g.goal ? py::object(cell_tuple(Floors(*g.grid), *g.goal))
                          : py::object(py::none());
          },
          "The goal marker of the map file, (x, y) ((x, y, layer) on a layered map), or None")
      .def(
          "walls", [](const GridHandle& g) { return walls_of(*g.grid); },
          "The walls as a bool array (height, width) ((layers, height, width) on a layered "
          "map), True = wall.")
      .def(
          "costs",
          [](const GridHandle& g) {
            const grid::Grid& gr = *g.grid;
            return cell_array<double>(gr, [&](Cell c) {
              return gr.passable(c) ? static_cast<double>(gr.terrain(c.x, c.y))
                                    : std::numeric_limits<double>::infinity();
            });
          },
          "The terrain costs as a float array (height, width) ((layers, height, width) on a "
          "layered map), inf on walls.")
      .def(
          "classes",
          [](const GridHandle& g) {
            const grid::Grid& gr = *g.grid;
            return cell_array<std::uint8_t>(
                gr, [&](Cell c) { return static_cast<std::uint8_t>(gr.cell_class(c.x, c.y)); });
          },
          "The class characters as a uint8 array (height, width) ((layers, height, width) on a "
          "layered map): ord('.') ground, ord('@') wall.")
      .def(
          "edit",
          [](GridHandle& g, const std::string& text) {
            apply_edit(g, parse_edit_text(*g.grid, text), "edit '" + text + "'");
          },
          py::arg("text"),
          R"(Edits the map as the CLI's --edit reads it: "KIND:X,Y[:X2,Y2]" with KIND wall, free,
class=C or terrain=V (a rectangle's corners in either order), or wall-S / open-S to put up /
take down the wall on side S (n, e, s, w) of each cell; on a layered map
"KIND:L:X,Y[:X2,Y2]" edits floor L (floor 0 without it). Finders, batches and the grid's caches
repair themselves on their next use.)")
      .def(
          "set_walls",
          [](GridHandle& g, int x, int y, std::optional<int> x2, std::optional<int> y2,
             bool blocked, std::optional<int> layer) {
            grid::Edit e;
            e.kind = blocked ? grid::Edit::Kind::wall : grid::Edit::Kind::free;
            e.area = area_of(*g.grid, x, y, x2, y2, layer, "set_walls");
            apply_edit(g, e, "set_walls");
          },
          py::arg("x"), py::arg("y"), py::arg("x2") = py::none(), py::arg("y2") = py::none(),
          py::kw_only(), py::arg("blocked") = true, py::arg("layer") = py::none(),
          "Makes the cell (x, y), or the rectangle to (x2, y2), walls (blocked=False: free); "
          "layer: the floor of a layered map (0 unless given).")
      .def(
          "set_terrain",
          [](GridHandle& g, int x, int y, double cost, std::optional<int> x2, std::optional<int> y2,
             std::optional<int> layer) {
            if (!(cost >= 1) || !std::isfinite(cost) || cost > 3.0e38) {
              fail("set_terrain: a cost is a finite number >= 1");
            }
            grid::Edit e;
            e.kind = grid::Edit::Kind::terrain;
            e.area = area_of(*g.grid, x, y, x2, y2, layer, "set_terrain");
            e.cost = static_cast<float>(cost);
            apply_edit(g, e, "set_terrain");
          },
          py::arg("x"), py::arg("y"), py::arg("cost"), py::arg("x2") = py::none(),
          py::arg("y2") = py::none(), py::kw_only(), py::arg("layer") = py::none(),
          "Sets the terrain cost (>= 1) of the cell (x, y), or of the rectangle to (x2, y2).")
      .def(
          "set_class",
          [](GridHandle& g, int x, int y, const std::string& cls, std::optional<int> x2,
             std::optional<int> y2, std::optional<int> layer) {
            if (cls.size() != 1 || !grid::valid_class(grid::canonical_class(cls[0]))) {
              fail("set_class: a class is one printable character other than space");
            }
            grid::Edit e;
            e.kind = grid::Edit::Kind::set_class;
            e.area = area_of(*g.grid, x, y, x2, y2, layer, "set_class");
            e.cls = cls[0];
            apply_edit(g, e, "set_class");
          },
          py::arg("x"), py::arg("y"), py::arg("cls"), py::arg("x2") = py::none(),
          py::arg("y2") = py::none(), py::kw_only(), py::arg("layer") = py::none(),
          "Sets the class ('.', '@', 'T', 'W', ...) of the cell (x, y), or of the rectangle.")
      .def(
          "set_edge_wall",
          [](GridHandle& g, int x, int y, const std::string& side, bool blocked,
             std::optional<int> x2, std::optional<int> y2, std::optional<int> layer) {
            grid::Edit e;
            e.kind = blocked ? grid::Edit::Kind::edge_wall : grid::Edit::Kind::edge_open;
            const int sd = side_of(*g.grid, side, "set_edge_wall");
            if (grid::is_hex(g.grid->layout())) {
              e.hex_side = static_cast<std::uint8_t>(sd);
            } else {
              e.side = static_cast<grid::Side>(sd);
            }
            e.area = area_of(*g.grid, x, y, x2, y2, layer, "set_edge_wall");
            apply_edit(g, e, "set_edge_wall");
          },
          py::arg("x"), py::arg("y"), py::arg("side"), py::arg("blocked") = true, py::kw_only(),
          py::arg("x2") = py::none(), py::arg("y2") = py::none(), py::arg("layer") = py::none(),
          R"(Puts up (blocked=False: takes down) a wall on side `side` ("n", "e", "s", "w") of the
cell (x, y), or of every cell of the rectangle to (x2, y2): the edge it shares with its neighbour
on that side, blocked both ways, both cells staying free. On hex maps `side` is the direction
"0" .. "5" of the edge (the hex flow field's codes).)")
      .def(
          "edge_wall",
          [](const GridHandle& g, int x, int y, const std::string& side, std::optional<int> layer) {
            const int s = side_of(*g.grid, side, "edge_wall");
            const Cell c = grid_cell(*g.grid, x, y, layer, "edge_wall");
            if (!g.grid->in_bounds(c)) {
              fail("edge_wall: " + cell_text(Floors(*g.grid), c) + " is outside the map");
            }
            if (grid::is_hex(g.grid->layout())) return g.grid->hex_edge_wall(c.x, c.y, s);
            return g.grid->edge_wall(c.x, c.y, static_cast<grid::Side>(s));
          },
          py::arg("x"), py::arg("y"), py::arg("side"), py::kw_only(), py::arg("layer") = py::none(),
          "Whether a wall stands on side `side` (\"n\", \"e\", \"s\", \"w\"; on hex maps the "
          "direction \"0\" .. \"5\") of the cell (x, y).")
      .def(
          "edge_walls",
          [](const GridHandle& g) {
            const grid::Grid& gr = *g.grid;
            const Floors f(gr);
            const bool hex = grid::is_hex(gr.layout());
            py::list out;
            for (const grid::EdgeWallAt& w : grid::edge_walls(gr)) {
              const std::string side =
                  hex ? std::to_string(w.side)
                      : std::string(grid::to_string(static_cast<grid::Side>(w.side)));
              const int x = w.cell.x, y = w.cell.y;
              if (f.layered()) {
                out.append(py::make_tuple(x, f.local_y(y), f.layer_of(y), side));
              } else {
                out.append(py::make_tuple(x, y, side));
              }
            }
            return out;
          },
          R"(The walls on cell edges, each edge once: [(x, y, side), ...] ((x, y, layer, side) on a
layered map); east and south sides name inner edges, "n" and "w" only a floor's first row and
column, as the CLI's JSON; on hex maps the side is the direction "0" .. "5" (grid::edge_walls).)")
      .def(
          "add_link",
          [](GridHandle& g, const py::handle& from, const py::handle& to, double cost,
             bool oneway) {
            grid::Link l;
            l.from = to_cell(*g.grid, from, "add_link: from");
            l.to = to_cell(*g.grid, to, "add_link: to");
            // The library checks the cost (finite, > 0); a double past float's range is inf.
            constexpr double kMax = std::numeric_limits<float>::max();
            l.cost = std::isnan(cost) || std::abs(cost) <= kMax
                         ? static_cast<float>(cost)
                         : std::copysign(std::numeric_limits<float>::infinity(),
                                         static_cast<float>(cost > 0 ? 1 : -1));
            l.oneway = oneway;
            const Floors f(*g.grid);
            for (const Cell c : {l.from, l.to}) {
              if (!g.grid->in_bounds(c)) {
                fail("add_link: link end " + cell_text(f, c) + " is outside the " +
                     std::to_string(g.grid->width()) + "x" +
                     std::to_string(f.layered() ? f.layer_height : g.grid->height()) + " map");
              }
            }
            const std::optional<std::string> bad =
                change_alone(g, [&](grid::Grid& grid) { return grid.add_link(l); });
            if (bad) fail("add_link: " + *bad);
          },
          py::arg("from_"), py::arg("to"), py::arg("cost") = 1.0, py::arg("oneway") = false,
          R"(Adds a link from cell `from_` to cell `to` (stairs, a ladder, a portal): a move of its
own cost (> 0, no terrain multiplier), both ways unless oneway. Cells are (x, y) or (x, y,
layer); a unit takes it when it can stand on both ends.)")
      .def_property_readonly(
          "links",
          [](const GridHandle& g) {
            const Floors f(*g.grid);
            py::list out;
            for (const grid::Link& l : g.grid->links()) {
              py::dict d;
              d["from"] = cell_tuple(f, l.from);
              d["to"] = cell_tuple(f, l.to);
              d["cost"] = static_cast<double>(l.cost);
              d["oneway"] = l.oneway;
              out.append(d);
            }
            return out;
          },
          "The links in the order they were added: [{'from', 'to', 'cost', 'oneway'}, ...]")
      .def(
          "remove_links",
          [](GridHandle& g, const py::handle& from, const py::handle& to) {
            const Cell a = to_cell(*g.grid, from, "remove_links: from");
            const Cell b = to_cell(*g.grid, to, "remove_links: to");
            return change_alone(g, [&](grid::Grid& grid) { return grid.remove_links(a, b); });
          },
          py::arg("from_"), py::arg("to"),
          "Removes every link from `from_` to `to` (either way for two-way links); returns how "
          "many.")
      .def(
          "clear_links",
          [](GridHandle& g) {
            change_alone(g, [](grid::Grid& grid) {
              grid.clear_links();
              return 0;
            });
          },
          "Removes every link.")
      .def("__repr__", [](const GridHandle& g) {
        const grid::Grid& gr = *g.grid;
        const Floors f(gr);
        std::int64_t walls = 0;
        if (f.layered()) {
          for (int y = 0; y < gr.height(); ++y) {
            if (!gr.map_cell(0, y)) continue;
            for (int x = 0; x < gr.width(); ++x) walls += gr.passable(x, y) ? 0 : 1;
          }
        } else {
          walls = gr.wall_count();
        }
        std::string s = "<pathlab.Grid " + std::to_string(gr.width()) + "x" +
                        std::to_string(f.layered() ? f.layer_height : gr.height());
        if (f.layered()) s += ", " + std::to_string(f.layers) + " floors";
        if (gr.layout() != grid::Layout::square) s += ", " + std::string(to_string(gr.layout()));
        s += ", " + std::to_string(walls) + " walls";
        if (gr.edge_wall_count() > 0)
          s += ", " + std::to_string(gr.edge_wall_count()) + " edge walls";
        if (!gr.links().empty()) s += ", " + std::to_string(gr.links().size()) + " links";
        return s + ">";
      });

  py::class_<PyTrace>(m, "Trace",
                      "A search's trace, one row an event in the order the search made them.")
      .def_readonly("event", &PyTrace::event, "uint8 (n,): an index into Trace.names")
      .def_readonly("side", &PyTrace::side, "uint8 (n,): 0 the forward search, 1 the backward")
      .def_readonly("cell", &PyTrace::cell,
                    "int32 (n, 2): the cell (x, y); (n, 3) of (x, y, layer) on a layered map")
      .def_readonly("other", &PyTrace::other,
                    "int32 (n, 2) (n, 3 on a layered map): the parent (opened, updated) or the "
                    "second cell (meet, line_of_sight)")
      .def_readonly("g", &PyTrace::g, "float64 (n,): the cost so far (iteration: the bound)")
      .def_readonly("f", &PyTrace::f, "float64 (n,): the priority")
      .def_property_readonly_static(
          "names",
          [](const py::object&) {
            std::vector<std::string> names;
            for (int k = 0; k <= static_cast<int>(search::EventType::line_of_sight); ++k) {
              names.emplace_back(search::to_string(static_cast<search::EventType>(k)));
            }
            return names;
          },
          "The event names, in the order of their codes")
      .def(
          "expanded",
          [](const PyTrace& t) {
            // The order each cell was expanded in (its first close), -1 where it never was.
            py::array_t<std::int32_t> out =
                t.layers > 1 ? py::array_t<std::int32_t>({t.layers, t.height, t.width})
                             : py::array_t<std::int32_t>({t.height, t.width});
            std::int32_t* a = out.mutable_data();
            std::fill(a, a + out.size(), -1);
            const auto ev = t.event.unchecked<1>();
            const auto c = t.cell.unchecked<2>();
            std::int32_t k = 0;
            for (py::ssize_t i = 0; i < ev.shape(0); ++i) {
              if (ev(i) != static_cast<std::uint8_t>(search::EventType::closed)) continue;
              const int x = c(i, 0), y = c(i, 1), l = t.layers > 1 ? c(i, 2) : 0;
              if (x < 0 || y < 0 || l < 0 || x >= t.width || y >= t.height || l >= t.layers) {
                continue;
              }
              std::int32_t& at =
                  a[(static_cast<std::size_t>(l) * static_cast<std::size_t>(t.height) +
                     static_cast<std::size_t>(y)) *
                        static_cast<std::size_t>(t.width) +
                    static_cast<std::size_t>(x)];
              if (at < 0) at = k++;
            }
            return out;
          },
          "int32 (height, width) ((layers, height, width) on a layered map): the order in which "
          "each cell was expanded, -1 if never")
      .def("__len__", [](const PyTrace& t) { return t.event.shape(0); });

  py::class_<PyResult>(m, "Result", "The answer to one query.")
      .def_readonly("status", &PyResult::status, "'found', 'no_path' or 'node_limit'")
      .def_readonly("cost", &PyResult::cost, "the path's cost (nan unless found)")
      .def_readonly("expanded", &PyResult::expanded, "nodes expanded")
      .def_readonly("generated", &PyResult::generated, "nodes put on the open list")
      .def_readonly("time_us", &PyResult::time_us, "the query's wall time in microseconds")
      .def_readonly("path", &PyResult::path,
                    "int32 array (n, 2), one (x, y) a row, start to goal (empty unless found); "
                    "(n, 3) of (x, y, layer) on a layered map")
      .def_property_readonly(
          "points", [](const PyResult& r) { return points_array(r.points, r.floors); },
          "float array (n, 2): the path's points in map units (any-angle vertices, or the "
          "centres of the path's cells); (n, 3) of (x, y, layer) on a layered map")
      .def_readonly("note", &PyResult::note,
                    "how the query was answered, in words, when another algorithm answered "
                    "(see fallback; the wording may change)")
      .def_readonly("answered_by", &PyResult::answered_by,
                    "the algorithm that answered: the one asked for, or the one it fell back to")
      .def_readonly("fallback", &PyResult::fallback,
                    "why answered_by is not the algorithm asked for: 'none', 'terrain-costs', "
                    "'diagonal-rule', 'cost-model', 'map-too-large', 'map-kind' (a hex layout, "
                    "walls on cell edges, floors or links: JPS, JPS+ and the subgoal methods "
                    "answer with astar, the any-angle searches with astar or theta) or "
                    "'rebuilding' (subgoal methods after an edit: jps+ answers until their "
                    "rebuild is in, jps on maps of over 2^21 cells)")
      .def_readonly("partial", &PyResult::partial,
                    "with partial=True and no path: {'reached': (x, y) ((x, y, layer) on a "
                    "layered map), 'cost', 'path'}")
      .def_readonly("trace", &PyResult::trace, "with trace=True: the search's Trace")
      .def_readonly("smoothed", &PyResult::smoothed,
                    "with smooth=: {'path': waypoints int32 (k, 2), 'points', 'cost', "
                    "'los_checks'}")
      .def("__repr__", [](const PyResult& r) {
        return "<pathlab.Result " + r.status +
               " cost=" + py::repr(py::float_(r.cost)).cast<std::string>() +
               " moves=" + std::to_string(std::max<py::ssize_t>(0, r.path.shape(0) - 1)) + ">";
      });

  auto query_args = [](const std::string& algorithm, const std::string& diagonal,
                       std::optional<std::string> heuristic, std::optional<double> weight,
                       double radius, py::object class_cost, bool partial,
                       std::uint64_t node_limit) {
    return QueryArgs{algorithm, diagonal,  std::move(heuristic),
                     weight,    radius,    std::move(class_cost),
                     partial,   node_limit};
  };

  m.def(
      "find",
      [query_args](GridHandle& g, const py::handle& start, const py::handle& goal,
                   const std::string& algorithm, const std::string& diagonal,
                   std::optional<std::string> heuristic, std::optional<double> weight,
                   double radius, py::object class_cost, bool partial, std::uint64_t node_limit,
                   bool trace, const std::optional<std::string>& smooth) {
        return find(g, start, goal,
                    query_args(algorithm, diagonal, std::move(heuristic), weight, radius,
                               std::move(class_cost), partial, node_limit),
                    trace, smooth);
      },
      py::arg("grid"), py::arg("start"), py::arg("goal"), py::kw_only(),
      py::arg("algorithm") = "astar", py::arg("diagonal") = "no-corner-cut",
      py::arg("heuristic") = py::none(), py::arg("weight") = py::none(), py::arg("radius") = 0.0,
      py::arg("class_cost") = py::none(), py::arg("partial") = false,
      py::arg("node_limit") = 10'000'000, py::arg("trace") = false, py::arg("smooth") = py::none(),
      R"(Finds a path from start to goal, both (x, y) ((x, y, layer) on a layered map).

algorithm: a name of pathlab.algorithms() ("astar", "jps", "subgoal-ch", ...)
diagonal:  "never", "no-corner-cut" (Moving AI), "one-corner" or "always"
heuristic: "manhattan", "octile", "euclidean", "chebyshev" or "zero" (default: the moves')
weight:    f = g + weight * h (default 1; 2 for wastar)
radius, class_cost: the unit ({"T": 2.0, "W": None}: None forbids the class)
partial:   with no path, also the path to the reached cell closest to the goal
trace:     also record the search (Result.trace: arrays of what it opened and expanded)
smooth:    "greedy" or "refined": also the path pruned to waypoints that see each other
           (Result.smoothed: {"path", "points", "cost", "los_checks"}), as the CLI's --smooth
Returns a Result; the finder for these options is kept with the grid and reused.)");

  m.def(
      "find_points",
      [query_args](GridHandle& g, const py::handle& start, const py::handle& goal,
                   const std::string& algorithm, const std::string& diagonal, double radius,
                   py::object class_cost, std::uint64_t node_limit, bool trace) {
        return run_find_points(
            finder_for(g, query_args(algorithm, diagonal, std::nullopt, std::nullopt, radius,
                                     std::move(class_cost), false, node_limit)),
            g.scratch, start, goal, trace);
      },
      py::arg("grid"), py::arg("start"), py::arg("goal"), py::kw_only(),
      py::arg("algorithm") = "anyangle-exact", py::arg("diagonal") = "no-corner-cut",
      py::arg("radius") = 0.0, py::arg("class_cost") = py::none(),
      py::arg("node_limit") = 10'000'000, py::arg("trace") = false,
      R"(The shortest any-angle path between two points of free space.

start, goal: (x, y), two numbers each, in map units: the centre of cell (x, y) is
           (x + 0.5, y + 0.5), its top-left corner (x, y). Each is held to 1/4096 of a cell.
algorithm: "anyangle-exact" or "anyangle-labels" (the algorithms that take any point; the
           second answers from hub labels it prepares first); another algorithm takes
           only cell centres, and answers as find() between those cells
Result.points: float64 (n, 2), from start to goal (as held); Result.path: a free cell under
each point; Result.cost: the length of the polyline. Plain square maps only (no hex layout,
edge walls, floors or links). ValueError for a point outside the map, inside a wall or on an
edge between two walls, and for an off-centre point with an algorithm that cannot take it.)");

  m.def(
      "find_corners",
      [query_args](GridHandle& g, const py::handle& start, const py::handle& goal,
                   const std::string& algorithm, const std::string& diagonal, double radius,
                   py::object class_cost, std::uint64_t node_limit, bool trace) {
        return run_find_corners(
            finder_for(g, query_args(algorithm, diagonal, std::nullopt, std::nullopt, radius,
                                     std::move(class_cost), false, node_limit)),
            g.scratch, start, goal, trace);
      },
      py::arg("grid"), py::arg("start"), py::arg("goal"), py::kw_only(),
      py::arg("algorithm") = "anyangle-exact", py::arg("diagonal") = "no-corner-cut",
      py::arg("radius") = 0.0, py::arg("class_cost") = py::none(),
      py::arg("node_limit") = 10'000'000, py::arg("trace") = false,
      R"(The any-angle competition's query (GPPC 2023): from the top-left corner of free cell
start to the top-left corner of free cell goal, (x, y) integers each. Where two walls touch at
such a corner, the path leaves (and arrives) through the named cell's quadrant only. Result as
for find_points(): points from (sx, sy) to (gx, gy). Plain square maps and "anyangle-exact"
only (ValueError otherwise).)");

  m.def(
      "reach",
      [query_args](GridHandle& g, const py::handle& start, double budget,
                   const std::string& diagonal, double radius, py::object class_cost,
                   std::uint64_t node_limit) {
        return run_reach(
            finder_for(g, query_args("dijkstra", diagonal, std::nullopt, std::nullopt, radius,
                                     std::move(class_cost), false, node_limit)),
            start, budget);
      },
      py::arg("grid"), py::arg("start"), py::arg("budget"), py::kw_only(),
      py::arg("diagonal") = "no-corner-cut", py::arg("radius") = 0.0,
      py::arg("class_cost") = py::none(), py::arg("node_limit") = 10'000'000,
      R"(Movement range: (cells, costs), every cell whose least cost from start is <= budget
(start included), row-major: cells int32 (n, 2) of (x, y) ((n, 3) of (x, y, layer) on a
layered map, floor by floor), costs float64 (n,).)");

  py::class_<PyPathfinder>(m, "Pathfinder",
                           "A finder with fixed options, reused across queries (warm).")
      .def(py::init([query_args](py::object grid, const std::string& algorithm,
                                 const std::string& diagonal, std::optional<std::string> heuristic,
                                 std::optional<double> weight, double radius, py::object class_cost,
                                 bool partial, std::uint64_t node_limit) {
             if (!py::isinstance<GridHandle>(grid)) fail("grid must be a pathlab.Grid");
             return std::make_unique<PyPathfinder>(
                 std::move(grid), query_args(algorithm, diagonal, std::move(heuristic), weight,
                                             radius, std::move(class_cost), partial, node_limit));
           }),
           py::arg("grid"), py::kw_only(), py::arg("algorithm") = "astar",
           py::arg("diagonal") = "no-corner-cut", py::arg("heuristic") = py::none(),
           py::arg("weight") = py::none(), py::arg("radius") = 0.0,
           py::arg("class_cost") = py::none(), py::arg("partial") = false,
           py::arg("node_limit") = 10'000'000)
      .def("find", &PyPathfinder::find, py::arg("start"), py::arg("goal"), py::kw_only(),
           py::arg("trace") = false, py::arg("smooth") = py::none(),
           "Finds a path from start to goal, both (x, y); returns a Result.")
      .def("find_points", &PyPathfinder::find_points, py::arg("start"), py::arg("goal"),
           py::kw_only(), py::arg("trace") = false,
           "The any-angle path between two points of free space, (x, y) floats in map units "
           "(the centre of cell (x, y) is (x + 0.5, y + 0.5)): as pathlab.find_points().")
      .def("find_corners", &PyPathfinder::find_corners, py::arg("start"), py::arg("goal"),
           py::kw_only(), py::arg("trace") = false,
           "The any-angle path from the top-left corner of free cell start to that of free "
           "cell goal: as pathlab.find_corners().")
      .def("reach", &PyPathfinder::reach, py::arg("start"), py::arg("budget"),
           "Movement range from start within budget: (cells int32 (n, 2), costs float64 (n,)).")
      .def_property_readonly("algorithm", &PyPathfinder::algorithm)
      .def_property_readonly(
          "preparation_state", &PyPathfinder::preparation_state,
          "where the finder's preprocessed data stands: 'none' (the algorithm keeps none, or "
          "falls back), 'missing' (the next find builds it), 'stale' (the grid was edited: the "
          "next find repairs it, or starts a rebuild on another thread), 'building' (subgoal "
          "methods: finds answer with jps+ or jps meanwhile) or 'ready'");

  m.def(
      "find_many",
      [query_args](GridHandle& g, const py::handle& starts, const py::handle& goals,
                   const std::string& algorithm, int threads, const std::string& diagonal,
                   std::optional<std::string> heuristic, std::optional<double> weight,
                   double radius, py::object class_cost, std::uint64_t node_limit) {
        return find_many(g, starts, goals, threads,
                         query_args(algorithm, diagonal, std::move(heuristic), weight, radius,
                                    std::move(class_cost), false, node_limit));
      },
      py::arg("grid"), py::arg("starts"), py::arg("goals"), py::kw_only(),
      py::arg("algorithm") = "jps", py::arg("threads") = 0, py::arg("diagonal") = "no-corner-cut",
      py::arg("heuristic") = py::none(), py::arg("weight") = py::none(), py::arg("radius") = 0.0,
      py::arg("class_cost") = py::none(), py::arg("node_limit") = 10'000'000,
      R"(The costs of many queries: float64 array (n,), nan where there is no path.

starts, goals: integer arrays (n, 2), one (x, y) a row. Runs without the GIL on `threads`
threads (0: every core); Ctrl-C stops it (KeyboardInterrupt). Options as for find().)");

  py::class_<PyFlowField>(m, "FlowField", "A flow field: every cell's way to the nearest goal.")
      .def_readonly("distance", &PyFlowField::distance,
                    "float64 (height, width) ((layers, height, width) on a layered map): least "
                    "cost to the nearest goal, inf if none")
      .def_readonly("direction", &PyFlowField::direction,
                    "int8 (height, width) ((layers, height, width) on a layered map): the first "
                    "move, -1 where none. Square maps: 0 E, 1 SE, 2 S, 3 SW, 4 W, 5 NW, 6 N, "
                    "7 NE, 8 take the link; hex maps: 0..5 the axial neighbours (+1, 0), "
                    "(+1, -1), (0, -1), (-1, 0), (-1, +1), (0, +1), 6 take the link (next() "
                    "gives the cell on every map kind)")
      .def_readonly("goals", &PyFlowField::goals, "the goals, as cells")
      .def("next", &PyFlowField::next, py::arg("cell"),
           "The cell the first move from `cell` leads to (a neighbour, a hex neighbour or a "
           "link's far end), or None at a goal and where no goal is reachable.")
      .def_readonly("time_us", &PyFlowField::time_us)
      .def_property_readonly(
          "stale", [](const PyFlowField& f) { return f.grid && f.grid->revision() != f.revision; },
          "True once the grid was edited after the field was made: its arrays are a copy of the "
          "field for the map as it was then (make a new one with flow_field)");

  m.def("flow_field", &flow_field, py::arg("grid"), py::arg("goals"), py::kw_only(),
        py::arg("diagonal") = "no-corner-cut", py::arg("radius") = 0.0,
        py::arg("class_cost") = py::none(),
        "The flow field of goals [(x, y), ...] on the grid, for the unit (radius, class_cost).");

  m.def("load_map", &load_map, py::arg("path"), py::kw_only(), py::arg("format") = "auto",
        py::arg("threshold") = 128, py::arg("cell") = 1, py::arg("layout") = py::none(),
        R"(Reads a map file in any format the CLI reads: the users' text format, ASCII, Moving AI
.map, images (threshold: luminance below it is a wall; cell: N x N pixels a cell), Tiled maps
(.tmx, .tmj: hex maps, walls on cell edges, floors and links) and layered maps in JSON (floors
in other map files, links between them). layout: read the cells as hexes ("pointy-odd-r",
"pointy-even-r", "flat-odd-q", "flat-even-q") or squares ("square"), as the CLI's --layout;
None keeps the file's. A malformed file raises pathlab.ParseError "FILE:LINE: what is wrong".)");

  py::class_<PyWorld>(m, "World", R"(The simulation: agents among moving obstacles.

World(path, planner=None) reads a scenario file (scenarios/*.json; planner overrides every
agent's: hybrid, apf, replan, dstar or flow). World.on_grid(grid, starts, goals, ...) puts agents
on a Grid. step(n) and run() advance it without the GIL; positions, velocities, arrived and
metrics() read it as arrays.)")
      .def(py::init(&world_from_file), py::arg("path"), py::kw_only(),
           py::arg("planner") = py::none())
      .def_static("on_grid", &world_from_grid, py::arg("grid"), py::arg("starts"), py::arg("goals"),
                  py::kw_only(), py::arg("radius") = 0.3, py::arg("max_speed") = 2.0,
                  py::arg("planner") = "hybrid", py::arg("dt") = 0.05, py::arg("time_limit") = 60.0,
                  "Agents on a grid: starts and goals float arrays (n, 2) in map units (a "
                  "cell's centre is x + 0.5, y + 0.5); radius in cells, max_speed in cells/s.")
      .def("step", &PyWorld::step, py::arg("ticks") = 1,
           "Advances the simulation by ticks time steps (fewer once it has finished).")
      .def("run", &PyWorld::run, "Runs until every agent arrived or the time limit.")
      .def_property_readonly("finished", &PyWorld::finished)
      .def_property_readonly("time", &PyWorld::time, "seconds simulated")
      .def_property_readonly("ticks", &PyWorld::ticks)
      .def_property_readonly("name", &PyWorld::name)
      .def_property_readonly(
          "positions",
          [](const PyWorld& w) {
            return w.vectors([](const pathlab::agents::AgentState& a) { return a.position; });
          },
          "float64 (n, 2): each agent's position in map units")
      .def_property_readonly(
          "velocities",
          [](const PyWorld& w) {
            return w.vectors([](const pathlab::agents::AgentState& a) { return a.velocity; });
          },
          "float64 (n, 2): cells/s")
      .def_property_readonly(
          "arrived",
          [](const PyWorld& w) {
            return w.column<bool>([](const pathlab::agents::AgentState& a) { return a.arrived; });
          },
          "bool (n,)")
      .def("metrics", &PyWorld::metrics,
           "What each agent did, arrays keyed as `pathlab simulate --json` names them.")
      .def("set_goal", &PyWorld::set_goal, py::arg("indices"), py::arg("goal"),
           "Sends the flow agents among indices that have not arrived to a new goal (x, y).")
      .def(
          "tick_us", [](const PyWorld& w) { return w.world().tick_us(); },
          "The wall time of each tick so far, in microseconds.")
      .def("__len__", &PyWorld::size);

  py::class_<pathlab::link::Board>(m, "LinkBoard",
                                   R"(A Link game board (连连看 / Onet): tiles of kinds
(printable characters), '.' empty. Two tiles of one kind connect by a line of at most two turns
through empty cells and the ring around the board.

LinkBoard(text) parses the text format (a row a line); LinkBoard.load(path) reads a file;
LinkBoard.generate(width, height, kinds, seed) deals a solvable board.)")
      .def(py::init(&board_from_text), py::arg("text"))
      .def_static("load", &pathlab::link::load_board, py::arg("path"))
      .def_static(
          "generate",
          [](int width, int height, int kinds, std::uint64_t seed) {
            try {
              return pathlab::link::generate(width, height, kinds, seed);
            } catch (const std::invalid_argument& e) {
              fail(std::string("generate: ") + e.what());
            }
          },
          py::arg("width"), py::arg("height"), py::kw_only(), py::arg("kinds"), py::arg("seed") = 1)
      .def_property_readonly("width", &pathlab::link::Board::width)
      .def_property_readonly("height", &pathlab::link::Board::height)
      .def_property_readonly("tiles", &pathlab::link::Board::tiles, "tiles left")
      .def(
          "cells",
          [](const pathlab::link::Board& b) {
            py::array_t<std::uint8_t> out({b.height(), b.width()});
            auto a = out.mutable_unchecked<2>();
            for (int y = 0; y < b.height(); ++y) {
              for (int x = 0; x < b.width(); ++x) a(y, x) = static_cast<std::uint8_t>(b.at({x, y}));
            }
            return out;
          },
          "uint8 (height, width): each cell's kind character, ord('.') where empty")
      .def(
          "connect",
          [](const pathlab::link::Board& b, const py::handle& a,
             const py::handle& c) -> py::object {
            const pathlab::Cell p = tile_of(b, a, "a"), q = tile_of(b, c, "b");
            const pathlab::link::Connection line = pathlab::link::connect(b, p, q);
            if (!line) return py::none();
            return path_array(line.points);
          },
          py::arg("a"), py::arg("b"),
          "The line joining tiles a and b (its corners, int32 (k, 2), the ring at -1 and "
          "width/height; fewest turns, then shortest), or None")
      .def(
          "hint",
          [](const pathlab::link::Board& b) -> py::object {
            const auto m = pathlab::link::hint(b);
            if (!m) return py::none();
            return py::make_tuple(py::make_tuple(m->a.x, m->a.y), py::make_tuple(m->b.x, m->b.y));
          },
          "A connectable pair ((x, y), (x, y)), or None")
      .def(
          "moves",
          [](const pathlab::link::Board& b) { return moves_array(pathlab::link::moves(b)); },
          "Every connectable pair: int32 (m, 2, 2), [i, 0] one tile and [i, 1] the other")
      .def_property_readonly("deadlocked", &pathlab::link::deadlocked,
                             "tiles are left and no pair connects")
      .def(
          "play",
          [](pathlab::link::Board& b, const py::handle& a, const py::handle& c,
             const std::string& gravity) {
            const pathlab::Cell p = tile_of(b, a, "a"), q = tile_of(b, c, "b");
            const pathlab::link::Move m = p.y < q.y || (p.y == q.y && p.x < q.x)
                                              ? pathlab::link::Move{p, q}
                                              : pathlab::link::Move{q, p};
            return pathlab::link::play(b, m, gravity_of(gravity));
          },
          py::arg("a"), py::arg("b"), py::kw_only(), py::arg("gravity") = "none",
          "Removes tiles a and b when they connect (then the tiles slide by gravity); "
          "returns whether they did")
      .def(
          "shuffle",
          [](pathlab::link::Board& b, std::uint64_t seed) {
            return pathlab::link::shuffle(b, seed);
          },
          py::arg("seed") = 1,
          "Rearranges the tiles (same counts) until a move exists; False when none can")
      .def(
          "solve",
          [](const pathlab::link::Board& b, const std::string& gravity, std::uint64_t node_limit) {
            pathlab::link::SolveOptions o;
            o.gravity = gravity_of(gravity);
            if (node_limit < 1) fail("node_limit must be >= 1");
            o.node_limit = node_limit;
            pathlab::link::SolveResult r;
            {
              py::gil_scoped_release release;
              r = pathlab::link::solve(b, o);
            }
            using St = pathlab::link::SolveResult::Status;
            py::dict d;
            d["status"] = r.status == St::solved       ? "solved"
                          : r.status == St::unsolvable ? "unsolvable"
                                                       : "node_limit";
            d["moves"] = moves_array(r.moves);
            d["nodes"] = r.nodes;
            return d;
          },
          py::kw_only(), py::arg("gravity") = "none", py::arg("node_limit") = 20'000'000,
          "A sequence of removals that clears the board: {'status': 'solved', 'unsolvable' or "
          "'node_limit', 'moves': int32 (m, 2, 2), 'nodes'} (runs without the GIL)")
      .def("__str__", &pathlab::link::Board::to_text)
      .def("__repr__", [](const pathlab::link::Board& b) {
        return "<pathlab.LinkBoard " + std::to_string(b.width()) + "x" +
               std::to_string(b.height()) + ", " + std::to_string(b.tiles()) + " tiles>";
      });

  m.def("bench", &run_bench, py::arg("scenarios"), py::kw_only(),
        py::arg("algorithms") = std::vector<std::string>{"astar"}, py::arg("threads") = 1,
        py::arg("max_queries") = 0, py::arg("diagonal") = "no-corner-cut",
        py::arg("smooth") = py::none(),
        R"(Runs algorithms over Moving AI .scen files (each with its map beside it), every path
checked for legality and against the optimum, as `pathlab bench`: a list of dicts, one an
algorithm ("suboptimal", "illegal", "mean_us", "passed", "maps": per-map rows, ...).
max_queries: per file, spread over it (0: all). Runs without the GIL. A scenario of the
competition's dynamic track ("version 2", its patch file beside it) runs as the track defines
it, and its rows add "patches", "patch_us" and "total_s" (maps also "late_us").)");

  m.def("load_scenarios", &load_scenarios, py::arg("path"),
        R"(Reads a Moving AI .scen file: {"map": the map file beside it, "starts", "goals": int32
(n, 2), "optimal": float64 (n,), "bucket": int32 (n,)}. A malformed file raises ParseError.)");

  m.def(
      "algorithms",
      [] {
        std::vector<std::string> names;
        for (const auto& i : search::algorithms()) names.emplace_back(i.name);
        return names;
      },
      "The algorithm names, as `pathlab algorithms` lists them.");
}
