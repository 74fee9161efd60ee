// Recording a simulation run and drawing its frames (see simulation.hpp). Frames are snapshots
// (positions, plans, obstacle outlines), not pictures: a run of any length costs little memory
// until write() rasterises them one at a time over the map's cells, drawn once.
#include <pathlab/render/simulation.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "raster.hpp"

namespace pathlab::render {
namespace {

/// Trail points closer than this to the previous one (cells) are dropped: nothing a picture
/// shows, and a long run stays small.
constexpr double kTrailStep = 0.05;

std::vector<Point> to_points(const std::vector<agents::Vec2>& vs) {
  std::vector<Point> out;
  out.reserve(vs.size());
  for (const agents::Vec2& v : vs) out.push_back(v.point());
  return out;
}

std::string clock_text(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", t);
  return buf;
}

/// The body's colour: red while colliding, faded once arrived, the agent's own otherwise.
std::uint8_t body_colour(const AgentSnapshot& a, std::size_t index) {
  if (a.colliding) return kColliding;
  return agent_colour(index, a.arrived);
}

/// The trail up to a frame, ending at the agent's position then.
std::vector<Point> trail_to(const std::vector<agents::Vec2>& trail, const AgentSnapshot& a) {
  std::vector<agents::Vec2> pts(trail.begin(),
                                trail.begin() + static_cast<std::ptrdiff_t>(a.trail));
  pts.push_back(a.position);
  return to_points(pts);
}

/// The plan as drawn: from the agent through its waypoints.
std::vector<Point> plan_from(const AgentSnapshot& a) {
  std::vector<agents::Vec2> pts{a.position};
  pts.insert(pts.end(), a.plan.begin(), a.plan.end());
  return to_points(pts);
}

/// The force arrow, from the disc's edge outward: 0.3 cells long, up to 1.5 at a force of the
/// agent's top speed (the planners' forces are desired velocities, or fields scaled like them).
void force_arrow(detail::Plotter& plot, const AgentSnapshot& a, int width) {
  const double f = agents::norm(a.force);
  if (a.arrived || !(f > 1e-9) || !std::isfinite(f)) return;
  const agents::Vec2 dir = a.force / f;
  const double len = 0.3 + 1.2 * std::min(1.0, a.max_speed > 0 ? f / a.max_speed : 1.0);
  const agents::Vec2 from = a.position + dir * a.radius, to = from + dir * len;
  plot.segment(from.point(), to.point(), width, kForce);
  const double head = std::min(0.3, len * 0.5);
  const agents::Vec2 back = -dir * head, side{-dir.y * head * 0.6, dir.x * head * 0.6};
  plot.segment(to.point(), (to + back + side).point(), width, kForce);
  plot.segment(to.point(), (to + back - side).point(), width, kForce);
}

void draw_obstacle(detail::Plotter& plot, const ObstacleSnapshot& o, int cp) {
  switch (o.kind) {
    case agents::ShapeKind::disc:
      plot.disc(o.points.front().point(), std::max(o.radius * cp, 1.0), kObstacle);
      break;
    case agents::ShapeKind::segment:
      plot.segment(o.points[0].point(), o.points[1].point(), std::max(2, cp / 6), kObstacle);
      break;
    case agents::ShapeKind::polygon:
      plot.polygon(to_points(o.points), kObstacle);
      break;
  }
}

}  // namespace

std::uint8_t agent_colour(std::size_t index, bool faded) noexcept {
  const auto k = static_cast<std::uint8_t>(index % kAgentHues);
  return static_cast<std::uint8_t>((faded ? kAgentFadedFirst : kAgentFirst) + k);
}

SimulationRecorder::SimulationRecorder(const agents::World& world, SimulationOptions options)
    : options_(options), dt_(world.spec().dt) {
  const grid::Grid& g = world.spec().grid;
  if (g.cells() == 0) throw std::invalid_argument("render: empty scene");
  options_.max_frames = std::max(2, options_.max_frames);
  cp_ = detail::fit_cell_px(g.width(), g.height(), options_.cell_px);
  background_.width = g.width() * cp_;
  background_.height = g.height() * cp_;
  background_.pixels.assign(
      static_cast<std::size_t>(background_.width) * static_cast<std::size_t>(background_.height),
      kBackground);
  // A crowd that shares one flow field: the map shaded by its distances, as `pathlab flow`
  // draws it.
  const flow::Field* shared = nullptr;
  bool one_field = true;
  for (std::size_t i = 0; i < world.agents().size() && one_field; ++i) {
    const flow::Field* f = world.field_of(i);
    if (!f) continue;
    if (shared && f != shared) one_field = false;
    shared = f;
  }
  detail::paint_cells(background_, 0,
                      shared && one_field ? detail::flow_cells(g, *shared) : detail::base_cells(g),
                      g.width(), g.height(), cp_);
  stride_ = std::max<std::uint64_t>(1, options_.ticks_per_frame);
  first_tick_ = world.ticks();
  extend_trails(world);
  frames_.push_back(snapshot(world));
}

void SimulationRecorder::extend_trails(const agents::World& world) {
  const auto& states = world.agents();
  trails_.resize(states.size());
  for (std::size_t i = 0; i < states.size(); ++i) {
    auto& trail = trails_[i];
    const agents::Vec2 p = states[i].position;
    if (trail.empty() || agents::norm(p - trail.back()) >= kTrailStep) trail.push_back(p);
  }
}

SimulationFrame SimulationRecorder::snapshot(const agents::World& world) const {
  SimulationFrame f;
  f.tick = world.ticks();
  f.time = world.time();
  const auto& states = world.agents();
  for (std::size_t i = 0; i < states.size(); ++i) {
    const agents::AgentState& s = states[i];
    AgentSnapshot a{s.spec.id,        s.position, s.force,   s.spec.goal, s.spec.radius,
                    s.spec.max_speed, {},         s.arrived, s.colliding, trails_[i].size()};
    if (!s.arrived && s.spec.planner != agents::PlannerKind::apf && s.subgoal < s.plan.size()) {
      a.plan.assign(s.plan.begin() + static_cast<std::ptrdiff_t>(s.subgoal), s.plan.end());
    }
    f.agents.push_back(std::move(a));
  }
  for (const agents::Obstacle& o : world.spec().obstacles) {
    if (!o.present(f.time)) continue;
    const agents::Vec2 at = o.position(f.time);
    ObstacleSnapshot os{o.id, o.shape.kind, o.shape.radius, {}};
    if (o.shape.kind == agents::ShapeKind::disc) {
      os.points.push_back(at);
    } else {
      for (const agents::Vec2& p : o.shape.points) os.points.push_back(p + at);
    }
    f.obstacles.push_back(std::move(os));
  }
  return f;
}

void SimulationRecorder::capture(const agents::World& world, bool keep) {
  extend_trails(world);
  const std::uint64_t tick = world.ticks();
  const bool on_stride = (tick - first_tick_) % stride_ == 0;
  // Off the stride, only the end of the run is worth a snapshot (the copies of every plan
  // would otherwise be made each tick for nothing).
  if (!on_stride && !keep && !world.finished()) return;
  if (last_is_extra_ || frames_.back().tick == tick) frames_.pop_back();
  frames_.push_back(snapshot(world));
  last_is_extra_ = !on_stride;
  thin_out();
}

void SimulationRecorder::thin_out() {
  while (frames_.size() > static_cast<std::size_t>(options_.max_frames)) {
    stride_ *= 2;
    std::vector<SimulationFrame> kept;
    for (std::size_t k = 0; k < frames_.size(); ++k) {
      if ((frames_[k].tick - first_tick_) % stride_ == 0 || k + 1 == frames_.size()) {
        kept.push_back(std::move(frames_[k]));
      }
    }
    frames_ = std::move(kept);
    last_is_extra_ = (frames_.back().tick - first_tick_) % stride_ != 0;
  }
}

IndexedImage SimulationRecorder::draw(std::size_t frame) const {
  const SimulationFrame& f = frames_.at(frame);
  IndexedImage img = background_;
  detail::Plotter plot(img, 0, img.width, cp_);
  const int line = std::max(1, cp_ / 8);
  // Bottom to top: trails and goals, obstacles, plans, agents, force arrows, the clock.
  for (std::size_t i = 0; i < f.agents.size(); ++i) {
    const AgentSnapshot& a = f.agents[i];
    const std::vector<Point> trail = trail_to(trails_[i], a);
    for (std::size_t k = 1; k < trail.size(); ++k) {
      plot.segment(trail[k - 1], trail[k], line, agent_colour(i, true));
    }
    const double r = 0.25;
    for (const double s : {-1.0, 1.0}) {
      plot.segment({a.goal.x - r, a.goal.y - s * r}, {a.goal.x + r, a.goal.y + s * r}, line,
                   agent_colour(i, a.arrived));
    }
  }
  for (const ObstacleSnapshot& o : f.obstacles) draw_obstacle(plot, o, cp_);
  for (std::size_t i = 0; i < f.agents.size(); ++i) {
    const AgentSnapshot& a = f.agents[i];
    if (a.plan.empty()) continue;
    const std::vector<Point> plan = plan_from(a);
    for (std::size_t k = 1; k < plan.size(); ++k) {
      plot.segment(plan[k - 1], plan[k], 1, agent_colour(i));
    }
    plot.stamp(plot.px(plan[1].x), plot.py(plan[1].y), std::max(3, cp_ / 4), agent_colour(i));
  }
  for (std::size_t i = 0; i < f.agents.size(); ++i) {
    const AgentSnapshot& a = f.agents[i];
    plot.disc(a.position.point(), std::max(a.radius * cp_, 1.5), body_colour(a, i));
  }
  for (const AgentSnapshot& a : f.agents) force_arrow(plot, a, line);
  if (options_.clock) {
    const int scale = img.width >= 300 ? 2 : 1;
    const std::string text = clock_text(f.time);
    plot.fill(0, 0, detail::Plotter::text_width(text, scale) + 4 * scale,
              detail::Plotter::text_height(scale) + 4 * scale, kBackground);
    plot.text(2 * scale, 2 * scale, text, scale, kSeparator);
  }
  return img;
}

void SimulationRecorder::write(const std::string& path) const {
  const auto format = detail::format_of(path);
  if (!format) throw std::runtime_error(path + ": unknown render format (use .gif, .png or .svg)");
  switch (*format) {
    case detail::Format::png:
      return detail::write_png(draw(frames_.size() - 1), path);
    case detail::Format::svg:
      return detail::write_text(path, svg());
    case detail::Format::gif:
      break;
  }
  int delay = options_.frame_delay_cs;
  if (delay <= 0) {
    const double cs = static_cast<double>(stride_) * dt_ * 100;
    delay = std::clamp(static_cast<int>(std::lround(cs)), 2, 10);
  }
  detail::GifWriter gif(path, background_.width, background_.height);
  for (std::size_t k = 0; k < frames_.size(); ++k) {
    gif.frame(draw(k), k + 1 == frames_.size() ? options_.final_delay_cs : delay);
  }
  gif.close();
}

std::string SimulationRecorder::svg() const {
  const SimulationFrame& f = frames_.back();
  const auto colour = detail::svg_colour;
  const auto num = [](double v) { return std::to_string(v); };
  const double cp = cp_;
  const double line = std::max(1.0, cp / 8);
  std::string out =
      detail::svg_open(background_.width, background_.height) + detail::svg_cells(background_, cp_);
  for (std::size_t i = 0; i < f.agents.size(); ++i) {
    out += detail::svg_polyline("trail", trail_to(trails_[i], f.agents[i]), 0, cp_,
                                agent_colour(i, true), line);
  }
  for (const ObstacleSnapshot& o : f.obstacles) {
    const std::string id = "\" data-id=\"" + std::to_string(o.id);
    switch (o.kind) {
      case agents::ShapeKind::disc:
        out += "<circle class=\"obstacle" + id + "\" cx=\"" + num(o.points[0].x * cp) + "\" cy=\"" +
               num(o.points[0].y * cp) + "\" r=\"" + num(o.radius * cp) + "\" fill=\"" +
               colour(kObstacle) + "\"/>\n";
        break;
      case agents::ShapeKind::segment:
        out += "<line class=\"obstacle" + id + "\" x1=\"" + num(o.points[0].x * cp) + "\" y1=\"" +
               num(o.points[0].y * cp) + "\" x2=\"" + num(o.points[1].x * cp) + "\" y2=\"" +
               num(o.points[1].y * cp) + "\" stroke=\"" + colour(kObstacle) + "\" stroke-width=\"" +
               num(std::max(2.0, cp / 6)) + "\"/>\n";
        break;
      case agents::ShapeKind::polygon:
        out += "<polygon class=\"obstacle" + id + "\" fill=\"" + colour(kObstacle) +
               "\" points=\"" + detail::svg_points(to_points(o.points), 0, cp_) + "\"/>\n";
        break;
    }
  }
  for (std::size_t i = 0; i < f.agents.size(); ++i) {
    if (!f.agents[i].plan.empty()) {
      out += detail::svg_polyline("plan", plan_from(f.agents[i]), 0, cp_, agent_colour(i), 1);
    }
  }
  for (std::size_t i = 0; i < f.agents.size(); ++i) {
    const AgentSnapshot& a = f.agents[i];
    out += "<circle class=\"agent\" data-id=\"" + std::to_string(a.id) + "\" cx=\"" +
           num(a.position.x * cp) + "\" cy=\"" + num(a.position.y * cp) + "\" r=\"" +
           num(a.radius * cp) + "\" fill=\"" + colour(body_colour(a, i)) + "\"/>\n";
  }
  if (options_.clock) {
    out += "<rect class=\"clock\" x=\"0\" y=\"0\" width=\"64\" height=\"20\" fill=\"" +
           colour(kBackground) + "\"/>\n";
    out +=
        "<text class=\"clock\" x=\"4\" y=\"14\" font-family=\"monospace\" font-size=\"12\" "
        "fill=\"" +
        colour(kSeparator) + "\">" + clock_text(f.time) + "</text>\n";
  }
  return out + "</svg>\n";
}

}  // namespace pathlab::render
