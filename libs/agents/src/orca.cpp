// ORCA half-planes and the 2-D linear program over them (incremental, expected linear time:
// each constraint that the current optimum violates moves the optimum onto its line, where a
// 1-D program over the earlier constraints finds the best point).
#include <pathlab/agents/orca.hpp>

#include <algorithm>
#include <cmath>

namespace pathlab::agents {

namespace {

constexpr double kEps = 1e-9;

/// The best point on line i (within the speed circle and the lines before it).
bool on_line(std::span<const OrcaLine> lines, std::size_t i, double radius, Vec2 opt,
             bool direction_opt, Vec2& result) {
  const OrcaLine& li = lines[i];
  const double dp = dot(li.point, li.direction);
  const double disc = dp * dp + radius * radius - dot(li.point, li.point);
  if (disc < 0) return false;  // the line misses the speed circle
  const double sq = std::sqrt(disc);
  double t_left = -dp - sq, t_right = -dp + sq;
  for (std::size_t j = 0; j < i; ++j) {
    const OrcaLine& lj = lines[j];
    const double denom = cross(li.direction, lj.direction);
    const double numer = cross(lj.direction, li.point - lj.point);
    if (std::abs(denom) <= kEps) {
      if (numer < 0) return false;  // parallel, and line i lies outside half-plane j
      continue;
    }
    const double t = numer / denom;
    if (denom >= 0) {
      t_right = std::min(t_right, t);
    } else {
      t_left = std::max(t_left, t);
    }
    if (t_left > t_right) return false;
  }
  if (direction_opt) {
    result = li.point + li.direction * (dot(opt, li.direction) > 0 ? t_right : t_left);
  } else {
    const double t = std::clamp(dot(li.direction, opt - li.point), t_left, t_right);
    result = li.point + li.direction * t;
  }
  return true;
}

/// The incremental program: returns lines.size() on success, else the first line it failed on
/// (result then holds the best point before that line).
std::size_t program(std::span<const OrcaLine> lines, double radius, Vec2 opt, bool direction_opt,
                    Vec2& result) {
  if (direction_opt) {
    result = opt * radius;
  } else if (dot(opt, opt) > radius * radius) {
    result = unit(opt) * radius;
  } else {
    result = opt;
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (cross(lines[i].direction, lines[i].point - result) > 0) {
      const Vec2 before = result;
      if (!on_line(lines, i, radius, opt, direction_opt, result)) {
        result = before;
        return i;
      }
    }
  }
  return lines.size();
}

/// No velocity satisfies every half-plane: minimise the largest violation, line by line.
/// The first `hard` lines (static obstacles) stay as they are: only the others give way.
void least_violation(std::span<const OrcaLine> lines, std::size_t begin, std::size_t hard,
                     double radius, Vec2& result) {
  double distance = 0;
  std::vector<OrcaLine> projected;
  for (std::size_t i = std::max(begin, hard); i < lines.size(); ++i) {
    const OrcaLine& li = lines[i];
    if (cross(li.direction, li.point - result) <= distance) continue;
    projected.assign(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(hard));
    for (std::size_t j = hard; j < i; ++j) {
      const OrcaLine& lj = lines[j];
      OrcaLine line;
      const double det = cross(li.direction, lj.direction);
      if (std::abs(det) <= kEps) {
        if (dot(li.direction, lj.direction) > 0) continue;  // same direction: j is implied
        line.point = (li.point + lj.point) * 0.5;
      } else {
        line.point = li.point + li.direction * (cross(lj.direction, li.point - lj.point) / det);
      }
      line.direction = unit(lj.direction - li.direction);
      projected.push_back(line);
    }
    const Vec2 before = result;
    if (program(projected, radius, Vec2{-li.direction.y, li.direction.x}, true, result) <
        projected.size()) {
      result = before;  // cannot happen in exact arithmetic; keep the last good point
    }
    distance = cross(li.direction, li.point - result);
  }
}

}  // namespace

OrcaLine orca_line(Vec2 p, Vec2 v, double r, const Neighbour& n, double horizon,
                   double dt) noexcept {
  const Vec2 rel_pos = n.position - p, rel_vel = v - n.velocity;
  const double dist_sq = dot(rel_pos, rel_pos);
  const double R = r + n.radius, R_sq = R * R;
  OrcaLine line;
  Vec2 u;
  if (dist_sq > R_sq) {
    // Apart: the velocity obstacle is a cone truncated by a circle at the horizon.
    const Vec2 w = rel_vel - rel_pos / horizon;
    const double w_sq = dot(w, w), d1 = dot(w, rel_pos);
    if (d1 < 0 && d1 * d1 > R_sq * w_sq) {
      const double w_len = std::sqrt(w_sq);
      const Vec2 uw = w / w_len;
      line.direction = {uw.y, -uw.x};
      u = uw * (R / horizon - w_len);
    } else {
      const double leg = std::sqrt(dist_sq - R_sq);
      if (cross(rel_pos, w) > 0) {
        line.direction =
            Vec2{rel_pos.x * leg - rel_pos.y * R, rel_pos.x * R + rel_pos.y * leg} / dist_sq;
      } else {
        line.direction =
            -Vec2{rel_pos.x * leg + rel_pos.y * R, -rel_pos.x * R + rel_pos.y * leg} / dist_sq;
      }
      u = line.direction * dot(rel_vel, line.direction) - rel_vel;
    }
  } else {
    // Already overlapping: separate within one time step.
    const Vec2 w = rel_vel - rel_pos / dt;
    const double w_len = norm(w);
    const Vec2 uw = w_len > 0 ? w / w_len : Vec2{1, 0};
    line.direction = {uw.y, -uw.x};
    u = uw * (R / dt - w_len);
  }
  line.point = v + u * n.share;
  return line;
}

Vec2 orca_velocity(std::span<const OrcaLine> lines, Vec2 preferred, double max_speed,
                   std::size_t hard) {
  Vec2 result;
  const std::size_t failed = program(lines, max_speed, preferred, false, result);
  if (failed < lines.size())
    least_violation(lines, failed, std::min(hard, lines.size()), max_speed, result);
  return result;
}

OrcaLine static_line(Vec2 p, double r, Vec2 q, double horizon, double dt) noexcept {
  const Vec2 to = q - p;
  const double d = norm(to);
  const Vec2 n = d > 0 ? to / d : Vec2{1, 0};
  // Toward q at most (gap / horizon); already inside, away from it within a step.
  const double gap = d - r;
  const double c = gap >= 0 ? gap / horizon : gap / dt;
  return {n * c, Vec2{-n.y, n.x}};
}

Vec2 avoid(Vec2 p, Vec2 v, double r, Vec2 preferred, double max_speed,
           std::span<const Neighbour> neighbours, double horizon, double dt,
           std::span<const OrcaLine> hard) {
  if (neighbours.empty() && hard.empty()) {
    const double n = norm(preferred);
    return n > max_speed ? preferred * (max_speed / n) : preferred;
  }
  thread_local std::vector<OrcaLine> lines;
  lines.assign(hard.begin(), hard.end());
  for (const Neighbour& n : neighbours) lines.push_back(orca_line(p, v, r, n, horizon, dt));
  return orca_velocity(lines, preferred, max_speed, hard.size());
}

}  // namespace pathlab::agents
