// The pathlab command: subcommands over the library. Errors print one line
// "pathlab: error: ..." on stderr with the exit codes of the CLI contract (docs/cli.md).
#include <algorithm>
#include <cstdio>
#include <exception>

#include <fmt/core.h>

#include "common.hpp"

int main(int argc, char** argv) {
  using namespace pathlab::cli;
  CLI::App app{"pathlab: grid pathfinding you can measure and watch", "pathlab"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "pathlab 0.1.0");
  int exit_code = kExitOk;  // set by the subcommand that runs
  register_solve(app, exit_code);
  register_bench(app, exit_code);
  register_algorithms(app, exit_code);
  register_convert(app, exit_code);
  register_serve(app, exit_code);
  register_simulate(app, exit_code);
  register_link(app, exit_code);
  register_prepare(app, exit_code);
  register_reach(app, exit_code);
  register_flow(app, exit_code);
  // CLI11 would answer "pathlab nosuch --help" with the main help and exit 0; name it instead.
  const auto known = app.get_subcommands([](CLI::App*) { return true; });
  const bool is_known = argc > 1 && std::any_of(known.begin(), known.end(), [&](CLI::App* c) {
                          return c->get_name() == argv[1];
                        });
  if (argc > 1 && argv[1][0] != '-' && !is_known) {
    fmt::print(stderr, "pathlab: error: unknown command '{}' (try pathlab --help)\n", argv[1]);
    return kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "pathlab: error: {}\n", e.what());
    return kExitBadInput;
  } catch (const CliError& e) {
    std::fflush(stdout);
    fmt::print(stderr, "pathlab: error: {}\n", e.message);
    return e.code;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "pathlab: error: {}\n", e.what());
    return kExitBadInput;
  }
  return exit_code;
}
