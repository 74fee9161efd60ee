// Trace helpers: event names and replaying a recorded trace to the path it leads to.
#include <pathlab/search/trace.hpp>

#include <algorithm>
#include <unordered_map>

namespace pathlab::search {

std::string_view to_string(EventType t) noexcept {
  switch (t) {
    case EventType::opened:
      return "opened";
    case EventType::updated:
      return "updated";
    case EventType::closed:
      return "closed";
    case EventType::iteration:
      return "iteration";
    case EventType::meet:
      return "meet";
    case EventType::line_of_sight:
      return "los";
  }
  return "?";
}

namespace {
std::uint64_t key(Cell c) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.x)) << 32) |
         static_cast<std::uint32_t>(c.y);
}

/// Follows parents from `from` to `root`; returns from..root or nothing on a broken chain.
std::optional<std::vector<Cell>> chain(const std::unordered_map<std::uint64_t, Cell>& parent,
                                       Cell from, Cell root) {
  std::vector<Cell> out{from};
  for (Cell c = from; !(c == root);) {
    auto it = parent.find(key(c));
    if (it == parent.end() || out.size() > parent.size() + 1) return std::nullopt;
    c = it->second;
    out.push_back(c);
  }
  return out;
}
}  // namespace

std::optional<std::vector<Cell>> replay_path(const std::vector<TraceEvent>& events, Cell start,
                                             Cell goal) {
  std::unordered_map<std::uint64_t, Cell> parent[2];
  std::optional<std::pair<Cell, Cell>> meet;
  for (const TraceEvent& e : events) {
    if (e.type == EventType::iteration) {
      // A new iteration rebuilds the tree from scratch.
      parent[0].clear();
      parent[1].clear();
    } else if (e.type == EventType::opened || e.type == EventType::updated) {
      if (!(e.cell == e.other)) parent[e.side & 1][key(e.cell)] = e.other;
    } else if (e.type == EventType::meet) {
      meet = std::make_pair(e.cell, e.other);
    }
  }
  if (!meet) {
    auto p = chain(parent[0], goal, start);
    if (p) std::reverse(p->begin(), p->end());
    return p;
  }
  auto fw = chain(parent[0], meet->first, start);
  auto bw = chain(parent[1], meet->second, goal);
  if (!fw || !bw) return std::nullopt;
  std::reverse(fw->begin(), fw->end());
  if (meet->first == meet->second) bw->erase(bw->begin());
  fw->insert(fw->end(), bw->begin(), bw->end());
  return fw;
}

}  // namespace pathlab::search
