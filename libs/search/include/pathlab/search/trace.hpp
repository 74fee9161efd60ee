// The search trace: a listener receives what a search opens, updates and closes (and the
// iterations, meetings and line-of-sight checks of the searches that have them). The engine
// is templated on its listener; the empty default compiles away, a TraceRecorder keeps the
// events so renderers and the web page can replay the search.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <pathlab/core/types.hpp>

namespace pathlab::search {

/// What a trace event records (TraceEvent::type), one per SearchListener callback.
enum class EventType : std::uint8_t {
  opened,        ///< a cell entered the open list (or was discovered): on_opened()
  updated,       ///< a better path to a cell was found: on_updated()
  closed,        ///< a cell was expanded: on_closed()
  iteration,     ///< an iterative-deepening round started: on_iteration()
  meet,          ///< a bidirectional search's best path joined its two sides: on_meet()
  line_of_sight  ///< a line-of-sight check and its answer: on_line_of_sight()
};

/// The event's name in traces: "opened", "updated", "closed", "iteration", "meet" or "los"
/// ("?" for a value outside the enum).
[[nodiscard]] std::string_view to_string(EventType t) noexcept;

/// Runtime listener interface. Side 0 is the forward search, 1 the backward one.
class SearchListener {
 public:
  virtual ~SearchListener() = default;
  /// `cell` entered the open list (or, for BFS/DFS, was discovered) with cost g and priority f.
  virtual void on_opened(Cell /*cell*/, Cell /*parent*/, double /*g*/, double /*f*/, int /*side*/) {
  }
  /// A better path to `cell` was found: its parent and g changed.
  virtual void on_updated(Cell /*cell*/, Cell /*parent*/, double /*g*/, double /*f*/,
                          int /*side*/) {}
  /// `cell` was expanded.
  virtual void on_closed(Cell /*cell*/, int /*side*/) {}
  /// A new iteration of an iterative-deepening search starts with this bound.
  virtual void on_iteration(double /*bound*/) {}
  /// Bidirectional searches: the best path joins forward cell `a` to backward cell `b`
  /// (a == b when both sides reached the same cell).
  virtual void on_meet(Cell /*a*/, Cell /*b*/) {}
  /// A line-of-sight check between two cells and its answer.
  virtual void on_line_of_sight(Cell /*a*/, Cell /*b*/, bool /*visible*/) {}
};

/// One listener call as a TraceRecorder keeps it.
struct TraceEvent {
  EventType type;         ///< which listener call it records
  std::uint8_t side = 0;  ///< opened/updated/closed: 0 forward, 1 backward search; 0 otherwise
  Cell cell;              ///< opened/updated/closed: the cell; meet/los: the first cell
  Cell other;             ///< opened/updated: the parent; meet/los: the second cell
  double g = 0;  ///< opened/updated: cost so far; iteration: the bound; los: 1 visible, 0 not
  double f = 0;  ///< opened/updated: priority
};

/// Keeps every event in order.
class TraceRecorder final : public SearchListener {
 public:
  void on_opened(Cell c, Cell p, double g, double f, int side) override {
    events_.push_back({EventType::opened, static_cast<std::uint8_t>(side), c, p, g, f});
  }
  void on_updated(Cell c, Cell p, double g, double f, int side) override {
    events_.push_back({EventType::updated, static_cast<std::uint8_t>(side), c, p, g, f});
  }
  void on_closed(Cell c, int side) override {
    events_.push_back({EventType::closed, static_cast<std::uint8_t>(side), c, {}, 0, 0});
  }
  void on_iteration(double bound) override {
    events_.push_back({EventType::iteration, 0, {}, {}, bound, 0});
  }
  void on_meet(Cell a, Cell b) override { events_.push_back({EventType::meet, 0, a, b, 0, 0}); }
  void on_line_of_sight(Cell a, Cell b, bool visible) override {
    events_.push_back({EventType::line_of_sight, 0, a, b, visible ? 1.0 : 0.0, 0});
  }

  /// Every event recorded so far, in the order the search reported them.
  [[nodiscard]] const std::vector<TraceEvent>& events() const noexcept { return events_; }
  /// Forgets the events (keeping their memory), e.g. before tracing another query.
  void clear() noexcept { events_.clear(); }

 private:
  std::vector<TraceEvent> events_;
};

/// Rebuilds the path a trace leads to: the last parent recorded for each cell (per side),
/// followed from the goal (or from the last meeting, for bidirectional searches) back to the
/// start. std::nullopt when the parents do not lead back to the start.
[[nodiscard]] std::optional<std::vector<Cell>> replay_path(const std::vector<TraceEvent>& events,
                                                           Cell start, Cell goal);

}  // namespace pathlab::search
