// The static web page's entry point into pathlab::api (js/site/CMakeLists.txt): the page's Web
// Worker registers the files the site ships, then hands over each request as `pathlab serve`
// would receive it and reads the answer back. Everything else is the API's own code.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include <pathlab/api/api.hpp>
#include <pathlab/api/catalog.hpp>

namespace {

std::shared_ptr<pathlab::api::MemoryCatalog> g_files =
    std::make_shared<pathlab::api::MemoryCatalog>();
std::unique_ptr<pathlab::api::Api> g_api;
std::string g_body;

}  // namespace

extern "C" {

/// Registers a shipped file before the first call: `kind` "map" (maps and Link boards, the
/// repository's maps/) or "scenario" (scenarios/). Returns 0, or -1 after the first call or for
/// an unknown kind.
EMSCRIPTEN_KEEPALIVE int pathlab_site_add_file(const char* kind, const char* name,
                                               const char* bytes, std::size_t size) {
  if (g_api) return -1;
  const std::string_view k(kind);
  if (k == "map") {
    g_files->add_map(name, std::string(bytes, size));
  } else if (k == "scenario") {
    g_files->add_scenario(name, std::string(bytes, size));
  } else {
    return -1;
  }
  return 0;
}

/// Answers one request: `method` ("GET", "POST", "DELETE"), `target` (path and query, as sent on
/// the wire), the body's bytes. Returns the HTTP status; the answer's JSON is at
/// pathlab_site_body() for pathlab_site_body_size() bytes until the next call.
EMSCRIPTEN_KEEPALIVE int pathlab_site_call(const char* method, const char* target, const char* body,
                                           std::size_t size) {
  try {
    if (!g_api) g_api = std::make_unique<pathlab::api::Api>(g_files);
    pathlab::api::Response r = g_api->handle(pathlab::api::Request::from_target(
        method, target, std::string_view(body == nullptr ? "" : body, body == nullptr ? 0 : size)));
    g_body = std::move(r.body);
    return r.status;
  } catch (...) {  // out of memory before the API could answer
    g_body = R"({"error":"internal error"})";
    return 500;
  }
}

EMSCRIPTEN_KEEPALIVE const char* pathlab_site_body() {
  return g_body.data();
}

EMSCRIPTEN_KEEPALIVE std::size_t pathlab_site_body_size() {
  return g_body.size();
}

}  // extern "C"
