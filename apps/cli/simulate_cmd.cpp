// `pathlab simulate`: runs a scenario file (agents among moving obstacles) with its planners, or
// with one planner for every agent (--planner), or with each planner in turn (--compare), and
// reports what every agent did: arrival, time, path length against the static optimum,
// clearance, collisions, stalls and replans, and the time per tick; --render draws the run.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include <fmt/core.h>

#include <pathlab/agents/crowd.hpp>
#include <pathlab/agents/scenario.hpp>
#include <pathlab/agents/world.hpp>
#include <pathlab/core/error.hpp>
#include <pathlab/json/agents.hpp>
#include <pathlab/render/simulation.hpp>

#include "common.hpp"

namespace pathlab::cli {
namespace {

struct SimulateArgs {
  std::string scenario;
  std::string planner;
  bool compare = false;
  bool json = false;
  std::string render_path;
  // --bench MAP: a crowd benchmark instead of a scenario.
  std::string bench_map;
  std::size_t bench_agents = 1000;
  std::uint64_t bench_ticks = 200;
  std::size_t bench_goals = 0;  ///< --goals K: K groups sharing a goal each (0: a goal per agent)
  bool bench_flow = false;      ///< --flow: the agents follow flow fields
  std::uint64_t seed = 1;
  MapArgs map_args;
};

struct Run {
  std::string planner;  // the planner given to every agent, or "scenario"
  std::uint64_t ticks = 0;
  std::vector<agents::AgentMetrics> agents;
  double tick_mean_us = 0, tick_p99_us = 0;
  double agent_mean_us = 0;  ///< per agent per tick, while it was in the world
};

/// `out.gif` with the planner's name before the extension: `out-hybrid.gif`.
std::string with_planner(const std::string& path, std::string_view planner) {
  const auto slash = path.find_last_of('/');
  const auto dot = path.rfind('.');
  const auto at =
      dot == std::string::npos || (slash != std::string::npos && dot < slash) ? path.size() : dot;
  return path.substr(0, at) + "-" + std::string(planner) + path.substr(at);
}

/// Runs the scenario; with a render path, records the run and draws it there (each frame is
/// taken between ticks, outside the time World::tick_us measures).
Run simulate(const agents::Scenario& sc, std::optional<agents::PlannerKind> planner,
             const std::string& render_path) {
  agents::WorldSpec spec = sc.world;
  if (planner) {
    for (auto& a : spec.agents) a.planner = *planner;
  }
  agents::World world(std::move(spec));
  if (render_path.empty()) {
    world.run();
  } else {
    render::SimulationRecorder recorder(world);
    while (!world.finished()) {
      world.step();
      recorder.capture(world);
    }
    try {
      recorder.write(render_path);
    } catch (const std::runtime_error& e) {
      throw CliError{e.what()};
    }
  }
  Run r;
  r.planner = planner ? std::string(agents::to_string(*planner)) : "scenario";
  r.ticks = world.ticks();
  for (const auto& a : world.agents()) r.agents.push_back(a.metrics);
  std::vector<double> t = world.tick_us();
  if (!t.empty()) {
    r.tick_mean_us = std::accumulate(t.begin(), t.end(), 0.0) / static_cast<double>(t.size());
    const std::size_t k =
        std::min(t.size() - 1, static_cast<std::size_t>(0.99 * (t.size() - 1) + 0.5));
    std::nth_element(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(k), t.end());
    r.tick_p99_us = t[k];
    // Per agent: the time of all ticks over the ticks each agent was in the world (it leaves
    // when it arrives).
    double agent_ticks = 0;
    for (const auto& m : r.agents) agent_ticks += std::round(m.time / world.spec().dt);
    r.agent_mean_us = r.tick_mean_us * static_cast<double>(t.size()) / std::max(1.0, agent_ticks);
  }
  return r;
}

nlohmann::json run_json(const agents::Scenario& sc, const Run& r) {
  return json::simulation_run(sc.name, r.planner, r.ticks, r.agents,
                              {r.tick_mean_us, r.tick_p99_us, r.agent_mean_us});
}

void print_table(const agents::Scenario& sc, const std::vector<Run>& runs) {
  fmt::print("{} ({}, {} agents, {} obstacles, dt {} s)\n", sc.name, sc.map_path,
             sc.world.agents.size(), sc.world.obstacles.size(), sc.world.dt);
  fmt::print("{:<9} {:>8} {:>8} {:>10} {:>10} {:>10} {:>7} {:>7} {:>7} {:>7} {:>10} {:>10} {:>9}\n",
             "planner", "arrived", "time_s", "length", "/optimum", "clearance", "collide", "stalls",
             "local", "global", "tick_us", "p99_us", "agent_us");
  for (const Run& r : runs) {
    std::size_t arrived = 0;
    double time = 0, ratio = 0, clearance = 1e9;
    int collisions = 0, stalls = 0, local = 0, global = 0;
    double length = 0;
    std::size_t ratio_n = 0;
    for (const auto& m : r.agents) {
      arrived += m.arrived;
      time = std::max(time, m.time);
      length += m.path_length;
      if (m.arrived && m.optimal_length > 0) {
        ratio += m.path_length / m.optimal_length;
        ++ratio_n;
      }
      clearance = std::min(clearance, m.min_clearance);
      collisions += m.collisions;
      stalls += m.stalls;
      local += m.local_replans;
      global += m.global_replans;
    }
    const double n = static_cast<double>(std::max<std::size_t>(1, r.agents.size()));
    fmt::print(
        "{:<9} {:>8} {:>8.2f} {:>10.2f} {:>10} {:>10} {:>7} {:>7} {:>7} {:>7} {:>10.1f} "
        "{:>10.1f} {:>9.2f}\n",
        r.planner, fmt::format("{}/{}", arrived, r.agents.size()), time, length / n,
        ratio_n ? fmt::format("{:.3f}", ratio / static_cast<double>(ratio_n)) : "-",
        clearance < 1e8 ? fmt::format("{:.3f}", clearance) : "-", collisions, stalls, local, global,
        r.tick_mean_us, r.tick_p99_us, r.agent_mean_us);
  }
}

/// The crowd benchmark: N agents with random starts and goals on a map, timed per tick over T
/// ticks (the initial plans, made when the world is built, are timed apart and excluded).
int run_bench(const SimulateArgs& a) {
  const io::Map map = load_map(a.bench_map, a.map_args);
  agents::AgentSpec like;
  if (!a.planner.empty()) {
    const auto p = agents::parse_planner(a.planner);
    if (!p) throw CliError{"--planner expects hybrid, apf, replan, dstar or flow"};
    like.planner = *p;
  }
  if (a.bench_flow) {
    if (!a.planner.empty() && like.planner != agents::PlannerKind::flow) {
      throw CliError{"--flow steers every agent with flow fields; drop --planner"};
    }
    like.planner = agents::PlannerKind::flow;
  }
  agents::WorldSpec spec;
  try {
    spec = agents::make_crowd(map.grid, a.bench_agents, a.seed, like, 1e6, a.bench_goals);
  } catch (const std::invalid_argument& e) {
    throw CliError{a.bench_map + ": " + e.what()};
  }
  const auto t0 = std::chrono::steady_clock::now();
  agents::World world(std::move(spec));
  const double setup_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (std::uint64_t k = 0; k < a.bench_ticks && !world.finished(); ++k) world.step();
  std::vector<double> t = world.tick_us();
  double mean = 0, p99 = 0;
  if (!t.empty()) {
    mean = std::accumulate(t.begin(), t.end(), 0.0) / static_cast<double>(t.size());
    const std::size_t k =
        std::min(t.size() - 1, static_cast<std::size_t>(0.99 * (t.size() - 1) + 0.5));
    std::nth_element(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(k), t.end());
    p99 = t[k];
  }
  std::size_t arrived = 0;
  int collisions = 0, local = 0, global = 0, stalls = 0;
  for (const auto& ag : world.agents()) {
    arrived += ag.metrics.arrived;
    collisions += ag.metrics.collisions;
    local += ag.metrics.local_replans;
    global += ag.metrics.global_replans;
    stalls += ag.metrics.stalls;
  }
  const std::string planner(agents::to_string(like.planner));
  if (a.json) {
    fmt::print("{}\n", nlohmann::json{{"map", a.bench_map},
                                      {"planner", planner},
                                      {"agents", a.bench_agents},
                                      {"goals", a.bench_goals},
                                      {"ticks", world.ticks()},
                                      {"initial_plans_s", setup_s},
                                      {"tick_ms", {{"mean", mean / 1000}, {"p99", p99 / 1000}}},
                                      {"arrived", arrived},
                                      {"collisions", collisions},
                                      {"stalls", stalls},
                                      {"local_replans", local},
                                      {"global_replans", global}}
                           .dump());
  } else {
    fmt::print("{} agents ({}) on {}, seed {}: initial plans {:.2f} s (excluded)\n", a.bench_agents,
               planner, a.bench_map, a.seed, setup_s);
    fmt::print("{} ticks: {:.2f} ms mean, {:.2f} ms p99 per tick ({:.1f} us per agent)\n",
               world.ticks(), mean / 1000, p99 / 1000,
               mean / static_cast<double>(std::max<std::size_t>(1, a.bench_agents)));
    fmt::print("arrived {}, collisions {}, stalls {}, local replans {}, global replans {}\n",
               arrived, collisions, stalls, local, global);
  }
  return kExitOk;
}

int run_simulate(const SimulateArgs& a) {
  if (!a.bench_map.empty()) {
    if (!a.render_path.empty()) throw CliError{"--render draws a scenario's run, not --bench"};
    return run_bench(a);
  }
  if (a.scenario.empty()) throw CliError{"simulate needs a SCENARIO file (or --bench MAP)"};
  agents::Scenario sc;
  try {
    sc = agents::load_scenario(a.scenario);
  } catch (const ParseError& e) {
    throw CliError{e.what()};
  }
  std::vector<std::optional<agents::PlannerKind>> planners;
  if (a.compare) {
    if (!a.planner.empty()) throw CliError{"--compare runs every planner; drop --planner"};
    for (const auto p : {agents::PlannerKind::hybrid, agents::PlannerKind::apf,
                         agents::PlannerKind::replan, agents::PlannerKind::dstar}) {
      planners.emplace_back(p);
    }
  } else if (!a.planner.empty()) {
    const auto p = agents::parse_planner(a.planner);
    if (!p) {
      throw CliError{"--planner expects hybrid, apf, replan or dstar, not '" + a.planner + "'"};
    }
    planners.emplace_back(p);
  } else {
    planners.emplace_back(std::nullopt);
  }
  if (!a.render_path.empty() && !render::is_render_path(a.render_path)) {
    throw CliError{a.render_path + ": unknown render format (use .gif, .png or .svg)"};
  }
  std::vector<Run> runs;
  try {
    for (const auto& p : planners) {
      const std::string out = a.render_path.empty() || planners.size() == 1
                                  ? a.render_path
                                  : with_planner(a.render_path, agents::to_string(*p));
      runs.push_back(simulate(sc, p, out));
    }
  } catch (const std::invalid_argument& e) {
    throw CliError{a.scenario + ": " + e.what()};
  }
  if (a.json) {
    if (runs.size() == 1) {
      fmt::print("{}\n", run_json(sc, runs[0]).dump());
    } else {
      nlohmann::json results = nlohmann::json::array();
      for (const Run& r : runs) results.push_back(run_json(sc, r));
      fmt::print("{}\n", nlohmann::json{{"results", results}}.dump());
    }
  } else {
    print_table(sc, runs);
  }
  return kExitOk;
}

}  // namespace

void register_simulate(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SimulateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "simulate", "run agents among moving obstacles (a scenario file) and report what they did");
  cmd->add_option("SCENARIO", args->scenario, "scenario file (.json; see docs/simulation.md)");
  cmd->add_option("--planner", args->planner,
                  "hybrid, apf, replan or dstar for every agent (default: each agent's own)");
  cmd->add_option("--bench", args->bench_map,
                  "crowd benchmark on MAP instead of a scenario: random starts and goals, time "
                  "per tick (initial plans excluded)");
  cmd->add_option("--agents", args->bench_agents, "with --bench: number of agents")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--ticks", args->bench_ticks, "with --bench: ticks to run")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "with --bench: random seed")->capture_default_str();
  cmd->add_option("--goals", args->bench_goals,
                  "with --bench: K groups of agents, each sharing one goal (default: a goal per "
                  "agent)");
  cmd->add_flag("--flow", args->bench_flow,
                "with --bench: the agents follow their group's flow field (the flow planner)");
  args->map_args.add_to(*cmd, false);  // the agents' radius makes the clearance
  cmd->add_flag("--compare", args->compare, "run every planner on the scenario, one table");
  cmd->add_option("--render", args->render_path,
                  "draw the run: an animated OUT.gif, OUT.png (the last frame) or OUT.svg (the "
                  "final state, with trails); with --compare one file per planner, its name "
                  "before the extension (OUT-hybrid.gif, OUT-apf.gif, ...)");
  cmd->add_flag("--json", args->json, "machine output (fields fixed by the CLI contract)");
  cmd->callback([args, &exit_code] { exit_code = run_simulate(*args); });
}

}  // namespace pathlab::cli
