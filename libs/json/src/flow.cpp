// Flow fields as JSON (see flow.hpp).
#include <pathlab/json/flow.hpp>

#include <cmath>

#include <pathlab/json/grid.hpp>

namespace pathlab::json {
namespace {

/// What both kinds of field answer: size, goals, row-major distances (null where no goal is
/// reachable) and directions, the reachable count, the unit, the time of the last build.
template <class F>
nlohmann::json field_json(const F& f, const grid::Grid* g) {
  nlohmann::json dist = nlohmann::json::array(), dir = nlohmann::json::array();
  std::size_t reachable = 0;
  for (int y = 0; y < f.height(); ++y) {
    for (int x = 0; x < f.width(); ++x) {
      const double d = f.distance({x, y});
      reachable += std::isfinite(d) ? 1 : 0;
      dist.push_back(std::isfinite(d) ? nlohmann::json(d) : nlohmann::json(nullptr));
      dir.push_back(static_cast<int>(f.direction({x, y})));
    }
  }
  return {{"width", f.width()},
          {"height", f.height()},
          {"goals", cells(f.goals(), g)},
          {"distance", std::move(dist)},
          {"direction", std::move(dir)},
          {"reachable", reachable},
          {"unit", unit(f.options().unit)},
          {"time_us", f.stats().time_us}};
}

}  // namespace

nlohmann::json flow_field(const flow::Field& f, const grid::Grid* g) {
  nlohmann::json out = field_json(f, g);
  nlohmann::json sees = nlohmann::json::array();
  for (int y = 0; y < f.height(); ++y) {
    for (int x = 0; x < f.width(); ++x) sees.push_back(f.sees({x, y}));
  }
  out["sees"] = std::move(sees);
  return out;
}

nlohmann::json flow_field(const flow::SectorField& f, const grid::Grid* g) {
  nlohmann::json out = field_json(f, g);
  nlohmann::json built = nlohmann::json::array();
  for (const char b : f.sectors_built()) built.push_back(b ? 1 : 0);
  out["sector"] = f.sector();
  out["sectors_x"] = f.sectors_x();
  out["sectors_y"] = f.sectors_y();
  out["sectors_built"] = std::move(built);
  out["corridor_cells"] = f.corridor_cells();
  return out;
}

}  // namespace pathlab::json
