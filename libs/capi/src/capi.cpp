// The C ABI (pathlab/pathlab.h) over the library: each call checks its arguments, converts them,
// calls the C++ API and turns every failure (a status, a message, an exception) into a
// pathlab_status and this thread's message. No algorithm lives here.
#define PATHLAB_BUILDING_C_API
#include <pathlab/pathlab.h>

#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <pathlab/core/error.hpp>
#include <pathlab/flow/field.hpp>
#include <pathlab/grid/grid.hpp>
#include <pathlab/grid/unit.hpp>
#include <pathlab/io/map.hpp>
#include <pathlab/search/batch.hpp>
#include <pathlab/search/pathfinder.hpp>

struct pathlab_grid {
  pathlab::grid::Grid grid;
};

struct pathlab_finder {
  pathlab::search::Pathfinder finder;
  pathlab::search::Result result;
  std::vector<std::int32_t> path;
};

struct pathlab_field {
  pathlab::flow::Field field;
  std::vector<double> distance;
  std::vector<std::int8_t> direction;
};

namespace {

namespace grid = pathlab::grid;
namespace search = pathlab::search;

thread_local std::string last_error;

pathlab_status fail(pathlab_status s, std::string message) noexcept {
  try {
    last_error = std::move(message);
  } catch (...) {
    last_error.clear();  // no memory for the message: the status still says what happened
  }
  return s;
}

// Runs f, turning whatever it throws into a status and a message.
template <class F>
pathlab_status guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return fail(PATHLAB_OUT_OF_MEMORY, "out of memory");
  } catch (const pathlab::ParseError& e) {
    return fail(PATHLAB_PARSE_ERROR, e.what());
  } catch (const std::exception& e) {
    return fail(PATHLAB_INVALID, e.what());
  } catch (...) {
    return fail(PATHLAB_INVALID, "unknown error");
  }
}

pathlab_status null_argument(const char* call, const char* name) {
  return fail(PATHLAB_INVALID, std::string(call) + ": " + name + " is NULL");
}

std::string cell_text(pathlab::Cell c) {
  return std::to_string(c.x) + "," + std::to_string(c.y);
}

// The C++ options for C options (NULL: the defaults), or a message.
std::optional<std::string> to_options(const pathlab_options* in, search::Options& out) {
  out = {};
  if (in == nullptr) return std::nullopt;
  if (in->algorithm != nullptr) {
    const auto a = search::parse_algorithm(in->algorithm);
    if (!a)
      return "unknown algorithm '" + std::string(in->algorithm) + "' (see pathlab algorithms)";
    out.algorithm = *a;
  }
  if (in->diagonal != nullptr) {
    const auto d = grid::parse_diagonal_rule(in->diagonal);
    if (!d) {
      return "unknown diagonal rule '" + std::string(in->diagonal) +
             "' (never, no-corner-cut, one-corner or always)";
    }
    out.moves.diagonal = *d;
  }
  if (in->weight != 0) out.weight = in->weight;
  out.unit.radius = in->radius;
  if (in->class_costs != nullptr) {
    if (auto bad = grid::parse_class_costs(in->class_costs, out.unit)) {
      return "class costs '" + std::string(in->class_costs) + "': " + *bad;
    }
  }
  if (in->node_limit != 0) out.node_limit = in->node_limit;
  return search::validate(out);
}

// Why a unit may not stand on c, or nothing when it may.
std::optional<std::string> footing_problem(const grid::Grid& g, const grid::Unit& u,
                                           pathlab::Cell c, const char* what) {
  switch (grid::footing(g, u, c)) {
    case grid::Footing::ok:
      return std::nullopt;
    case grid::Footing::outside:
      return std::string(what) + " " + cell_text(c) + " is outside the " +
             std::to_string(g.width()) + "x" + std::to_string(g.height()) + " map";
    case grid::Footing::wall:
      return std::string(what) + " " + cell_text(c) + " is a wall";
    case grid::Footing::forbidden_class:
      return std::string(what) + " " + cell_text(c) + " is on '" +
             std::string(1, g.cell_class(c.x, c.y)) + "', a class the unit may not enter";
    case grid::Footing::too_close:
      return std::string(what) + " " + cell_text(c) +
             " is closer than the unit's radius to a square it cannot enter";
  }
  return std::nullopt;
}

pathlab_status to_status(pathlab::Status s) noexcept {
  switch (s) {
    case pathlab::Status::found:
      return PATHLAB_OK;
    case pathlab::Status::no_path:
      return PATHLAB_NO_PATH;
    case pathlab::Status::node_limit:
      return PATHLAB_NODE_LIMIT;
    case pathlab::Status::invalid_input:
      break;
  }
  return PATHLAB_INVALID;
}

}  // namespace

extern "C" {

int pathlab_abi_version(void) {
  return PATHLAB_ABI_VERSION;
}

const char* pathlab_last_error(void) {
  return last_error.c_str();
}

pathlab_status pathlab_grid_load(const char* path, pathlab_grid** out) {
  if (out == nullptr) return null_argument("pathlab_grid_load", "out");
  *out = nullptr;
  if (path == nullptr) return null_argument("pathlab_grid_load", "path");
  return guarded([&] {
    pathlab::io::Map map = pathlab::io::load_map(path);
    *out = new pathlab_grid{std::move(map.grid)};
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_grid_parse(const char* text, size_t len, const char* format,
                                  pathlab_grid** out) {
  if (out == nullptr) return null_argument("pathlab_grid_parse", "out");
  *out = nullptr;
  if (text == nullptr) return null_argument("pathlab_grid_parse", "text");
  pathlab::io::MapOptions options;
  if (format != nullptr) {
    const auto f = pathlab::io::parse_map_format(format);
    if (!f) {
      return fail(PATHLAB_INVALID, "unknown map format '" + std::string(format) +
                                       "' (auto, text, ascii, movingai or image)");
    }
    options.format = *f;
  }
  return guarded([&] {
    pathlab::io::Map map = pathlab::io::parse_map(std::string_view(text, len), "<text>", options);
    *out = new pathlab_grid{std::move(map.grid)};
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_grid_from_classes(int32_t width, int32_t height, const char* classes,
                                         pathlab_grid** out) {
  if (out == nullptr) return null_argument("pathlab_grid_from_classes", "out");
  *out = nullptr;
  if (classes == nullptr) return null_argument("pathlab_grid_from_classes", "classes");
  if (width < 1 || height < 1 || std::int64_t{width} * height > grid::Grid::max_cells) {
    return fail(PATHLAB_INVALID, "a grid is 1x1 to 2^28 cells, not " + std::to_string(width) + "x" +
                                     std::to_string(height));
  }
  return guarded([&] {
    auto g = std::make_unique<pathlab_grid>(pathlab_grid{grid::Grid(width, height)});
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        const char c = grid::canonical_class(classes[std::size_t(y) * width + x]);
        if (!grid::valid_class(c)) {
          return fail(PATHLAB_INVALID, "the class of cell " + cell_text({x, y}) +
                                           " is not a printable character other than space");
        }
        if (c != grid::kGroundClass) g->grid.set_class(x, y, c);
      }
    }
    *out = g.release();
    return PATHLAB_OK;
  });
}

void pathlab_grid_free(pathlab_grid* grid) {
  delete grid;
}

int32_t pathlab_grid_width(const pathlab_grid* grid) {
  return grid == nullptr ? 0 : grid->grid.width();
}

int32_t pathlab_grid_height(const pathlab_grid* grid) {
  return grid == nullptr ? 0 : grid->grid.height();
}

pathlab_status pathlab_grid_edit(pathlab_grid* grid, const char* edit) {
  if (grid == nullptr) return null_argument("pathlab_grid_edit", "grid");
  if (edit == nullptr) return null_argument("pathlab_grid_edit", "edit");
  return guarded([&] {
    grid::Edit e;
    if (auto bad = grid::parse_edit(edit, e))
      return fail(PATHLAB_INVALID, std::string(edit) + ": " + *bad);
    if (auto bad = grid->grid.apply(e))
      return fail(PATHLAB_INVALID, std::string(edit) + ": " + *bad);
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_finder_new(const pathlab_grid* grid, const pathlab_options* options,
                                  pathlab_finder** out) {
  if (out == nullptr) return null_argument("pathlab_finder_new", "out");
  *out = nullptr;
  if (grid == nullptr) return null_argument("pathlab_finder_new", "grid");
  return guarded([&] {
    search::Options o;
    if (auto bad = to_options(options, o)) return fail(PATHLAB_INVALID, *bad);
    *out = new pathlab_finder{search::Pathfinder(grid->grid, o), {}, {}};
    return PATHLAB_OK;
  });
}

void pathlab_finder_free(pathlab_finder* finder) {
  delete finder;
}

pathlab_status pathlab_find(pathlab_finder* finder, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                            pathlab_result* out) {
  if (finder == nullptr) return null_argument("pathlab_find", "finder");
  if (out == nullptr) return null_argument("pathlab_find", "out");
  *out = pathlab_result{};
  return guarded([&] {
    search::Result& r = finder->result;
    const pathlab_status s = to_status(finder->finder.find({sx, sy}, {gx, gy}, r));
    if (s == PATHLAB_INVALID) {
      // The search checks its ends itself; the reason is worked out only for a refusal.
      const grid::Grid& g = finder->finder.grid();
      const grid::Unit& unit = finder->finder.options().unit;
      auto bad = footing_problem(g, unit, {sx, sy}, "start");
      if (!bad) bad = footing_problem(g, unit, {gx, gy}, "goal");
      return fail(s, bad ? *bad : std::string("the search refused its input"));
    }
    finder->path.clear();
    for (const pathlab::Cell c : r.path) {
      finder->path.push_back(c.x);
      finder->path.push_back(c.y);
    }
    out->cost = s == PATHLAB_OK ? r.cost : 0;
    out->expanded = r.stats.expanded;
    out->time_us = r.stats.time_us;
    out->path = finder->path.data();
    out->path_cells = r.path.size();
    return s;
  });
}

pathlab_status pathlab_find_many(const pathlab_grid* grid, const pathlab_options* options, size_t n,
                                 const int32_t* starts, const int32_t* goals, double* costs,
                                 int threads) {
  if (grid == nullptr) return null_argument("pathlab_find_many", "grid");
  if (n > 0 && (starts == nullptr || goals == nullptr || costs == nullptr)) {
    return null_argument("pathlab_find_many", starts == nullptr  ? "starts"
                                              : goals == nullptr ? "goals"
                                                                 : "costs");
  }
  if (threads < 0) return fail(PATHLAB_INVALID, "pathlab_find_many: threads must be >= 0");
  return guarded([&] {
    search::Options o;
    if (auto bad = to_options(options, o)) return fail(PATHLAB_INVALID, *bad);
    std::vector<search::Query> queries(n);
    for (size_t i = 0; i < n; ++i) {
      queries[i] = {{starts[2 * i], starts[2 * i + 1]}, {goals[2 * i], goals[2 * i + 1]}};
      for (const pathlab::Cell c : {queries[i].start, queries[i].goal}) {
        if (!grid->grid.in_bounds(c)) {
          return fail(PATHLAB_INVALID, "query " + std::to_string(i) + ": cell " + cell_text(c) +
                                           " is outside the " + std::to_string(grid->grid.width()) +
                                           "x" + std::to_string(grid->grid.height()) + " map");
        }
      }
    }
    std::vector<search::Result> results(n);
    search::find_batch(grid->grid, o, queries, results, threads);
    for (size_t i = 0; i < n; ++i) {
      costs[i] = results[i].status == pathlab::Status::found
                     ? results[i].cost
                     : std::numeric_limits<double>::quiet_NaN();
    }
    return PATHLAB_OK;
  });
}

pathlab_status pathlab_field_build(const pathlab_grid* grid, const pathlab_options* options,
                                   size_t goals_n, const int32_t* goals, pathlab_field** out) {
  if (out == nullptr) return null_argument("pathlab_field_build", "out");
  *out = nullptr;
  if (grid == nullptr) return null_argument("pathlab_field_build", "grid");
  if (goals_n > 0 && goals == nullptr) return null_argument("pathlab_field_build", "goals");
  return guarded([&] {
    search::Options o;
    if (auto bad = to_options(options, o)) return fail(PATHLAB_INVALID, *bad);
    pathlab::flow::Options fo;
    fo.moves = o.moves;
    fo.unit = o.unit;
    std::vector<pathlab::Cell> cells(goals_n);
    for (size_t i = 0; i < goals_n; ++i) cells[i] = {goals[2 * i], goals[2 * i + 1]};
    auto f = std::make_unique<pathlab_field>();
    if (auto bad = f->field.build(grid->grid, cells, fo)) return fail(PATHLAB_INVALID, *bad);
    const int w = grid->grid.width(), h = grid->grid.height();
    f->distance.resize(std::size_t(w) * h);
    f->direction.resize(std::size_t(w) * h);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        f->distance[std::size_t(y) * w + x] = f->field.distance({x, y});
        f->direction[std::size_t(y) * w + x] = f->field.direction({x, y});
      }
    }
    *out = f.release();
    return PATHLAB_OK;
  });
}

const double* pathlab_field_distance(const pathlab_field* field) {
  return field == nullptr ? nullptr : field->distance.data();
}

const int8_t* pathlab_field_direction(const pathlab_field* field) {
  return field == nullptr ? nullptr : field->direction.data();
}

void pathlab_field_free(pathlab_field* field) {
  delete field;
}

}  // extern "C"
