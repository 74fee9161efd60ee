// `pathlab serve`: the web visualizer's server. Ctrl-C (SIGINT) or SIGTERM stops it cleanly.
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

#include <fmt/core.h>

#include "common.hpp"
#include "server.hpp"

namespace pathlab::cli {
namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_signal(int) {
  g_stop = true;
}

}  // namespace

void register_serve(CLI::App& app, int& exit_code) {
  auto config = std::make_shared<server::Config>();
  auto maps = std::make_shared<std::string>();
  auto scenarios = std::make_shared<std::string>();
  config->web_dir = PATHLAB_WEB_DIR;
  CLI::App* cmd = app.add_subcommand("serve", "serve the web visualizer and its JSON API");
  cmd->add_option("--port", config->port, "TCP port (0 picks a free one)")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  cmd->add_option("--host", config->host, "address to listen on")->capture_default_str();
  cmd->add_option("--maps", *maps, "a folder of more maps to offer (e.g. the Moving AI set)")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--scenarios", *scenarios,
                  "a folder of more simulation scenarios to offer (*.json)")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--web", config->web_dir, "folder of the web page")->capture_default_str();
  cmd->callback([config, maps, scenarios, &exit_code] {
    config->map_dirs = {PATHLAB_MAPS_DIR};
    if (!maps->empty()) config->map_dirs.push_back(*maps);
    config->scenario_dirs = {PATHLAB_SCENARIOS_DIR};
    if (!scenarios->empty()) config->scenario_dirs.push_back(*scenarios);
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    std::thread watcher([] {
      while (!g_stop) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      server::stop();
    });
    const bool ok = server::serve(
        *config,
        [](const std::string& url) {
          fmt::print("pathlab: serving {} (Ctrl-C stops)\n", url);
          std::fflush(stdout);
        },
        [](const std::string& line) {
          fmt::print("{}\n", line);
          std::fflush(stdout);
        });
    g_stop = true;
    watcher.join();
    if (!ok) {
      throw CliError{fmt::format("cannot listen on {}:{}", config->host, config->port)};
    }
    fmt::print("pathlab: stopped\n");
    exit_code = kExitOk;
  });
}

}  // namespace pathlab::cli
