// Editable maps kept by the API (the page's live repair; see map_sessions.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <pathlab/grid/grid.hpp>
#include <pathlab/search/pathfinder.hpp>

#include "internal.hpp"

namespace pathlab::api::detail {

/// Editable maps held by the server (the page's live repair): edits go through Grid::apply,
/// and one finder per session is kept across them, so that its caches (unit views, the JPS+
/// table, the subgoal graph) are repaired rather than rebuilt; each answer says how long the
/// edits and the repair took. At most max_sessions; one more evicts the least recently used.
class MapSessions {
 public:
  explicit MapSessions(std::size_t max) : max_(std::max<std::size_t>(1, max)) {}
  struct Session {
    std::mutex mutex;
    grid::Grid grid;
    std::unique_ptr<search::Pathfinder> finder;
    double edit_us = 0;  ///< the last edit request's
    std::size_t edits = 0;
    std::uint64_t used = 0;
  };
  std::string create(grid::Grid g) {
    const std::lock_guard lock(mutex_);
    if (sessions_.size() >= max_) {
      auto oldest = sessions_.begin();
      for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
        if (it->second->used < oldest->second->used) oldest = it;
      }
      sessions_.erase(oldest);
    }
    auto s = std::make_shared<Session>();
    s->grid = std::move(g);
    s->finder = std::make_unique<search::Pathfinder>(s->grid);
    s->used = ++clock_;
    std::string id = std::to_string(++next_id_);
    id.insert(id.begin(), 'm');
    sessions_[id] = std::move(s);
    return id;
  }
  std::shared_ptr<Session> get(const std::string& id) {
    const std::lock_guard lock(mutex_);
    const auto it = sessions_.find(id);
    if (it == sessions_.end()) throw ApiError{404, "no map session " + id};
    it->second->used = ++clock_;
    return it->second;
  }
  void erase(const std::string& id) {
    const std::lock_guard lock(mutex_);
    if (sessions_.erase(id) == 0) throw ApiError{404, "no map session " + id};
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Session>> sessions_;
  std::size_t max_;
  std::uint64_t clock_ = 0, next_id_ = 0;
};

}  // namespace pathlab::api::detail
