// The API (see api.hpp): the router, the sessions and the one place where a failure becomes an
// answer. The routes themselves are in routes.cpp, map_sessions.cpp, simulation.cpp and link.cpp.
#include <pathlab/api/api.hpp>

#include <exception>
#include <utility>

#include <pathlab/core/error.hpp>

#include "internal.hpp"
#include "map_sessions.hpp"
#include "simulation.hpp"

namespace pathlab::api {

namespace detail {

nlohmann::json body_object(const Request& req, bool empty_ok) {
  if (empty_ok && req.body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return nlohmann::json::object();
  }
  nlohmann::json r = nlohmann::json::parse(req.body, nullptr, false);
  if (r.is_discarded() || !r.is_object()) throw ApiError{400, "the body is not a JSON object"};
  return r;
}

namespace {

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> out;
  if (path.empty() || path.front() != '/') return out;
  path.remove_prefix(1);
  for (;;) {
    const std::size_t slash = path.find('/');
    out.emplace_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return out;
}

}  // namespace

void Router::add(std::string method, std::string_view pattern, Handler handler) {
  routes_.push_back({std::move(method), split_path(pattern), std::move(handler)});
}

const Handler* Router::match(const Request& req, Captures& captures) const {
  const std::string_view method = req.method == "HEAD" ? "GET" : std::string_view(req.method);
  const std::vector<std::string> segments = split_path(req.path);
  for (const Route& route : routes_) {
    if (route.method != method || route.segments.size() != segments.size()) continue;
    captures.clear();
    bool ok = true;
    for (std::size_t i = 0; i < segments.size() && ok; ++i) {
      const std::string& want = route.segments[i];
      if (!want.empty() && want.front() == ':') {
        ok = !segments[i].empty();
        captures.push_back(segments[i]);
      } else {
        ok = want == segments[i];
      }
    }
    if (ok) return &route.handler;
  }
  return nullptr;
}

}  // namespace detail

struct Api::State {
  State(std::shared_ptr<const Catalog> c, const Limits& l)
      : catalog(std::move(c)),
        limits(l),
        map_sessions(limits.max_sessions),
        simulations(*catalog, limits) {
    detail::add_core_routes(router, *catalog, limits);
    detail::add_link_routes(router, *catalog, limits);
    detail::add_simulation_routes(router, simulations);
    detail::add_map_session_routes(router, map_sessions, limits);
  }

  std::shared_ptr<const Catalog> catalog;
  Limits limits;
  detail::MapSessions map_sessions;
  detail::Simulations simulations;
  detail::Router router;
};

Api::Api(std::shared_ptr<const Catalog> catalog, Limits limits)
    : state_(std::make_unique<State>(std::move(catalog), limits)) {}

Api::~Api() = default;

const Limits& Api::limits() const noexcept {
  return state_->limits;
}

const Catalog& Api::catalog() const noexcept {
  return *state_->catalog;
}

namespace {

/// {"error": message} with `status`; bytes of the message that are not UTF-8 are replaced (a
/// ParseError may quote its input).
Response error(int status, const std::string& message) noexcept {
  Response r;
  r.status = status;
  try {
    r.body = nlohmann::json{{"error", message}}.dump(-1, ' ', false,
                                                     nlohmann::json::error_handler_t::replace);
  } catch (...) {
    r.status = 500;
    r.body = R"({"error":"internal error"})";
  }
  return r;
}

}  // namespace

Response Api::handle(const Request& request) {
  try {
    if (request.body.size() > state_->limits.max_body_bytes) {
      return error(413, "request body too large");
    }
    detail::Captures captures;
    const detail::Handler* handler = state_->router.match(request, captures);
    if (handler == nullptr) return error(404, "not found");
    Response r;
    r.body = (*handler)(request, captures);
    return r;
  } catch (const detail::ApiError& e) {
    return error(e.status, e.message);
  } catch (const ParseError& e) {
    return error(422, e.what());
  } catch (const nlohmann::json::exception& e) {
    return error(400, std::string("bad JSON value: ") + e.what());
  } catch (const std::exception& e) {
    return error(422, e.what());
  } catch (...) {
    return error(500, "internal error");
  }
}

}  // namespace pathlab::api
