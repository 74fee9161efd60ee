// Fuzz target for the C ABI (pathlab/pathlab.h): options as text (algorithm, diagonal rule,
// class costs, an edit), a map format name and map bytes, then searches, a batch and a field
// with cells from the input (many outside the map or on walls). Every call must answer with
// one of its statuses and, when it fails, a message; every path found must run from its start
// to its goal; nothing may crash, leak or trip a sanitizer.
#include <pathlab/pathlab.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::string_view take_line(std::string_view& in) {
  const std::size_t nl = in.find('\n');
  const std::string_view line = in.substr(0, nl);
  in = nl == std::string_view::npos ? std::string_view{} : in.substr(nl + 1);
  return line;
}

void failed_with_message(pathlab_status s) {
  if (s != PATHLAB_OK && pathlab_last_error()[0] == '\0') __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  // Line 1: ALGORITHM|DIAGONAL|CLASS_COSTS|EDIT|NUMBERS (empty fields: NULL).
  std::string fields[5];
  {
    std::string_view line = take_line(in);
    for (int i = 0; i < 5; ++i) {
      const std::size_t bar = line.find('|');
      fields[i] = std::string(line.substr(0, bar));
      line = bar == std::string_view::npos ? std::string_view{} : line.substr(bar + 1);
    }
  }
  const std::string format(take_line(in));  // line 2: the format name ("" = detect)
  auto byte = [&fields](std::size_t i) -> std::uint8_t {
    return i < fields[4].size() ? static_cast<std::uint8_t>(fields[4][i]) : 0;
  };
  pathlab_options o;
  std::memset(&o, 0, sizeof o);
  o.algorithm = fields[0].empty() ? nullptr : fields[0].c_str();
  o.diagonal = fields[1].empty() ? nullptr : fields[1].c_str();
  o.class_costs = fields[2].empty() ? nullptr : fields[2].c_str();
  o.weight = byte(0) % 5 == 4 ? -1.0 : (byte(0) % 5) * 0.75;
  o.radius = byte(1) % 7 == 6 ? NAN : (byte(1) % 7) * 0.5;
  o.node_limit = 1 + byte(2) * 100u;

  pathlab_grid* g = nullptr;
  const pathlab_status parsed =
      pathlab_grid_parse(in.data(), in.size(), format.empty() ? nullptr : format.c_str(), &g);
  failed_with_message(parsed);
  if (parsed != PATHLAB_OK) {
    if (g != nullptr || (parsed != PATHLAB_PARSE_ERROR && parsed != PATHLAB_INVALID))
      __builtin_trap();
    return 0;
  }
  const int w = pathlab_grid_width(g), h = pathlab_grid_height(g);
  if (w < 1 || h < 1) __builtin_trap();
  if (!fields[3].empty()) {
    const pathlab_status s = pathlab_grid_edit(g, fields[3].c_str());
    failed_with_message(s);
    if (s != PATHLAB_OK && s != PATHLAB_INVALID) __builtin_trap();
  }
  // Cells from the input: some outside the map.
  auto cell = [&](std::size_t i, int side) { return static_cast<int>(byte(i)) % (side + 2) - 1; };
  std::int32_t cells[8];
  for (int i = 0; i < 8; ++i) cells[i] = cell(3 + i, i % 2 == 0 ? w : h);

  pathlab_finder* f = nullptr;
  const pathlab_status made = pathlab_finder_new(g, &o, &f);
  failed_with_message(made);
  if (made == PATHLAB_OK) {
    for (int q = 0; q < 2; ++q) {
      pathlab_result r;
      const std::int32_t* c = cells + 4 * q;
      const pathlab_status s = pathlab_find(f, c[0], c[1], c[2], c[3], &r);
      failed_with_message(s);
      if (s > PATHLAB_INVALID) __builtin_trap();
      if (s == PATHLAB_OK && (r.path_cells < 1 || r.path[0] != c[0] || r.path[1] != c[1] ||
                              r.path[2 * r.path_cells - 2] != c[2] ||
                              r.path[2 * r.path_cells - 1] != c[3] || !(r.cost >= 0))) {
        __builtin_trap();
      }
    }
    std::vector<double> costs(2);
    const pathlab_status s = pathlab_find_many(g, &o, 2, cells, cells + 4, costs.data(), 1);
    failed_with_message(s);
    if (s != PATHLAB_OK && s != PATHLAB_INVALID) __builtin_trap();
  } else if (f != nullptr || made != PATHLAB_INVALID) {
    __builtin_trap();
  }
  pathlab_finder_free(f);

  pathlab_field* field = nullptr;
  const pathlab_status built = pathlab_field_build(g, &o, 2, cells, &field);
  failed_with_message(built);
  if (built == PATHLAB_OK) {
    const double* d = pathlab_field_distance(field);
    const std::int8_t* dir = pathlab_field_direction(field);
    if (d == nullptr || dir == nullptr || d[cells[1] * w + cells[0]] != 0) __builtin_trap();
  } else if (field != nullptr) {
    __builtin_trap();
  }
  pathlab_field_free(field);
  pathlab_grid_free(g);
  return 0;
}
