// The handlers' shared HTTP pieces (see http.hpp).
#include "http.hpp"

#include <httplib.h>

namespace pathlab::server {

void send_json(httplib::Response& res, const std::string& body, int status) {
  res.status = status;
  res.set_content(body, kJsonType);
}

nlohmann::json body_object(const httplib::Request& req, bool empty_ok) {
  if (empty_ok && req.body.find_first_not_of(" \t\r\n") == std::string::npos) {
    return nlohmann::json::object();
  }
  nlohmann::json r = nlohmann::json::parse(req.body, nullptr, false);
  if (r.is_discarded() || !r.is_object()) throw ApiError{400, "the body is not a JSON object"};
  return r;
}

}  // namespace pathlab::server
