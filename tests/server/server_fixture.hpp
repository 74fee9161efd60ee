// The base of the HTTP API tests: a `pathlab serve` in this process on a free loopback port, and
// cpp-httplib's client to speak to it as the web page does. One server per process at a time
// (server::stop() is global): each suite starts its own in SetUpTestSuite and stops it after.
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>

#include <future>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "server.hpp"

class ServerFixture : public ::testing::Test {
 protected:
  struct Answer {
    int status = 0;  ///< 0: no answer at all
    nlohmann::json body;
  };

  /// Serves with `config` (its port replaced by a free one) until stop_server().
  static void start_server(pathlab::server::Config config) {
    config_ = std::move(config);
    config_.port = 0;
    std::promise<std::string> ready;
    auto url = ready.get_future();
    thread_ = std::thread([&ready] {
      pathlab::server::serve(
          config_, [&ready](const std::string& u) { ready.set_value(u); },
          [](const std::string&) {});
    });
    const std::string u = url.get();  // http://127.0.0.1:PORT/
    port_ = std::stoi(u.substr(u.rfind(':') + 1));
  }
  static void stop_server() {
    pathlab::server::stop();
    thread_.join();
  }

  static Answer post_text(const std::string& path, const std::string& body) {
    httplib::Client cli("127.0.0.1", port_);
    cli.set_read_timeout(120, 0);
    return answer(cli.Post(path, body, "application/json"));
  }
  static Answer post(const std::string& path, const nlohmann::json& body) {
    return post_text(path, body.dump());
  }
  static Answer get(const std::string& path) {
    httplib::Client cli("127.0.0.1", port_);
    return answer(cli.Get(path));
  }
  static Answer del(const std::string& path) {
    httplib::Client cli("127.0.0.1", port_);
    return answer(cli.Delete(path));
  }

  static inline pathlab::server::Config config_;
  static inline int port_ = 0;

 private:
  static Answer answer(const httplib::Result& res) {
    if (!res) return {};
    return {res->status, nlohmann::json::parse(res->body, nullptr, false)};
  }
  static inline std::thread thread_;
};
