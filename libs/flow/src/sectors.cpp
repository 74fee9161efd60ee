// Sectored flow fields (sectors.hpp). Regions are labelled per sector from runs of usable cells
// (the unit's view, with the moves that stay in the sector); a sector's links (portals) are found
// by scanning its border cells' moves into the neighbouring sectors, which labels those. The way
// from a region to the goals is an A* over regions (edge weight and heuristic: octile distances
// between region centroids and to the nearest goal). The field on the corridor is the whole-map
// field's Dijkstra with the moves into cells outside the corridor left out.
#include <pathlab/flow/sectors.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <queue>

#include <pathlab/grid/los.hpp>

#include "detail.hpp"

namespace pathlab::flow {
using grid::NodeId;
using namespace detail;

struct SectorField::Impl {
  const grid::Grid* grid = nullptr;
  std::shared_ptr<const grid::Grid> view;
  Options options;
  int s = kDefaultSector, sx = 0, sy = 0, w = 0, h = 0;
  std::vector<Cell> goals;
  std::vector<Cell> required;  // every cell required so far (update() requires them again)
  std::uint64_t revision = 0;  // the grid's when the regions were labelled
  Stats stats;
  /// On a grid that is not plain (hex, edge walls, links): the one whole-map field that serves
  /// every read instead of the sectors (see sectors.hpp).
  std::optional<Field> whole;
  /// Switches to the whole-map field (built, or updated, for the grid as it is now).
  void go_whole() {
    if (!whole || whole->empty()) {
      // The goals the unit can use now (an edit may have walled one: it keeps no distance, as
      // in Field::update); with none, every cell is unreachable.
      const auto v = grid->view(options.unit);
      std::vector<Cell> usable;
      for (const Cell c : goals) {
        if (v->passable(c)) usable.push_back(c);
      }
      whole.emplace();
      if (usable.empty() || whole->build(*grid, usable, options)) {
        whole->build(*grid, std::vector<Cell>{}, options);  // refused: an empty field
      }
      stats = whole->stats();
    } else {
      stats = whole->update(*grid);
    }
    revision = grid->revision();
    corridor = 0;
    for (const double d : whole->distances()) corridor += std::isfinite(d) ? 1 : 0;
  }

  struct Sector {
    bool labelled = false, linked = false, built = false;
    std::vector<std::int32_t> region;  // local index -> region id, -1 where the unit cannot be
    std::vector<double> dist;          // the field on this sector's corridor cells
    std::vector<std::int8_t> dir;
  };
  struct Region {
    int sector = 0;
    double cx = 0, cy = 0;  // centroid of its cells
    bool corridor = false, goal = false, dead = false;
    std::vector<int> links;
  };
  std::vector<Sector> sectors;
  std::vector<Region> regions;
  std::int64_t labelled = 0, corridor = 0;

  int shift = 6;  // log2(s): sectors are a power of two wide
  bool widen = true;
  [[nodiscard]] int sector_of(int x, int y) const noexcept {
    return (y >> shift) * sx + (x >> shift);
  }
  [[nodiscard]] std::size_t local(int x, int y) const noexcept {
    return static_cast<std::size_t>(((y & (s - 1)) << shift) + (x & (s - 1)));
  }
  [[nodiscard]] double octile(double dx, double dy) const noexcept {
    dx = std::abs(dx);
    dy = std::abs(dy);
    const double lo = std::min(dx, dy), hi = std::max(dx, dy);
    if (options.moves.diagonal == grid::DiagonalRule::never) {
      return (dx + dy) * options.moves.straight_cost();
    }
    return lo * options.moves.diagonal_cost() + (hi - lo) * options.moves.straight_cost();
  }

  /// Labels sector k's regions: connected components of the unit's usable cells with the moves
  /// that stay inside the sector. Under every corner rule but `always`, a legal diagonal move
  /// joins cells that are already 4-connected through a free corner, so the components are the
  /// 4-connected ones (plus the diagonal links `always` adds). Labelling works on runs of usable
  /// cells read 64 at a time from the wall bits: a run joins every run of the row above that it
  /// overlaps (or touches diagonally, under `always`), through a union-find.
  void label(int k) {
    Sector& sec = sectors[static_cast<std::size_t>(k)];
    if (sec.labelled) return;
    sec.labelled = true;
    ++labelled;
    const int x0 = (k % sx) * s, y0 = (k / sx) * s;
    const int ww = std::min(w, x0 + s) - x0, hh = std::min(h, y0 + s) - y0;
    sec.region.assign(static_cast<std::size_t>(s) * static_cast<std::size_t>(s), -1);
    const grid::Grid& v = *view;
    const std::vector<std::uint64_t>& words = v.wall_words();
    // Wall bits of the `n` (<= 64) cells from padded id p on, as usable-cell bits.
    auto usable = [&words](NodeId p, int n) {
      const std::size_t wi = p >> 6;
      const unsigned sh = p & 63u;
      std::uint64_t walls = words[wi] >> sh;
      if (sh != 0 && wi + 1 < words.size()) walls |= words[wi + 1] << (64u - sh);
      const std::uint64_t mask = n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
      return ~walls & mask;
    };
    const int touch = options.moves.diagonal == grid::DiagonalRule::always ? 1 : 0;
    std::vector<std::int32_t>& parent = scratch_parent;
    parent.clear();
    auto find = [&parent](std::int32_t a) {
      while (parent[static_cast<std::size_t>(a)] != a) {
        parent[static_cast<std::size_t>(a)] =
            parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(a)])];
        a = parent[static_cast<std::size_t>(a)];
      }
      return a;
    };
    std::vector<Run>& runs = scratch_runs;
    runs.clear();
    std::size_t above = 0, above_end = 0;  // the runs of the row above: [above, above_end)
    for (int ly = 0; ly < hh; ++ly) {
      const std::size_t row_begin = runs.size();
      const NodeId p = v.id(x0, y0 + ly);
      int open = -1;  // the start of the run under way, which may span 64-cell words
      for (int cx = 0; cx < ww; cx += 64) {
        const int n = std::min(64, ww - cx);
        const std::uint64_t word = usable(p + static_cast<NodeId>(cx), n);
        int at = 0;
        while (at < n) {
          if (open < 0) {
            const std::uint64_t rest = word >> at;
            if (rest == 0) break;
            at += std::countr_zero(rest);
            open = cx + at;
          }
          at += std::countr_one(word >> at);  // the bits past n are clear
          if (at < n) {
            runs.push_back(Run{ly, open, cx + at, -1});
            open = -1;
          }
        }
      }
      if (open >= 0) runs.push_back(Run{ly, open, ww, -1});
      // Join each new run to the runs above it.
      std::size_t j = above;
      for (std::size_t r = row_begin; r < runs.size(); ++r) {
        Run& run = runs[r];
        while (j < above_end && runs[j].b + touch <= run.a) ++j;
        for (std::size_t q = j; q < above_end && runs[q].a < run.b + touch; ++q) {
          const std::int32_t other = find(runs[q].label);
          if (run.label < 0) {
            run.label = other;
          } else {
            const std::int32_t mine = find(run.label);
            if (mine != other)
              parent[static_cast<std::size_t>(std::max(mine, other))] = std::min(mine, other);
          }
        }
        if (run.label < 0) {
          run.label = static_cast<std::int32_t>(parent.size());
          parent.push_back(run.label);
        }
      }
      above = row_begin;
      above_end = runs.size();
    }
    // Roots become region ids, in the order of their first cell (runs are in row order).
    std::vector<std::int32_t>& id_of = scratch_ids;
    id_of.assign(parent.size(), -1);
    std::vector<double> sumx, sumy, count;
    std::int32_t* lab = sec.region.data();
    for (const Run& run : runs) {
      const std::int32_t root = find(run.label);
      if (id_of[static_cast<std::size_t>(root)] < 0) {
        id_of[static_cast<std::size_t>(root)] =
            static_cast<std::int32_t>(regions.size() + sumx.size());
        sumx.push_back(0);
        sumy.push_back(0);
        count.push_back(0);
      }
      const std::int32_t id = id_of[static_cast<std::size_t>(root)];
      std::fill(lab + static_cast<std::ptrdiff_t>(run.y) * s + run.a,
                lab + static_cast<std::ptrdiff_t>(run.y) * s + run.b, id);
      const std::size_t r = static_cast<std::size_t>(id) - regions.size();
      const double len = run.b - run.a;
      sumx[r] += len * (x0 + 0.5) + (run.a + run.b - 1) * len / 2;
      sumy[r] += len * (y0 + run.y + 0.5);
      count[r] += len;
    }
    for (std::size_t r = 0; r < sumx.size(); ++r) {
      Region reg;
      reg.sector = k;
      reg.cx = sumx[r] / count[r];
      reg.cy = sumy[r] / count[r];
      regions.push_back(std::move(reg));
    }
    for (const Cell g : goals) {
      if (sector_of(g.x, g.y) == k && sec.region[local(g.x, g.y)] >= 0) {
        regions[static_cast<std::size_t>(sec.region[local(g.x, g.y)])].goal = true;
      }
    }
  }
  struct Run {
    int y, a, b;  // local row, cells [a, b)
    std::int32_t label;
  };
  std::vector<Run> scratch_runs;
  std::vector<std::int32_t> scratch_parent, scratch_ids;

  int region_of(Cell c) {
    if (c.x < 0 || c.y < 0 || c.x >= w || c.y >= h) return -1;
    const int k = sector_of(c.x, c.y);
    label(k);
    return sectors[static_cast<std::size_t>(k)].region[local(c.x, c.y)];
  }

  /// Sector k's portals: every move from one of its border cells into a neighbouring sector
  /// links the two cells' regions.
  void link(int k) {
    Sector& sec = sectors[static_cast<std::size_t>(k)];
    label(k);
    if (sec.linked) return;
    sec.linked = true;
    const int x0 = (k % sx) * s, y0 = (k / sx) * s;
    const int x1 = std::min(w, x0 + s) - 1, y1 = std::min(h, y0 + s) - 1;
    const grid::Grid& v = *view;
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        if (y != y0 && y != y1 && x != x0 && x != x1) continue;
        const int r = sec.region[local(x, y)];
        if (r < 0) continue;
        const unsigned legal = legal_moves(v, options.moves.diagonal, v.id(x, y));
        for (int d = 0; d < 8; ++d) {
          if (!(legal >> d & 1u)) continue;
          const Cell n{x + kDirDx[static_cast<std::size_t>(d)],
                       y + kDirDy[static_cast<std::size_t>(d)]};
          if (n.x >= x0 && n.x <= x1 && n.y >= y0 && n.y <= y1) continue;
          const int rn = region_of(n);
          if (rn < 0) continue;
          auto& ls = regions[static_cast<std::size_t>(r)].links;
          if (std::find(ls.begin(), ls.end(), rn) == ls.end()) ls.push_back(rn);
          auto& back = regions[static_cast<std::size_t>(rn)].links;
          if (std::find(back.begin(), back.end(), r) == back.end()) back.push_back(r);
        }
      }
    }
  }

  /// The A* over regions weighs its heuristic by kGreed: it chooses a corridor, it does not
  /// prove one shortest, and a plain A* on a map of small regions (random walls) wanders over
  /// most of it.
  static constexpr double kGreed = 2.0;
  double heuristic(const Region& r) const {
    if (goals.size() > 64) return 0;
    double best = kUnreachable;
    for (const Cell g : goals)
      best = std::min(best, octile(r.cx - (g.x + 0.5), r.cy - (g.y + 0.5)));
    return kGreed * best;
  }

  /// A* over regions from r0 to the corridor or a goal's region; marks the way. False when no
  /// goal is reachable from r0.
  bool extend(int r0) {
    if (regions[static_cast<std::size_t>(r0)].corridor) return true;
    if (regions[static_cast<std::size_t>(r0)].dead) return false;
    std::unordered_map<int, double> g;
    std::unordered_map<int, int> parent;
    using Entry = std::pair<double, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
    g[r0] = 0;
    open.emplace(heuristic(regions[static_cast<std::size_t>(r0)]), r0);
    while (!open.empty()) {
      const auto [f, r] = open.top();
      open.pop();
      const Region& reg = regions[static_cast<std::size_t>(r)];
      const double gr = g[r];
      if (f > gr + heuristic(reg) + 1e-9) continue;  // stale
      if (reg.corridor || reg.goal) {
        std::vector<int> way;
        for (int at = r;; at = parent[at]) {
          way.push_back(at);
          if (at == r0) break;
        }
        // The way, and (widen) the regions its portals lead to: a corridor about three
        // sectors wide, so that its field can bend where the region centroids misled.
        for (const int at : way) regions[static_cast<std::size_t>(at)].corridor = true;
        // Where the way steps diagonally from sector to sector, it crosses at one corner: take
        // the regions of the two sectors beside the step that both ends link to.
        for (std::size_t i = 0; i + 1 < way.size(); ++i) {
          const int a = way[i], b = way[i + 1];
          const int ka = regions[static_cast<std::size_t>(a)].sector;
          const int kb = regions[static_cast<std::size_t>(b)].sector;
          if (ka % sx == kb % sx || ka / sx == kb / sx) continue;
          link(ka);
          link(kb);
          const std::vector<int> la = regions[static_cast<std::size_t>(a)].links;
          const std::vector<int>& lb = regions[static_cast<std::size_t>(b)].links;
          for (const int n : la) {
            const int kn = regions[static_cast<std::size_t>(n)].sector;
            if (kn == ka || kn == kb) continue;
            if (std::find(lb.begin(), lb.end(), n) == lb.end()) continue;
            regions[static_cast<std::size_t>(n)].corridor = true;
          }
        }
        if (widen) {
          for (const int at : way) {
            link(regions[static_cast<std::size_t>(at)].sector);
            const std::vector<int> near = regions[static_cast<std::size_t>(at)].links;
            for (const int n : near) regions[static_cast<std::size_t>(n)].corridor = true;
          }
        }
        return true;
      }
      link(reg.sector);
      // (link may grow `regions`: index again rather than holding references.)
      const std::vector<int> links = regions[static_cast<std::size_t>(r)].links;
      for (const int n : links) {
        const Region& a = regions[static_cast<std::size_t>(r)];
        const Region& b = regions[static_cast<std::size_t>(n)];
        const double cand = gr + octile(a.cx - b.cx, a.cy - b.cy);
        const auto it = g.find(n);
        if (it != g.end() && it->second <= cand) continue;
        g[n] = cand;
        parent[n] = r;
        open.emplace(cand + heuristic(b), n);
      }
    }
    // No goal from here: neither from anything this search reached.
    for (const auto& [r, unused] : g) regions[static_cast<std::size_t>(r)].dead = true;
    return false;
  }

  /// The distance of a cell of a built sector outside the corridor.
  static constexpr double kOutside = -1;
  /// The direction of a settled cell that has none (a goal): kNoDirection marks unsettled ones.
  static constexpr std::int8_t kSettledNone = -2;

  [[nodiscard]] bool allowed(int x, int y) const noexcept {
    if (x < 0 || y < 0 || x >= w || y >= h) return false;
    const Sector& sec = sectors[static_cast<std::size_t>(sector_of(x, y))];
    if (!sec.labelled) return false;
    const int r = sec.region[local(x, y)];
    return r >= 0 && regions[static_cast<std::size_t>(r)].corridor;
  }
  double& dist_at(int x, int y) {
    return sectors[static_cast<std::size_t>(sector_of(x, y))].dist[local(x, y)];
  }
  [[nodiscard]] double dist_of(int x, int y) const noexcept {
    if (!allowed(x, y)) return kUnreachable;
    return sectors[static_cast<std::size_t>(sector_of(x, y))].dist[local(x, y)];
  }

  /// A settled cell's direction from its neighbours' values (kUnreachable where no move): the
  /// first code in tie order within the tolerance of the least, kSettledNone on a goal.
  static std::int8_t pick_direction(double here, const std::array<double, 8>& value) noexcept {
    const std::int8_t code = detail::pick_direction(value);
    return here > 0 && code >= 0 ? code : kSettledNone;
  }

  /// The integration and direction fields on the corridor's cells (Field::settle, restricted).
  void rebuild_field() {
    const std::size_t tile = static_cast<std::size_t>(s) * static_cast<std::size_t>(s);
    corridor = 0;
    for (Sector& sec : sectors) sec.built = false;
    for (const Region& r : regions) {
      if (r.corridor) sectors[static_cast<std::size_t>(r.sector)].built = true;
    }
    for (Sector& sec : sectors) {
      if (!sec.built) {
        sec.dist.clear();
        sec.dir.clear();
        continue;
      }
      sec.dist.assign(tile, kOutside);
      sec.dir.assign(tile, kNoDirection);
    }
    // Corridor cells start unreached; the others keep kOutside, so the search tells them
    // apart by the value alone.
    for (std::size_t k = 0; k < sectors.size(); ++k) {
      Sector& sec = sectors[k];
      if (!sec.built) continue;
      for (std::size_t li = 0; li < tile; ++li) {
        const std::int32_t r = sec.region[li];
        if (r >= 0 && regions[static_cast<std::size_t>(r)].corridor) sec.dist[li] = kUnreachable;
      }
    }
    const grid::Grid& v = *view;
    const double straight = options.moves.straight_cost(), diagonal = options.moves.diagonal_cost();
    // Queue entries pack a cell as (y << xbits) | x: no division to unpack (xbits + ybits <= 30
    // for any grid of at most 2^28 cells).
    const int xbits = std::bit_width(static_cast<unsigned>(std::max(1, w - 1)));
    const std::uint32_t xmask = (std::uint32_t{1} << xbits) - 1;
    auto pack = [xbits](int cx, int cy) {
      return (static_cast<std::uint32_t>(cy) << xbits) | static_cast<std::uint32_t>(cx);
    };
    const auto off = offsets(v.stride());
    std::array<std::ptrdiff_t, 8> tile_off{};
    for (std::size_t d = 0; d < 8; ++d) tile_off[d] = kDirDy[d] * s + kDirDx[d];
    auto pop = [&](std::uint32_t q, auto&& push) {
      const int x = static_cast<int>(q & xmask), y = static_cast<int>(q >> xbits);
      Sector& sec = sectors[static_cast<std::size_t>(sector_of(x, y))];
      const std::size_t li = local(x, y);
      if (sec.dir[li] != kNoDirection) return;  // settled already (a second entry)
      const double here = sec.dist[li];
      ++stats.settled;
      ++corridor;
      const NodeId vid = v.id(x, y);
      const unsigned legal = legal_moves(v, options.moves.diagonal, vid);
      const double t = v.terrain_id(vid);
      // Inside a sector (not on its border) every neighbour is in the same tile.
      const int lx = x & (s - 1), ly = y & (s - 1);
      const bool interior = lx > 0 && ly > 0 && lx < s - 1 && ly < s - 1;
      std::array<double, 8> value{};
      for (int d = 0; d < 8; ++d) {
        const auto du = static_cast<std::size_t>(d);
        value[du] = kUnreachable;
        if (!(legal >> d & 1u)) continue;
        const int nx = x + kDirDx[du], ny = y + kDirDy[du];
        double* dn_ptr;
        if (interior) {
          dn_ptr =
              &sec.dist[static_cast<std::size_t>(static_cast<std::ptrdiff_t>(li) + tile_off[du])];
        } else {
          std::vector<double>& tile_n = sectors[static_cast<std::size_t>(sector_of(nx, ny))].dist;
          if (tile_n.empty()) continue;
          dn_ptr = &tile_n[local(nx, ny)];
        }
        double& dn = *dn_ptr;
        if (dn < 0) continue;  // outside the corridor
        const bool diag = (d & 1) != 0;
        const double val =
            dn + (diag ? diagonal : straight) * v.terrain_id(vid + static_cast<NodeId>(off[du]));
        value[du] = val;
        const double offer = here + (diag ? diagonal : straight) * t;
        if (offer < dn) {
          dn = offer;
          push(offer, pack(nx, ny));
        }
      }
      sec.dir[li] = pick_direction(here, value);
    };
    std::vector<std::uint32_t> seeds;
    for (const Cell g : goals) {
      if (!allowed(g.x, g.y) || dist_at(g.x, g.y) == 0) continue;
      dist_at(g.x, g.y) = 0;
      seeds.push_back(pack(g.x, g.y));
    }
    if (!v.has_terrain()) {
      // Uniform costs: Field::sweep's branch-free relaxation for cells inside a sector (their
      // neighbours are in the same tile), pop() for the cells on sector borders.
      FlatBuckets q(straight, static_cast<std::size_t>(std::ceil(diagonal / straight)) + 2);
      for (const std::uint32_t seed : seeds) q.push(0, seed);
      auto push = [&q](double k, std::uint32_t n) { q.push(k, n); };
      std::array<std::int64_t, 8> key_off{};
      for (std::size_t d = 0; d < 8; ++d) {
        key_off[d] = (static_cast<std::int64_t>(kDirDy[d]) << xbits) + kDirDx[d];
      }
      grid::dispatch_rule(options.moves.diagonal, [&](auto rule) {
        constexpr grid::DiagonalRule R = decltype(rule)::value;
        const int edge = s - 1;
        while (!q.empty()) {
          for (const std::uint32_t c : q.next()) {
            const int x = static_cast<int>(c & xmask), y = static_cast<int>(c >> xbits);
            const int lx = x & edge, ly = y & edge;
            if (lx == 0 || ly == 0 || lx == edge || ly == edge) {
              pop(c, push);
              continue;
            }
            Sector& sec = sectors[static_cast<std::size_t>(sector_of(x, y))];
            const std::size_t li = local(x, y);
            if (sec.dir[li] != kNoDirection) continue;  // settled already
            ++stats.settled;
            ++corridor;
            double* const at = sec.dist.data() + li;
            const double here = *at;
            const unsigned legal = legal_moves_t<R>(v, v.id(x, y));
            std::array<double, 8> value;
            auto slot = [&](std::size_t d) { return at + tile_off[d]; };
            auto key = [&](std::size_t d) {
              return static_cast<std::uint32_t>(static_cast<std::int64_t>(c) + key_off[d]);
            };
            relax_four(q, {0, 2, 4, 6}, here, straight, legal, slot, key, value);
            if constexpr (R != grid::DiagonalRule::never) {
              relax_four(q, {1, 3, 5, 7}, here, diagonal, legal, slot, key, value);
            } else {
              for (const std::size_t d : {1u, 3u, 5u, 7u}) value[d] = kUnreachable;
            }
            sec.dir[li] = pick_direction(here, value);
          }
          q.release();
        }
      });
    } else {
      using Entry = std::pair<double, std::uint32_t>;
      std::priority_queue<Entry, std::vector<Entry>, std::greater<>> q;
      for (const std::uint32_t seed : seeds) q.emplace(0, seed);
      auto push = [&q](double k, std::uint32_t n) { q.emplace(k, n); };
      while (!q.empty()) {
        const std::uint32_t c = q.top().second;
        q.pop();
        pop(c, push);
      }
    }
  }

  void reset() {
    view = grid->view(options.unit);
    revision = grid->revision();
    sx = (w + s - 1) / s;
    sy = (h + s - 1) / s;
    sectors.assign(static_cast<std::size_t>(sx) * static_cast<std::size_t>(sy), Sector{});
    regions.clear();
    labelled = corridor = 0;
  }
};

SectorField::SectorField() : impl_(std::make_unique<Impl>()) {}
SectorField::~SectorField() = default;
SectorField::SectorField(SectorField&&) noexcept = default;
SectorField& SectorField::operator=(SectorField&&) noexcept = default;

std::optional<std::string> SectorField::build(const grid::Grid& g, std::span<const Cell> goals,
                                              const Options& o, int sector, bool widen) {
  impl_ = std::make_unique<Impl>();  // a refused build leaves the field empty, as Field::build does
  if (sector < 8 || sector > 256 || (sector & (sector - 1)) != 0) {
    return std::string("the sector size must be a power of two from 8 to 256 cells");
  }
  // The same checks as a whole-map field (on a 1x1 stand-in nothing is built).
  if (auto bad = grid::validate(o.unit)) return bad;
  if (!(o.sight_range >= 0) || o.sight_range > 1024) {
    return std::string("the sight range must be a number from 0 to 1024");
  }
  if (goals.empty()) return std::string("a flow field needs at least one goal");
  if (goals.size() > 65535) return std::string("a flow field takes at most 65535 goals");
  const auto view = g.view(o.unit);
  for (const Cell c : goals) {
    const std::string at = std::to_string(c.x) + "," + std::to_string(c.y);
    if (!g.in_bounds(c)) {
      return "goal " + at + " is outside the " + std::to_string(g.width()) + "x" +
             std::to_string(g.height()) + " map";
    }
    if (!view->passable(c)) {
      std::string why = "goal " + at;
      why += " is on a square the unit cannot use (a wall, a forbidden class, or closer than its ";
      why += "radius to one)";
      return why;
    }
  }
  Impl& m = *impl_;
  m.grid = &g;
  m.options = o;
  m.s = sector;
  m.shift = std::countr_zero(static_cast<unsigned>(sector));
  m.widen = widen;
  m.w = g.width();
  m.h = g.height();
  m.goals.assign(goals.begin(), goals.end());
  m.reset();
  if (!g.plain()) m.go_whole();
  return std::nullopt;
}

Stats SectorField::require(std::span<const Cell> cells) {
  Impl& m = *impl_;
  const auto t0 = std::chrono::steady_clock::now();
  m.stats = {};
  if (!m.grid) return m.stats;
  if (m.whole) {  // the whole-map field already covers every cell
    m.required.insert(m.required.end(), cells.begin(), cells.end());
    m.stats.time_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    return m.stats;
  }
  bool grew = false;
  for (const Cell c : cells) {
    const int r = m.region_of(c);
    if (r < 0) continue;
    m.required.push_back(c);
    if (m.regions[static_cast<std::size_t>(r)].corridor) continue;
    grew = m.extend(r) || grew;
  }
  if (grew) m.rebuild_field();
  m.stats.time_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  return m.stats;
}

Stats SectorField::update() {
  Impl& m = *impl_;
  if (!m.grid || m.grid->revision() == m.revision) return {};
  const auto t0 = std::chrono::steady_clock::now();
  if (m.whole || !m.grid->plain()) {  // the whole-map field: Field::update (equals a fresh build)
    if (!m.whole) {
      m.w = m.grid->width();
      m.h = m.grid->height();
      m.reset();
    }
    m.go_whole();
    m.stats.rebuilt = true;
    m.stats.time_us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    return m.stats;
  }
  // Edits that touch no labelled sector (grown by the unit's radius and a cell for the corner
  // rule) change nothing that was computed: keep it all.
  std::vector<grid::Rect> areas;
  if (m.grid->width() == m.w && m.grid->height() == m.h &&
      m.grid->changes_since(m.revision, areas)) {
    const int grow = static_cast<int>(std::ceil(m.options.unit.radius)) + 2;
    bool touched = false;
    for (const grid::Rect& a : areas) {
      const int kx0 = std::max(0, a.x0 - grow) >> m.shift;
      const int ky0 = std::max(0, a.y0 - grow) >> m.shift;
      const int kx1 = std::min(m.w - 1, a.x1 + grow) >> m.shift;
      const int ky1 = std::min(m.h - 1, a.y1 + grow) >> m.shift;
      for (int ky = ky0; ky <= ky1 && !touched; ++ky) {
        for (int kx = kx0; kx <= kx1 && !touched; ++kx) {
          touched = m.sectors[static_cast<std::size_t>(ky * m.sx + kx)].labelled;
        }
      }
      if (touched) break;
    }
    if (!touched) {
      m.view = m.grid->view(m.options.unit);
      m.revision = m.grid->revision();
      Stats s;
      s.time_us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      m.stats = s;
      return s;
    }
  }
  const std::vector<Cell> again = std::move(m.required);
  m.required.clear();
  m.reset();
  Stats s = require(again);
  s.rebuilt = true;
  s.time_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  m.stats = s;
  return s;
}

bool SectorField::stale() const noexcept {
  return impl_->grid != nullptr && impl_->grid->revision() != impl_->revision;
}
bool SectorField::empty() const noexcept {
  return impl_->grid == nullptr;
}
int SectorField::width() const noexcept {
  return impl_->w;
}
int SectorField::height() const noexcept {
  return impl_->h;
}
int SectorField::sector() const noexcept {
  return impl_->s;
}
int SectorField::sectors_x() const noexcept {
  return impl_->sx;
}
int SectorField::sectors_y() const noexcept {
  return impl_->sy;
}
std::span<const Cell> SectorField::goals() const noexcept {
  return impl_->goals;
}
const Options& SectorField::options() const noexcept {
  return impl_->options;
}
const Stats& SectorField::stats() const noexcept {
  return impl_->stats;
}
std::int64_t SectorField::sectors_labelled() const noexcept {
  return impl_->labelled;
}
std::int64_t SectorField::corridor_cells() const noexcept {
  return impl_->corridor;
}

std::vector<char> SectorField::sectors_built() const {
  std::vector<char> out;
  for (const auto& sec : impl_->sectors) out.push_back(sec.built || impl_->whole ? 1 : 0);
  return out;
}

int SectorField::region(Cell c) const noexcept {
  const Impl& m = *impl_;
  if (m.whole) return -1;
  if (c.x < 0 || c.y < 0 || c.x >= m.w || c.y >= m.h || m.sectors.empty()) return -1;
  const auto& sec = m.sectors[static_cast<std::size_t>(m.sector_of(c.x, c.y))];
  return sec.labelled ? sec.region[m.local(c.x, c.y)] : -1;
}

bool SectorField::in_corridor(Cell c) const noexcept {
  if (impl_->whole) return std::isfinite(impl_->whole->distance(c));
  return impl_->allowed(c.x, c.y);
}

double SectorField::distance(Cell c) const noexcept {
  if (impl_->whole) return impl_->whole->distance(c);
  return impl_->dist_of(c.x, c.y);
}

std::optional<Cell> SectorField::next(Cell c) const noexcept {
  if (impl_->whole) return impl_->whole->next(c);
  const std::int8_t code = direction(c);
  if (code < 0) return std::nullopt;
  const auto k = static_cast<std::size_t>(code);
  return Cell{c.x + kDirDx[k], c.y + kDirDy[k]};
}

std::int8_t SectorField::direction(Cell c) const noexcept {
  const Impl& m = *impl_;
  if (m.whole) return m.whole->direction(c);
  if (!m.allowed(c.x, c.y)) return kNoDirection;
  const std::int8_t code =
      m.sectors[static_cast<std::size_t>(m.sector_of(c.x, c.y))].dir[m.local(c.x, c.y)];
  return code < 0 ? kNoDirection : code;
}

std::optional<Point> SectorField::steer(Point p) const noexcept {
  const Impl& m = *impl_;
  if (m.whole) return m.whole->steer(p);
  if (!(p.x >= 0) || !(p.y >= 0) || !(p.x < m.w) || !(p.y < m.h)) return std::nullopt;
  const Cell c{static_cast<std::int32_t>(p.x), static_cast<std::int32_t>(p.y)};
  const double d = m.dist_of(c.x, c.y);
  if (!std::isfinite(d)) return std::nullopt;
  if (d == 0) return centre(c);
  const double range = m.options.sight_range;
  if (range > 0 && m.goals.size() <= 64) {
    const Cell* seen = nullptr;
    double nearest = kUnreachable;
    for (const Cell& g : m.goals) {
      const double e = std::hypot(c.x - g.x, c.y - g.y);
      if (e > range || e >= nearest) continue;
      if (!grid::line_of_sight(*m.view, m.options.moves.diagonal, g, c)) continue;
      seen = &g;
      nearest = e;
    }
    if (seen) return centre(*seen);
  }
  const std::int8_t code = direction(c);
  if (code < 0) return std::nullopt;
  const auto k = static_cast<std::size_t>(code);
  return centre(Cell{c.x + kDirDx[k], c.y + kDirDy[k]});
}

}  // namespace pathlab::flow
