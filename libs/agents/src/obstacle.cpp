// Dynamic obstacles: closed-form pose at time t, nearest points and overlap with agent discs.
#include <pathlab/agents/obstacle.hpp>

#include <cmath>
#include <string>

namespace pathlab::agents {

std::string_view to_string(RouteMode m) noexcept {
  switch (m) {
    case RouteMode::once:
      return "once";
    case RouteMode::loop:
      return "loop";
    case RouteMode::ping_pong:
      return "ping-pong";
  }
  return "?";
}

std::optional<RouteMode> parse_route_mode(std::string_view s) noexcept {
  if (s == "once") return RouteMode::once;
  if (s == "loop") return RouteMode::loop;
  if (s == "ping-pong" || s == "pingpong" || s == "ping_pong") return RouteMode::ping_pong;
  return std::nullopt;
}

namespace {

/// The route as a closed or open polyline: the legs walked in one period, and its length.
struct Legs {
  std::vector<Vec2> pts;  // pts[i] -> pts[i+1]
  double length = 0;
};

Legs legs_of(const Motion& m) {
  Legs l;
  l.pts = m.route;
  if (m.mode == RouteMode::loop && m.route.size() > 1) l.pts.push_back(m.route.front());
  if (m.mode == RouteMode::ping_pong) {
    for (std::size_t i = m.route.size(); i-- > 1;) l.pts.push_back(m.route[i - 1]);
  }
  for (std::size_t i = 1; i < l.pts.size(); ++i) l.length += norm(l.pts[i] - l.pts[i - 1]);
  return l;
}

/// Position and velocity after travelling distance d along the legs.
void along(const Legs& l, double d, double speed, bool wrap, Vec2& pos, Vec2& vel) {
  vel = {};
  if (l.pts.empty()) {
    pos = {};
    return;
  }
  if (l.pts.size() == 1 || l.length <= 0) {
    pos = l.pts.front();
    return;
  }
  if (wrap) {
    d = std::fmod(d, l.length);
  } else if (d >= l.length) {
    pos = l.pts.back();
    return;
  }
  for (std::size_t i = 1; i < l.pts.size(); ++i) {
    const Vec2 leg = l.pts[i] - l.pts[i - 1];
    const double len = norm(leg);
    if (d <= len || i + 1 == l.pts.size()) {
      const double f = len > 0 ? std::min(1.0, d / len) : 0.0;
      pos = l.pts[i - 1] + leg * f;
      vel = len > 0 ? leg * (speed / len) : Vec2{};
      return;
    }
    d -= len;
  }
}

}  // namespace

Vec2 Motion::position_at(double elapsed) const noexcept {
  const double dt = std::max(0.0, elapsed);
  if (route.empty()) return start + velocity * dt;
  Vec2 pos, vel;
  along(legs_of(*this), dt * speed, speed, mode != RouteMode::once, pos, vel);
  return pos;
}

Vec2 Motion::velocity_at(double elapsed) const noexcept {
  if (route.empty()) return velocity;
  Vec2 pos, vel;
  along(legs_of(*this), std::max(0.0, elapsed) * speed, speed, mode != RouteMode::once, pos, vel);
  return vel;
}

double Obstacle::extent() const noexcept {
  double e = shape.kind == ShapeKind::disc ? shape.radius : 0.0;
  for (const Vec2 p : shape.points) e = std::max(e, norm(p));
  return e;
}

NearestPoint Obstacle::nearest(Vec2 p, double t) const noexcept {
  const Vec2 o = position(t);
  switch (shape.kind) {
    case ShapeKind::disc:
      return nearest_on_disc(p, o, shape.radius);
    case ShapeKind::segment: {
      const Vec2 q = closest_point_on_segment(p - o, shape.points[0], shape.points[1]) + o;
      return {q, norm(p - q), norm(p - q) == 0};
    }
    case ShapeKind::polygon: {
      NearestPoint n = nearest_on_polygon(p - o, shape.points);
      n.point += o;
      return n;
    }
  }
  return {p, std::numeric_limits<double>::infinity(), false};
}

bool Obstacle::overlaps(Vec2 c, double r, double t) const noexcept {
  const NearestPoint n = nearest(c, t);
  return n.inside || n.distance < r;
}

std::optional<std::string> Obstacle::validate() const {
  const std::string who = "obstacle " + std::to_string(id) + ": ";
  switch (shape.kind) {
    case ShapeKind::disc:
      if (!(shape.radius > 0) || !std::isfinite(shape.radius)) {
        return who + "a disc needs a radius > 0";
      }
      break;
    case ShapeKind::segment:
      if (shape.points.size() != 2) return who + "a segment needs exactly 2 points";
      break;
    case ShapeKind::polygon:
      if (shape.points.size() < 3) return who + "a polygon needs at least 3 points";
      break;
  }
  for (const Vec2 p : shape.points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) return who + "shape points must be finite";
  }
  if (!motion.route.empty() && !(motion.speed > 0 && std::isfinite(motion.speed))) {
    return who + "a route needs a speed > 0";
  }
  if (!std::isfinite(appear) || appear < 0 || !(disappear > appear)) {
    return who + "needs 0 <= appear < disappear";
  }
  return std::nullopt;
}

}  // namespace pathlab::agents
