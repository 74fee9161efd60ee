// The `subgoal` and `subgoal-ch` algorithms: the two-level subgoal graph of subgoal_graph.hpp
// and the contraction hierarchy of subgoal_ch.hpp behind the Pathfinder — built on the first
// query (or by prepare()), kept per grid, rebuilt when the walls change, and an A* fallback
// (with a note) where they do not answer optimally.
#include <algorithm>
#include <chrono>
#include <future>
#include <limits>
#include <system_error>
#include <thread>
#include <type_traits>
#include <vector>
#if defined(__linux__)
#include <sched.h>
#endif

#include <pathlab/search/prepare.hpp>

#include "anyangle_exact.hpp"
#include "engine.hpp"
#include "jps.hpp"  // run_astar_instead
#include "subgoal_ch.hpp"
#include "subgoal_graph.hpp"

namespace pathlab::search::detail {

void destroy(SubgoalCache* p) noexcept {
  delete p;
}
void destroy(HierarchyCache* p) noexcept {
  delete p;
}

std::size_t bytes_of(const SubgoalCache& c) noexcept {
  return sizeof(SubgoalCache) + c.search.memory_bytes();
}
std::size_t bytes_of(const HierarchyCache& c) noexcept {
  return sizeof(HierarchyCache) + c.search.memory_bytes();
}

template <>
SubgoalCache* cache_of<SubgoalCache>(const Pathfinder::Workspace& ws) noexcept {
  return ws.subgoal.get();
}
template <>
HierarchyCache* cache_of<HierarchyCache>(const Pathfinder::Workspace& ws) noexcept {
  return ws.hierarchy.get();
}
template <>
SubgoalCache& own_cache<SubgoalCache>(Pathfinder::Workspace& ws) {
  if (!ws.subgoal) ws.subgoal.reset(new SubgoalCache);
  return *ws.subgoal;
}
template <>
HierarchyCache& own_cache<HierarchyCache>(Pathfinder::Workspace& ws) {
  if (!ws.hierarchy) ws.hierarchy.reset(new HierarchyCache);
  return *ws.hierarchy;
}

template <class Cache>
Cache& graph_cache(Pathfinder::Workspace& ws, const Grid& g) {
  using Graph = typename Cache::graph_type;
  Cache& c = own_cache<Cache>(ws);
  if (c.graph && c.revision != g.revision() && !c.graph->matches(g)) c.graph.reset();
  if (!c.graph) {
    c.loaded = false;
    const auto t0 = std::chrono::steady_clock::now();
    c.graph = std::make_shared<Graph>(Graph::build(g));  // (not const: repair() may mutate it)
    c.repair_seconds = 0;
    ws.prep_us +=
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  }
  c.revision = g.revision();
  return c;
}

bool threads_available() {
  static const bool available = [] {
    try {
      std::thread([] {}).join();
      return true;
    } catch (const std::system_error&) {
      return false;
    }
  }();
  return available;
}

bool spare_core() {
  static const bool spare = [] {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set) > 1;
#endif
    return std::thread::hardware_concurrency() > 1;
  }();
  return spare;
}

namespace {

/// A finished build that came in at most this many changes behind is repaired up to date on
/// the query's thread (as a repair after an edit would be); further behind, off it.
constexpr std::size_t kLagRepairedHere = 2;

}  // namespace

/// Starts building the graph of g afresh on another thread, from a copy of the grid as it is
/// now (edits made meanwhile are repaired, or make it stale). False when no thread can be had.
template <class Cache>
bool start_rebuild(Cache& c, const Grid& g) {
  using Graph = typename Cache::graph_type;
  if (!threads_available()) return false;
  try {
    c.pending = std::async(std::launch::async, [copy = g] {
      return std::shared_ptr<const Graph>(std::make_shared<Graph>(Graph::build(copy)));
    });
  } catch (const std::system_error&) {
    return false;
  }
  c.pending_revision = g.revision();
  c.pending_lag = 0;
  return true;
}

/// Brings graph (which matched g at revision rev) up to date with g by repairing it, when its
/// kind can be repaired and g's change log reaches back to rev: in place when no other finder
/// shares it, else on a copy. False when it cannot be (graph unchanged), or when the repair
/// failed halfway (graph then reset: it must be built again).
template <class Graph>
bool repair_graph(std::shared_ptr<const Graph>& graph, std::uint64_t rev, const Grid& g) {
  std::vector<grid::Rect> areas;
  if (!g.changes_since(rev, areas)) return false;
  // Graphs are made non-const (make_shared<Graph>), so a sole owner may change its own.
  std::shared_ptr<Graph> own = graph.use_count() == 1 ? std::const_pointer_cast<Graph>(graph)
                                                      : std::make_shared<Graph>(*graph);
  try {
    // The work allowed grows with the changes (a rebuild taken over after many edits is
    // brought up to date in one repair: better once than with a worse graph until the next).
    const std::uint64_t work = Graph::kRepairWork * std::min<std::uint64_t>(areas.size(), 256);
    if (!own->repair(g, areas, work)) return false;
  } catch (const std::bad_alloc&) {
    if (own == graph) graph.reset();
    return false;
  }
  graph = std::move(own);
  return true;
}

/// Brings a finished build, made from the cells at pending_revision, up to date with g off the
/// query's thread (edits came while it was built: repairing them all at once here would stall
/// one query; a 0.26 s build on den520d under a toggle a query came in 860 edits behind, and
/// their repair took 0.2 s). Repaired on its own copy of g (in place: built is moved from), or
/// built again from it if the repair cannot be made. False, built untouched, when no thread can
/// be had (built is lost only if starting one fails after all).
template <class Cache>
bool start_catch_up(Cache& c, std::shared_ptr<const typename Cache::graph_type>& built,
                    const Grid& g, std::size_t lag) {
  using Graph = typename Cache::graph_type;
  if (!threads_available()) return false;
  try {
    c.pending = std::async(std::launch::async, [graph = std::move(built), copy = g,
                                                from = c.pending_revision]() mutable {
      if (!repair_graph(graph, from, copy)) {
        graph = std::shared_ptr<const Graph>(std::make_shared<Graph>(Graph::build(copy)));
      }
      return graph;
    });
  } catch (const std::system_error&) {
    return false;
  }
  c.pending_revision = g.revision();
  c.pending_lag = lag;
  return true;
}

template <class Cache>
Cache* graph_cache_now(Pathfinder::Workspace& ws, const Grid& g) {
  using Graph = typename Cache::graph_type;
  Cache& c = own_cache<Cache>(ws);
  if (!c.graph) return &graph_cache<Cache>(ws, g);  // the first build: now, on this thread
  if (c.revision == g.revision() || c.graph->matches(g)) {
    c.revision = g.revision();
    return &c;
  }
  if (c.pending.valid() &&
      c.pending.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    std::shared_ptr<const Graph> built;
    try {
      built = c.pending.get();  // leaves the future empty
    } catch (const std::exception&) {
      // The build ran out of memory: started again below, jps+ or jps answering meanwhile.
    }
    // Built from the cells at pending_revision: taken when the map is still so, or once
    // repaired up to now: here when few edits came meanwhile (or no fewer than the last time
    // it was brought up to date: a map changing faster than that is never caught up with),
    // else off this thread again (the graph as it is answering meanwhile).
    std::vector<grid::Rect> lag;
    if (built && c.pending_revision != g.revision() && g.changes_since(c.pending_revision, lag) &&
        lag.size() > kLagRepairedHere && (c.pending_lag == 0 || lag.size() < c.pending_lag) &&
        start_catch_up(c, built, g, lag.size())) {
      built.reset();  // (moved from)
    }
    if (built &&
        (c.pending_revision == g.revision() || repair_graph(built, c.pending_revision, g))) {
      // Edits made while it was built count from here (not asking for another rebuild at
      // once, which a map changing faster than it builds would never see the end of).
      std::const_pointer_cast<Graph>(built)->rebase();
      c.graph = std::move(built);
      c.loaded = false;
      c.revision = g.revision();
      c.repair_seconds = 0;
      return &c;
    }
  }
  // The graph is repaired (the first query after an edit uses it). Once repairs have grown it
  // too far (wants_rebuild), a fresh build starts on another thread; until it is in, edits are
  // still repaired while the graph stays fit to answer, and then no longer, jps+ answering (see
  // answer()); the build is then taken over, repaired up to date.
  if (c.graph->wants_rebuild()) {
    if (!c.pending.valid() && !start_rebuild(c, g)) {
      c.graph.reset();
      return &graph_cache<Cache>(ws, g);
    }
    if (!c.graph->fit()) return nullptr;
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (repair_graph(c.graph, c.revision, g)) {
    c.revision = g.revision();
    c.loaded = false;
    c.repair_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // A build is also started early, off this thread while another core is free for it, when
    // repairs grow dearer with age and have taken half as long as a build (as reading it, for
    // a loaded graph: a real build then follows soon, and sets the measure).
    if (!c.pending.valid() &&
        (c.graph->wants_rebuild() ||
         (Graph::kRepairsAge && spare_core() && 2 * c.repair_seconds > c.graph->build_seconds))) {
      (void)start_rebuild(c, g);
    }
    return &c;
  }
  if (!c.graph) return &graph_cache<Cache>(ws, g);  // a repair failed halfway
  // One rebuild at a time, and never waited for: while it runs, jps+ or jps answers.
  if (c.pending.valid()) return nullptr;
  if (!start_rebuild(c, g)) {
    c.graph.reset();  // no thread to be had: rebuild here, as before the map could change
    return &graph_cache<Cache>(ws, g);
  }
  return nullptr;
}

template SubgoalCache& graph_cache(Pathfinder::Workspace&, const Grid&);
template HierarchyCache& graph_cache(Pathfinder::Workspace&, const Grid&);
template SubgoalCache* graph_cache_now(Pathfinder::Workspace&, const Grid&);
template HierarchyCache* graph_cache_now(Pathfinder::Workspace&, const Grid&);

Algorithm rebuild_stand_in(const Grid& g) noexcept {
  return table_applies(g) && cells_of(g) <= kStandInTableCells ? Algorithm::jps_plus
                                                               : Algorithm::jps;
}

namespace {

/// Whether the stand-in on g, for queries with o, uses jps+'s landmarks.
bool stand_in_uses_marks(const Grid& g, const Options& o) noexcept {
  return stand_in_marks(g) && o.effective_heuristic() == Heuristic::octile;
}

}  // namespace

void start_stand_in_marks(Pathfinder::Workspace& ws, const Grid& g, const Options& o,
                          double within_s) {
  if (!stand_in_uses_marks(g, o) || rebuild_stand_in(g) != Algorithm::jps_plus) return;
  if (!ws.jps) ws.jps.reset(new JpsCache);
  JpsCache& c = *ws.jps;
  // One build at a time, and not again after landmarks that did not repay their build (the
  // backoff of jps_cache) or on a single core (there the debt rule of ensure_landmarks).
  if (c.marks_pending.valid() || !c.marks.empty() || c.marks_backoff > 1 ||
      !Landmarks::applies(g) || !spare_core() || !threads_available()) {
    return;
  }
  // Their last build's time, or 45 ns a distance (den520d's sixteen took 35-47 ms before a
  // build's searches ran in buckets, about twice what they take since; kept, not tuned again).
  const double price_s = c.marks_price_us > 0
                             ? c.marks_price_us * 1e-6
                             : 45e-9 * static_cast<double>(g.padded_size()) * Landmarks::kMax;
  if (price_s > within_s) return;
  const double straight = o.moves.straight_cost(), diagonal = o.moves.diagonal_cost();
  try {
    c.marks_pending = std::async(std::launch::async, [copy = g, straight, diagonal] {
      const auto t0 = std::chrono::steady_clock::now();
      Components comps;
      comps.build(copy);
      Landmarks m;
      m.build(copy, comps, straight, diagonal);
      m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return m;
    });
  } catch (const std::system_error&) {
    return;
  }
  c.marks_pending_revision = g.revision();
}

JpsCache& stand_in_cache(Pathfinder::Workspace& ws, const Grid& g, const Options& o) {
  JpsCache& c = jps_cache(ws, g);
  // A first table: the landmarks are not built at once, as jps+'s own are (a stall of 40 ms
  // on den520d, 0.3 s on a 512x512 map). They wait until the queries without them would have
  // saved their time (as after a failed repair), unless another core builds them meanwhile.
  if (!c.table && c.marks.empty()) c.marks_deferred = true;
  if (!stand_in_uses_marks(g, o)) return c;
  if (!c.marks_pending.valid()) {
    start_stand_in_marks(ws, g, o, std::numeric_limits<double>::infinity());
    return c;
  }
  if (c.marks_pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return c;
  Landmarks built;
  try {
    built = c.marks_pending.get();  // leaves the future empty
  } catch (const std::exception&) {
    c.marks_backoff = std::numeric_limits<double>::infinity();  // no room: never again
    return c;
  }
  // Built from the cells at marks_pending_revision: repaired up to now as an edit's repair
  // would be, with the budget of the edits since (a build that fell too far behind, or whose
  // repair would settle as many cells as a build, is dropped: the next call starts another).
  std::vector<grid::Rect> lag;
  const bool current =
      c.marks.empty() && built.fits(o.moves.straight_cost(), o.moves.diagonal_cost()) &&
      (c.marks_pending_revision == g.revision() ||
       (g.changes_since(c.marks_pending_revision, lag) &&
        built.repair(g, lag,
                     (built.cells() / 16 + 64) *
                         static_cast<std::int64_t>(std::min<std::size_t>(lag.size(), 16))) &&
        !built.stale()));
  if (current) {
    c.marks = std::move(built);
    c.marks_in(c.marks_pending_revision != g.revision());
  }
  return c;
}

namespace {

template <class Cache, class L>
Status answer(Cache* ready, const Grid& g, const Options& o, NodeId s, NodeId t,
              Pathfinder::Workspace& ws, Result& out, L& listener) {
  if (ready == nullptr) {
    // The map changed and the graph is being rebuilt off this thread: jump point search
    // answers meanwhile, the same optimal costs: jps+ where its table is small (built once on
    // this thread, then repaired after each edit in microseconds), else jps.
    const Algorithm by = rebuild_stand_in(g);
    set_fallback(out, fallback_info(o.algorithm, Fallback::rebuilding, by));
    if (by == Algorithm::jps_plus) (void)stand_in_cache(ws, g, o);
    Options j = o;
    j.algorithm = by;
    ws.standing_in = true;
    struct Reset {  // (also when the search throws)
      bool& flag;
      ~Reset() { flag = false; }
    } reset{ws.standing_in};
    return run_jps(g, j, s, t, ws, out, listener);
  }
  Cache& c = *ready;
  double cost = 0;
  std::uint64_t expanded = 0;
  const Status status =
      c.search.find(*c.graph, g, g.cell(s), g.cell(t), out.path, cost, expanded, o.node_limit);
  out.stats.expanded = expanded;
  out.stats.generated = expanded;
  // The search runs over subgoals, not cells: the trace shows the path's cells as closed, in
  // order, so that it replays to the result.
  // (Its own expansions are over subgoals and are not traced.)
  if constexpr (L::enabled) {
    if (status == Status::found) {
      Cell prev = g.cell(s);
      double gc = 0;
      for (const Cell c2 : out.path) {
        if (!(c2 == prev)) gc += grid::step_cost(g, o.moves, prev, c2);
        listener.opened(g.id(c2), g.id(prev), gc, gc, 0);
        listener.closed(g.id(c2), 0);
        prev = c2;
      }
    }
  }
  return status;
}

}  // namespace

template <class L>
Status run_subgoal(const Grid& g, const Options& o, NodeId s, NodeId t, Pathfinder::Workspace& ws,
                   Result& out, L& listener) {
  if (!SubgoalGraph::applies(g, o.moves)) {
    set_fallback(out, fallback_on(g, o));
    return run_astar_instead(g, o, s, t, ws, out, listener);
  }
  if (o.algorithm == Algorithm::subgoal_ch) {
    return answer(graph_cache_now<HierarchyCache>(ws, g), g, o, s, t, ws, out, listener);
  }
  return answer(graph_cache_now<SubgoalCache>(ws, g), g, o, s, t, ws, out, listener);
}

template Status run_subgoal(const Grid&, const Options&, NodeId, NodeId, Pathfinder::Workspace&,
                            Result&, NullListener&);
template Status run_subgoal(const Grid&, const Options&, NodeId, NodeId, Pathfinder::Workspace&,
                            Result&, DynamicListener&);

}  // namespace pathlab::search::detail

namespace pathlab::search {

/// preparation_state and wait_prepared: the finder's grid, options and caches.
struct PreparationAccess {
  static const grid::Grid* searched(const Pathfinder& f) noexcept { return f.searched_grid(); }
  static Pathfinder::Workspace& ws(const Pathfinder& f) noexcept { return *f.ws_; }
};

namespace {

/// The state of a subgoal method's cache (the Fallback checks passed).
template <class Cache>
PrepareState graph_state(const Cache* c, const grid::Grid& g) noexcept {
  if (c == nullptr || !c->graph) return PrepareState::missing;
  if (c->revision == g.revision()) return PrepareState::ready;
  if (c->pending.valid()) {
    if (c->pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      return PrepareState::building;
    }
    // Finished: the next query takes it over if it was built from these cells.
    return c->pending_revision == g.revision() ? PrepareState::ready : PrepareState::stale;
  }
  return c->graph->matches(g) ? PrepareState::ready : PrepareState::stale;
}

/// Whether the next query repairs the cache's graph instead of waiting for a rebuild (after
/// small edits).
template <class Cache>
bool repairs_next(const Cache* c, const grid::Grid& g) noexcept {
  if (c == nullptr || !c->graph || (c->graph->wants_rebuild() && !c->graph->fit())) return false;
  try {
    std::vector<grid::Rect> areas;
    return g.changes_since(c->revision, areas) && c->graph->repairable(g, areas);
  } catch (const std::bad_alloc&) {
    return false;
  }
}

/// Calls f with a null pointer of the cache type of subgoal method a.
template <class F>
decltype(auto) by_graph_cache(Algorithm a, F&& f) {
  if (a == Algorithm::subgoal_ch) return f(static_cast<detail::HierarchyCache*>(nullptr));
  return f(static_cast<detail::SubgoalCache*>(nullptr));
}

}  // namespace

std::string_view to_string(PrepareState s) noexcept {
  switch (s) {
    case PrepareState::none:
      return "none";
    case PrepareState::missing:
      return "missing";
    case PrepareState::stale:
      return "stale";
    case PrepareState::building:
      return "building";
    case PrepareState::ready:
      return "ready";
  }
  return "none";
}

PrepareState preparation_state(const Pathfinder& f) noexcept {
  const Options& o = f.options();
  if (!uses_preparation(o.algorithm)) return PrepareState::none;
  const grid::Grid* g = PreparationAccess::searched(f);
  if (g == nullptr || detail::fallback_on(*g, o).fallback != Fallback::none) {
    return PrepareState::none;
  }
  const Pathfinder::Workspace& ws = PreparationAccess::ws(f);
  if (o.algorithm == Algorithm::anyangle_labels) {
    if (detail::ready_labels(ws, *g, o.moves.diagonal) != nullptr) return PrepareState::ready;
    if (detail::labels_refused(ws, *g, o.moves.diagonal)) return PrepareState::none;
    return detail::has_labels(ws) ? PrepareState::stale : PrepareState::missing;
  }
  if (o.algorithm == Algorithm::jps_plus) {
    if (!ws.jps || !ws.jps->table) return PrepareState::missing;
    return ws.jps->up_to_date(*g) ? PrepareState::ready : PrepareState::stale;
  }
  return by_graph_cache(o.algorithm, [&](auto* tag) {
    using Cache = std::remove_pointer_t<decltype(tag)>;
    return graph_state(detail::cache_of<Cache>(ws), *g);
  });
}

bool wait_prepared(Pathfinder& f, std::chrono::milliseconds timeout) noexcept {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  PrepareState last = PrepareState::none;
  for (;;) {
    const PrepareState s = preparation_state(f);
    switch (s) {
      case PrepareState::none:
        return true;
      case PrepareState::ready:
        // Takes a finished rebuild over (or notes that the walls still match).
        (void)prepare(f);
        if (preparation_state(f) == PrepareState::ready) return true;
        break;  // the finished build failed: the loop starts another
      case PrepareState::missing:
      case PrepareState::stale:
        // Once per state: a second time in a row means the build could not be made.
        if (s == last) return false;
        (void)prepare(f);  // builds or repairs now (jps+, a first graph), or starts the rebuild
        break;
      case PrepareState::building: {
        const grid::Grid* g = PreparationAccess::searched(f);
        if (g == nullptr) return false;
        const bool done = by_graph_cache(f.options().algorithm, [&](auto* tag) {
          using Cache = std::remove_pointer_t<decltype(tag)>;
          const Cache* c = detail::cache_of<Cache>(PreparationAccess::ws(f));
          return c == nullptr || !c->pending.valid() ||
                 c->pending.wait_until(deadline) == std::future_status::ready;
        });
        if (!done) return false;
        break;
      }
    }
    last = s;
  }
}

FallbackInfo fallback_for(const Pathfinder& f) noexcept {
  const Options& o = f.options();
  const grid::Grid* g = PreparationAccess::searched(f);
  if (g == nullptr) return {o.algorithm, Fallback::none, {}};
  const FallbackInfo fixed = detail::fallback_on(*g, o);
  if (o.algorithm == Algorithm::anyangle_labels && fixed.fallback == Fallback::none &&
      detail::labels_refused(PreparationAccess::ws(f), *g, o.moves.diagonal)) {
    return detail::fallback_info(o.algorithm, Fallback::map_too_large, Algorithm::anyangle_exact);
  }
  if (fixed.fallback != Fallback::none || !uses_preparation(o.algorithm) ||
      o.algorithm == Algorithm::jps_plus || o.algorithm == Algorithm::anyangle_labels) {
    return fixed;
  }
  const PrepareState s = preparation_state(f);
  if ((s == PrepareState::stale || s == PrepareState::building) &&
      by_graph_cache(o.algorithm, [&](auto* tag) {
        using Cache = std::remove_pointer_t<decltype(tag)>;
        return repairs_next(detail::cache_of<Cache>(PreparationAccess::ws(f)), *g);
      })) {
    return fixed;  // the next query repairs the hierarchy and answers with it
  }
  return s == PrepareState::stale || s == PrepareState::building
             ? detail::fallback_info(o.algorithm, Fallback::rebuilding,
                                     detail::rebuild_stand_in(*g))
             : fixed;
}

}  // namespace pathlab::search
