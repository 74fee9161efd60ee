// The installed pathlab::json writes a search result as `pathlab solve --json` does and a flow
// field as `pathlab flow --json` does; the values are checked against the results.
#include <cmath>
#include <cstdio>
#include <vector>

#include <pathlab/json/flow.hpp>
#include <pathlab/json/search.hpp>

int main() {
  pathlab::grid::Grid g(5, 3);
  for (int x = 0; x < 3; ++x) g.set_blocked(x, 1, true);
  pathlab::search::Options o;
  pathlab::search::Pathfinder finder(g, o);
  const pathlab::search::Result r = finder.find({0, 0}, {4, 2});
  const nlohmann::json j = pathlab::json::solve_result(o, {0, 0}, {{4, 2}}, r, nullptr,
                                                       pathlab::post::Smoothing::refined);
  const std::vector<pathlab::Cell> goals{{4, 2}};
  pathlab::flow::Field f;
  const bool built = !f.build(g, goals, {});
  const nlohmann::json fj = pathlab::json::flow_field(f);
  std::printf("json: %s\n", j.dump().substr(0, 120).c_str());
  const bool ok = built && j["status"] == "found" && j["cost"].get<double>() == r.cost &&
                  j["path"].size() == r.path.size() && j["goal"] == nlohmann::json::array({4, 2}) &&
                  fj["width"] == 5 && fj["distance"].size() == 15 && fj["distance"][14] == 0.0 &&
                  fj["distance"][5].is_null() && fj["direction"][5] == -1;
  return ok ? 0 : 1;
}
