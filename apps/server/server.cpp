// `pathlab serve` (see server.hpp): cpp-httplib in front of pathlab::api. The API's routes,
// sessions and JSON live in libs/api, which the static web page runs too; here are only HTTP
// things: the socket, the static files of web/, the body size limit and the log line.
#include "server.hpp"

#include <httplib.h>

#include <atomic>
#include <exception>
#include <memory>

#include <nlohmann/json.hpp>

#include <pathlab/api/api.hpp>
#include <pathlab/api/catalog.hpp>

namespace pathlab::server {
namespace {

std::atomic<httplib::Server*> g_server{nullptr};

void send_error(httplib::Response& res, int status, const char* what) {
  res.status = status;
  res.set_content(nlohmann::json{{"error", what}}.dump(), api::kJsonType);
}

}  // namespace

bool serve(const Config& c, const std::function<void(const std::string&)>& on_ready,
           const std::function<void(const std::string&)>& log) {
  api::Limits limits;
  limits.max_sessions = c.max_sessions;
  limits.max_body_bytes = c.max_body_bytes;
  limits.max_cells = c.max_cells;
  limits.max_nodes = c.max_nodes;
  api::Api handler(std::make_shared<api::FolderCatalog>(c.map_dirs, c.scenario_dirs), limits);

  httplib::Server svr;
  svr.set_payload_max_length(c.max_body_bytes);
  if (!c.web_dir.empty()) svr.set_mount_point("/", c.web_dir);
  // Every /api/ request goes to the API as it came: path and query decoded by cpp-httplib.
  const auto call = [&handler](const httplib::Request& req, httplib::Response& res) {
    api::Request r;
    r.method = req.method;
    r.path = req.path;
    r.query.assign(req.params.begin(), req.params.end());
    r.body = req.body;
    api::Response out = handler.handle(r);
    res.status = out.status;
    res.set_content(out.body, out.content_type);
  };
  svr.Get("/api/.*", call);
  svr.Post("/api/.*", call);
  svr.Delete("/api/.*", call);
  svr.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        send_error(res, 500, "internal error");  // Api::handle answers everything itself
      });
  svr.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) {
      send_error(res, res.status,
                 res.status == 413   ? "request body too large"
                 : res.status == 404 ? "not found"
                                     : "bad request");
    }
  });
  svr.set_logger([&log](const httplib::Request& req, const httplib::Response& res) {
    log(req.method + " " + req.path + " " + std::to_string(res.status) + " " +
        std::to_string(res.body.size()) + "B");
  });
  const int port =
      c.port == 0 ? svr.bind_to_any_port(c.host) : (svr.bind_to_port(c.host, c.port) ? c.port : -1);
  if (port < 0) return false;
  g_server = &svr;
  on_ready("http://" + c.host + ":" + std::to_string(port) + "/");
  const bool ok = svr.listen_after_bind();
  g_server = nullptr;
  return ok;
}

void stop() {
  if (httplib::Server* s = g_server.load()) s->stop();
}

}  // namespace pathlab::server
