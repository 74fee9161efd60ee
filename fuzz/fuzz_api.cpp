// libFuzzer target: pathlab::api as the static page's worker calls it (js/site/site.cpp): requests
// read from their wire form (Request::from_target) and answered by Api::handle, over the
// repository's small maps and scenarios held in memory (PATHLAB_FUZZ_SOURCE_DIR, only read).
//
// The input is up to 8 requests, separated by NUL bytes: a method byte ('G' GET, 'P' POST, 'D'
// DELETE, 'H' HEAD, anything else GET), the target up to the first newline, then the body. In a
// target, "{map}" and "{sim}" stand for the id of the last map or simulation session created, so
// that the session routes are reached. Each input gets a fresh API.
//
// handle() must never throw; every answer must be JSON of kJsonType with a status the API
// documents (200, 400, 404, 413, 422; 500 would be a failure nobody foresaw), an error an object
// with a string "error".
#include <pathlab/api/api.hpp>
#include <pathlab/api/catalog.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#ifndef PATHLAB_FUZZ_SOURCE_DIR
#define PATHLAB_FUZZ_SOURCE_DIR "/nonexistent"
#endif

namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The repository's maps and its small scenarios (the crowds would only spend the time limit).
std::shared_ptr<const pathlab::api::Catalog> files() {
  auto c = std::make_shared<pathlab::api::MemoryCatalog>();
  const fs::path root(PATHLAB_FUZZ_SOURCE_DIR);
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root / "maps", ec)) {
    c->add_map(e.path().filename().string(), read_file(e.path()));
  }
  for (const char* s :
       {"hybrid_l_trap.json", "chase_target.json", "corridor_oncoming.json", "door_swap.json"}) {
    c->add_scenario(s, read_file(root / "scenarios" / s));
  }
  return c;
}

void replace_all(std::string& s, std::string_view what, const std::string& with) {
  for (std::size_t at = s.find(what); at != std::string::npos;
       at = s.find(what, at + with.size())) {
    s.replace(at, what.size(), with);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::shared_ptr<const pathlab::api::Catalog> catalog = files();
  pathlab::api::Limits limits;
  limits.max_sessions = 4;
  limits.max_cells = 1 << 16;
  limits.max_nodes = 200000;
  limits.max_body_bytes = 1 << 16;
  pathlab::api::Api api(catalog, limits);
  std::string map_id = "m1", sim_id = "0";

  std::string_view input(reinterpret_cast<const char*>(data), size);
  for (int n = 0; n < 8 && !input.empty(); ++n) {
    const std::size_t end = input.find('\0');
    std::string_view one = input.substr(0, end);
    input = end == std::string_view::npos ? std::string_view() : input.substr(end + 1);
    if (one.empty()) continue;
    const char m = one.front();
    const char* method = m == 'P' ? "POST" : m == 'D' ? "DELETE" : m == 'H' ? "HEAD" : "GET";
    one.remove_prefix(1);
    const std::size_t nl = one.find('\n');
    std::string target(one.substr(0, nl));
    const std::string_view body =
        nl == std::string_view::npos ? std::string_view() : one.substr(nl + 1);
    replace_all(target, "{map}", map_id);
    replace_all(target, "{sim}", sim_id);

    const pathlab::api::Request request = pathlab::api::Request::from_target(method, target, body);
    const pathlab::api::Response r = api.handle(request);  // an exception escapes: a crash
    if (r.content_type != pathlab::api::kJsonType) __builtin_trap();
    if (r.status != 200 && r.status != 400 && r.status != 404 && r.status != 413 &&
        r.status != 422) {
      __builtin_trap();
    }
    const nlohmann::json j = nlohmann::json::parse(r.body, nullptr, false);
    if (j.is_discarded()) __builtin_trap();
    if (r.status != 200 && !(j.is_object() && j.contains("error") && j["error"].is_string())) {
      __builtin_trap();
    }
    if (r.status == 200 && j.is_object() && j.contains("id") && j["id"].is_string()) {
      (request.path == "/api/sim" ? sim_id : map_id) = j["id"].get<std::string>();
    }
  }
  return 0;
}
