// libFuzzer target: the Link board's JSON form (libs/json/src/link.cpp), which `pathlab link`
// and the /api/link endpoints read. Input that is not JSON, or not a board, may only raise
// nlohmann's parse error or pathlab::json::BoardError; a board that reads must be within the limits
// and write back to JSON that reads to the same board.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include <pathlab/json/link.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  pathlab::link::Board board;
  try {
    board = pathlab::json::link_board_from(j);
  } catch (const pathlab::json::BoardError&) {
    return 0;
  }
  using pathlab::link::kMaxSide;
  if (board.width() < 1 || board.height() < 1 || board.width() > kMaxSide ||
      board.height() > kMaxSide) {
    __builtin_trap();
  }
  // A BoardError here is a writer/reader mismatch, so it is not caught.
  const nlohmann::json again = nlohmann::json::parse(pathlab::json::link_board(board).dump());
  if (!(pathlab::json::link_board_from(again) == board)) __builtin_trap();
  return 0;
}
