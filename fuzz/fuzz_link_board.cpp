// libFuzzer target: pathlab::link::parse_board (Link-game boards, text). Malformed input may only
// raise ParseError; what parses must be within the limits, and write back to the same text and
// parse again to the same board. A hint and a connect on what parsed must not crash either.
#include <pathlab/core/error.hpp>
#include <pathlab/link/board.hpp>
#include <pathlab/link/connect.hpp>
#include <pathlab/link/moves.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  pathlab::link::Board board;
  try {
    board = pathlab::link::parse_board(text, "fuzz");
  } catch (const pathlab::ParseError&) {
    return 0;
  }
  using pathlab::link::kMaxSide;
  if (board.width() < 1 || board.height() < 1 || board.width() > kMaxSide ||
      board.height() > kMaxSide) {
    __builtin_trap();
  }
  // A ParseError here is a writer/reader mismatch, so it is not caught.
  if (!(pathlab::link::parse_board(board.to_text(), "again") == board)) __builtin_trap();
  if (board.cells().size() <= 4096) {
    const auto h = pathlab::link::hint(board);
    if (h && !pathlab::link::connect(board, h->a, h->b)) __builtin_trap();
  }
  return 0;
}
