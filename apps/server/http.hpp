// What every handler of `pathlab serve` shares: the error it throws for a request it cannot
// answer, the one way it answers (JSON with its content type) and the one way it reads a body.
// Only HTTP lives here; the JSON of library results comes from pathlab::json.
#pragma once

#include <concepts>
#include <string>

#include <nlohmann/json.hpp>

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace pathlab::server {

/// A request that cannot be answered: HTTP status and message (the handlers' JSON error).
struct ApiError {
  int status;
  std::string message;
};

/// The content type of every JSON answer. With the charset named, cpp-httplib does not compress
/// it: Debian's build compresses with brotli whenever a browser asks, and a 500-agent simulation
/// state (190 KB) took 375 ms to compress against 13 ms to send as it is (loopback).
inline constexpr const char* kJsonType = "application/json; charset=utf-8";

/// Sends `body` (JSON text) with `status` and kJsonType.
void send_json(httplib::Response& res, const std::string& body, int status);

/// Answers j with `status`.
inline void reply(httplib::Response& res, const nlohmann::json& j, int status = 200) {
  send_json(res, j.dump(), status);
}
/// The same for an object that keeps its fields in the order written (the Link answers). A
/// template, so that a braced list `reply(res, {{"k", v}})` still means nlohmann::json.
template <class J>
requires std::same_as<J, nlohmann::ordered_json>
void reply(httplib::Response& res, const J& j, int status = 200) {
  send_json(res, j.dump(), status);
}

/// The request's body as a JSON object, else ApiError 400; an empty body is {} where
/// `empty_ok`.
[[nodiscard]] nlohmann::json body_object(const httplib::Request& req, bool empty_ok = false);

}  // namespace pathlab::server
