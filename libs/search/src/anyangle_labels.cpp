// anyangle-labels' preprocessing (shared docs/ALGORITHMS.md, "Exact any-angle reference"): exact
// hub labels over the visibility graph of the map's corner vertices, and their files.
//
// The graph is anyangle-exact's (anyangle_exact.hpp), filled whole. Labels come from pruned
// landmark labelling (Akiba, Iwata & Yoshida, SIGMOD 2013): vertices are taken in rank order
// (most edges first); from each, a Dijkstra search labels every vertex it settles whose
// distance the labels made so far do not already give, and stops there. Two refinements keep it
// small and exact on this graph:
//   - the search from a hub relaxes only taut successors (ExactCache::taut_edges): an edge that
//     does not wrap around its vertex's wall is never on a shortest path, whatever parent of
//     equal cost the vertex kept;
//   - vertices of a lower rank are not relaxed into: their own labels already cover them.
// A distance counts as covered when the labels give it to within a relative 1e-12 (the sums of
// square roots of two equal paths differ in the last bits).
// A query (anyangle_exact.cpp) casts from the start and the goal as the online search does, then
// takes the least d(s, a) + d(a, h) + d(h, b) + d(b, g) over the vertices a the start sees, b the
// goal sees, and their common hubs h; the path is unpacked along the labels' next vertices.
#include <chrono>
#include <cmath>
#include <istream>
#include <limits>
#include <numeric>
#include <ostream>
#include <queue>

#if defined(__GLIBC__)
#include <malloc.h>  // malloc_trim
#endif

#include "anyangle_exact.hpp"
#include "subgoal_graph.hpp"  // the prepared files' framing

namespace pathlab::search::detail {

namespace {

constexpr char kLabelsMagic[8] = {'P', 'L', 'A', 'A', 'L', 'B', '\r', '\n'};
constexpr std::uint32_t kUnknownRank = 0xFFFFFFFFu;
/// The budget (issue 30's preprocessed tier: 512 MB): a visibility graph of more edges (12
/// bytes each) or labels of more entries (16 bytes each, plus their build's copy) are not
/// built, and anyangle-exact answers instead. Every shared Moving AI map but random512-10-0
/// (5.8M edges) fits: Boston_0_1024 has the most edges (1.8M), maze512-1-0 the most entries
/// (14M).
constexpr std::uint64_t kMaxEdges = 4'000'000;
constexpr std::uint64_t kMaxEntries = 16'000'000;
struct TooLarge {};
/// Sources of the shortest-path trees that rank the vertices.
constexpr std::uint32_t kSamples = 64;

struct Entry {
  std::uint32_t hub;
  std::uint32_t next;
  double dist;
};

}  // namespace

std::size_t AnyAngleLabels::bytes() const noexcept {
  return sizeof(AnyAngleLabels) + capacity_bytes(order) + capacity_bytes(begin) +
         capacity_bytes(hub) + capacity_bytes(next) + capacity_bytes(dist);
}

ExactCache& exact_cache(Pathfinder::Workspace& ws, const Grid& g, DiagonalRule r) {
  if (!ws.exact) ws.exact.reset(new ExactCache);
  ExactCache& c = *ws.exact;
  if (!c.up_to_date(g, r)) c.build(g, r);
  return c;
}

const std::shared_ptr<const AnyAngleLabels>* ready_labels(const Pathfinder::Workspace& ws,
                                                          const Grid& g, DiagonalRule r) noexcept {
  return ws.exact && ws.exact->labels_ready(g, r) ? &ws.exact->labels : nullptr;
}

bool has_labels(const Pathfinder::Workspace& ws) noexcept {
  return ws.exact && ws.exact->labels;
}

const AnyAngleLabels* labels_now(Pathfinder::Workspace& ws, const Grid& g, DiagonalRule r) {
  ExactCache& c = exact_cache(ws, g, r);
  if (c.labels_ready(g, r)) return c.labels.get();
  if (c.labels_refused(g, r)) return nullptr;
  std::shared_ptr<const AnyAngleLabels> built = build_anyangle_labels(c);
  if (!built) {
    c.refused_grid = &g;
    c.refused_revision = g.revision();
    c.refused_rule = r;
    return nullptr;
  }
  adopt_labels(ws, g, std::move(built));
  return c.labels.get();
}

bool labels_refused(const Pathfinder::Workspace& ws, const Grid& g, DiagonalRule r) noexcept {
  return ws.exact && ws.exact->labels_refused(g, r);
}

void adopt_labels(Pathfinder::Workspace& ws, const Grid& g,
                  std::shared_ptr<const AnyAngleLabels> labels) {
  ExactCache& c = exact_cache(ws, g, labels->rule);
  c.labels = std::move(labels);
  c.labels_grid = &g;
  c.labels_revision = g.revision();
}

bool ExactCache::labels_refused(const Grid& g, DiagonalRule r) const noexcept {
  return refused_grid == &g && refused_revision == g.revision() && refused_rule == r;
}

bool ExactCache::labels_ready(const Grid& g, DiagonalRule r) const noexcept {
  return labels != nullptr && labels_grid == &g && labels_revision == g.revision() &&
         labels->rule == r;
}

std::shared_ptr<const AnyAngleLabels> build_anyangle_labels(ExactCache& c) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto n = static_cast<std::uint32_t>(c.vertex_count());
  std::uint64_t los = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    c.ensure_edges(v, los);
    // Over the budget, or on course for it past the first sixteenth of the vertices (numbered
    // row by row): refused early rather than after the whole fill.
    const std::uint64_t edges = c.adj.size();
    if (edges > kMaxEdges || (v >= n / 16 && 4 * edges * n > 5 * kMaxEdges * (v + 1ull))) {
      return nullptr;
    }
  }

  auto out = std::make_shared<AnyAngleLabels>();
  out->width = c.width;
  out->height = c.height;
  out->rule = c.rule;
  out->n = n;
  out->edges = c.adj.size();
  // Dijkstra over the taut edges from h: settle(v, d) says whether to expand v (false: it is
  // covered, and not expanded); skip(w) leaves vertex w out.
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> dist(n, kInf);
  std::vector<std::uint32_t> parent(n), touched;
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  auto search = [&](std::uint32_t h, auto&& settle, auto&& skip) {
    dist[h] = 0;
    parent[h] = h;
    touched.push_back(h);
    open.push({0.0, h});
    while (!open.empty()) {
      const double d = open.top().first;
      const std::uint32_t v = open.top().second;
      open.pop();
      if (d > dist[v] || !settle(v, d)) continue;
      const std::uint32_t p = parent[v];
      const std::int64_t ax = v == h ? 0 : c.vx[p] - c.vx[v];
      const std::int64_t ay = v == h ? 0 : c.vy[p] - c.vy[v];
      c.taut_edges(v, ax, ay, [&](const ExactCache::Edge& edge) {
        const std::uint32_t w = edge.v;
        if (skip(w)) return;
        const double nd = d + std::sqrt(static_cast<double>(std::int64_t{edge.dx} * edge.dx +
                                                            std::int64_t{edge.dy} * edge.dy));
        if (!(nd < dist[w])) return;
        if (dist[w] == kInf) touched.push_back(w);
        dist[w] = nd;
        parent[w] = v;
        open.push({nd, w});
      });
    }
  };
  auto reset = [&] {
    for (const std::uint32_t v : touched) dist[v] = kInf;
    touched.clear();
  };

  // The order: vertices on many shortest paths first. Each vertex scores the sizes of its
  // subtrees in the shortest-path trees of kSamples sources spread over the ids (a sampled
  // betweenness); ties by degree. Small labels follow from hubs that cover many paths early.
  std::vector<double> score(n, 0.0);
  {
    std::vector<std::uint32_t> settled, size(n, 0);
    const std::uint32_t samples = std::min<std::uint32_t>(n, kSamples);
    for (std::uint32_t k = 0; k < samples; ++k) {
      const auto src = static_cast<std::uint32_t>((std::uint64_t{k} * n + n / 2) / samples);
      settled.clear();
      search(
          src,
          [&](std::uint32_t v, double) {
            settled.push_back(v);
            return true;
          },
          [](std::uint32_t) { return false; });
      for (auto it = settled.rbegin(); it != settled.rend(); ++it) {
        size[*it] += 1;
        if (parent[*it] != *it) size[parent[*it]] += size[*it];
        score[*it] += size[*it];
      }
      for (const std::uint32_t v : settled) size[v] = 0;
      reset();
    }
  }
  out->order.resize(n);
  std::iota(out->order.begin(), out->order.end(), 0u);
  auto degree = [&](std::uint32_t v) { return c.adj_end[v] - c.adj_begin[v]; };
  std::sort(out->order.begin(), out->order.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (score[a] != score[b]) return score[a] > score[b];
    if (degree(a) != degree(b)) return degree(a) > degree(b);
    return a < b;
  });
  std::vector<std::uint32_t> rank(n);
  for (std::uint32_t r = 0; r < n; ++r) rank[out->order[r]] = r;

  // Pruned labelling in that order.
  std::vector<std::vector<Entry>> label(n);
  std::vector<double> hub_dist(n, kInf);  // by rank: the current hub's own label
  std::uint64_t entries = 0;
  try {
    for (std::uint32_t r = 0; r < n; ++r) {
      const std::uint32_t h = out->order[r];
      for (const Entry& e : label[h]) hub_dist[e.hub] = e.dist;
      search(
          h,
          [&](std::uint32_t v, double d) {
            const double slack = d * 1e-12;
            for (const Entry& e : label[v]) {
              if (hub_dist[e.hub] + e.dist <= d + slack) return false;
            }
            if (++entries > kMaxEntries) throw TooLarge{};
            label[v].push_back({r, parent[v], d});
            return true;
          },
          [&](std::uint32_t w) { return rank[w] <= r; });
      reset();
      for (const Entry& e : label[h]) hub_dist[e.hub] = kInf;
    }
  } catch (const TooLarge&) {
    return nullptr;
  }

  std::size_t m = 0;
  for (const auto& l : label) m += l.size();
  if (m >= std::numeric_limits<std::uint32_t>::max()) throw std::bad_alloc();
  out->begin.resize(std::size_t{n} + 1);
  out->hub.reserve(m);
  out->next.reserve(m);
  out->dist.reserve(m);
  for (std::uint32_t v = 0; v < n; ++v) {
    out->begin[v] = static_cast<std::uint32_t>(out->hub.size());
    for (const Entry& e : label[v]) {
      out->hub.push_back(e.hub);
      out->next.push_back(e.next);
      out->dist.push_back(e.dist);
    }
    std::vector<Entry>().swap(label[v]);
#if defined(__GLIBC__)
    // The freed labels go back to the system as the arrays fill, not after: the peak stays
    // near the labels' size plus a part of the arrays (maze512-1-0: 555 MB without this).
    if ((v & 8191) == 8191) malloc_trim(0);
#endif
  }
  out->begin[n] = static_cast<std::uint32_t>(m);
  out->build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

bool AnyAngleLabels::save(std::ostream& out, const Grid& g) const {
  std::string head;
  put(head, n);
  put(head, static_cast<std::uint32_t>(rule));
  put(head, static_cast<std::uint32_t>(hub.size()));
  put(head, edges);
  return write_framed(
      out, kLabelsMagic, kFormatVersion, width, height, g.checksum(),
      {head, bytes_of(order), bytes_of(begin), bytes_of(hub), bytes_of(next), bytes_of(dist)});
}

std::optional<AnyAngleLabels> AnyAngleLabels::load(std::istream& in, const Grid& g,
                                                   const ExactCache& c) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto nv = static_cast<std::uint64_t>(c.vertex_count());
  // Labels hold at most one entry per pair of vertices: larger sizes are refused unread.
  const std::uint64_t max_bytes = 64 + 12 * (nv + 1) + 16 * nv * nv;
  const std::optional<std::string> framed = read_framed(
      in, kLabelsMagic, kFormatVersion, g, std::min<std::uint64_t>(max_bytes, 1ull << 34));
  if (!framed) return std::nullopt;
  PayloadReader r{*framed};
  AnyAngleLabels l;
  std::uint32_t rule = 0, m = 0;
  if (!r.get(l.n) || !r.get(rule) || !r.get(m) || !r.get(l.edges)) return std::nullopt;
  if (l.n != nv || rule != static_cast<std::uint32_t>(c.rule) ||
      std::uint64_t{m} > std::uint64_t{l.n} * l.n) {
    return std::nullopt;
  }
  l.rule = c.rule;
  l.width = g.width();
  l.height = g.height();
  if (!r.get_vector(l.order, l.n) || !r.get_vector(l.begin, std::size_t{l.n} + 1) ||
      !r.get_vector(l.hub, m) || !r.get_vector(l.next, m) || !r.get_vector(l.dist, m) ||
      r.at != framed->size()) {
    return std::nullopt;
  }
  // The shape the queries rely on: the order a permutation, labels in range and by rank, each
  // vertex its own hub at 0, lengths finite. (A forged file may still give wrong lengths; the
  // queries stay in bounds whatever it holds.)
  std::vector<std::uint32_t> rank(l.n, kUnknownRank);
  for (std::uint32_t i = 0; i < l.n; ++i) {
    if (l.order[i] >= l.n || rank[l.order[i]] != kUnknownRank) return std::nullopt;
    rank[l.order[i]] = i;
  }
  if (l.begin[0] != 0 || l.begin[l.n] != m) return std::nullopt;
  for (std::uint32_t v = 0; v < l.n; ++v) {
    if (l.begin[v] > l.begin[v + 1]) return std::nullopt;
    bool self = false;
    for (std::uint32_t k = l.begin[v]; k < l.begin[v + 1]; ++k) {
      if (l.hub[k] >= l.n || l.next[k] >= l.n || !std::isfinite(l.dist[k]) || l.dist[k] < 0 ||
          (k > l.begin[v] && l.hub[k] <= l.hub[k - 1])) {
        return std::nullopt;
      }
      self = self || (l.hub[k] == rank[v] && l.dist[k] == 0);
    }
    if (!self) return std::nullopt;
  }
  l.loaded = true;
  l.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return l;
}

}  // namespace pathlab::search::detail
