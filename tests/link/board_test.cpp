// The board and its text format: round trips, and malformed boards rejected with the right line.
#include <gtest/gtest.h>

#include <pathlab/core/error.hpp>
#include <pathlab/link/board.hpp>

#include <stdexcept>
#include <string>

using namespace pathlab;
using namespace pathlab::link;

namespace {

/// The line a ParseError names, or -2 when the text parses.
int error_line(const std::string& text) {
  try {
    (void)parse_board(text, "b.txt");
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), "b.txt");
    EXPECT_NE(std::string(e.what()).find("b.txt"), std::string::npos);
    return e.line();
  }
  return -2;
}

}  // namespace

TEST(LinkBoard, ParsesAndRoundTrips) {
  const Board b = parse_board("AB.\n.BA\n\n\n");
  EXPECT_EQ(b.width(), 3);
  EXPECT_EQ(b.height(), 2);
  EXPECT_EQ(b.at({0, 0}), 'A');
  EXPECT_EQ(b.at({2, 1}), 'A');
  EXPECT_TRUE(b.is_empty({2, 0}));
  EXPECT_TRUE(b.is_empty({-1, 0}));  // the ring
  EXPECT_TRUE(b.is_empty({3, 1}));
  EXPECT_EQ(b.tiles(), 4u);
  EXPECT_EQ(b.to_text(), "AB.\n.BA\n");
  EXPECT_EQ(parse_board(b.to_text()), b);
  // CRLF and a last line without a newline.
  EXPECT_EQ(parse_board("AB.\r\n.BA"), b);
  // Any printable non-space character is a kind.
  EXPECT_EQ(parse_board("~!#\n").tiles(), 3u);
}

TEST(LinkBoard, MalformedBoardsNameTheLine) {
  EXPECT_EQ(error_line(""), 0);
  EXPECT_EQ(error_line("\n\n"), 0);
  EXPECT_EQ(error_line("AB\nABC\n"), 2);               // ragged
  EXPECT_EQ(error_line("ABC\nAB\nABC\n"), 2);          // ragged, short
  EXPECT_EQ(error_line("AB\n\nAB\n"), 2);              // a blank line between rows
  EXPECT_EQ(error_line("AB\nA B\n"), 2);               // space
  EXPECT_EQ(error_line("AB\nAB\nA\tB\n"), 3);          // tab
  EXPECT_EQ(error_line("AB\n\xc3\xa9\xc3\xa9\n"), 2);  // non-ASCII
  EXPECT_EQ(error_line("A\x01\n"), 1);                 // control character
  EXPECT_EQ(error_line(std::string(kMaxSide + 1, 'A') + "\n"), 1);
  std::string tall;
  for (int i = 0; i < kMaxSide + 1; ++i) tall += "AB\n";
  EXPECT_EQ(error_line(tall), kMaxSide + 1);
  EXPECT_EQ(error_line(std::string(kMaxSide, 'A') + "\n"), -2);
  try {
    (void)parse_board("AB\nA B\n", "f");
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("space"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)load_board("/nonexistent/board.txt"), ParseError);
}

TEST(LinkBoard, ConstructorsAndSetCheckTheirLimits) {
  EXPECT_THROW(Board(0, 3), std::invalid_argument);
  EXPECT_THROW(Board(kMaxSide + 1, 1), std::invalid_argument);
  EXPECT_THROW(Board(2, 2, "AB."), std::invalid_argument);
  EXPECT_THROW(Board(2, 1, "A "), std::invalid_argument);
  Board b(2, 2);
  EXPECT_EQ(b.tiles(), 0u);
  EXPECT_EQ(b.cells(), "....");
  b.set({1, 1}, 'Z');
  EXPECT_EQ(b.at({1, 1}), 'Z');
  EXPECT_THROW(b.set({2, 0}, 'A'), std::invalid_argument);
  EXPECT_THROW(b.set({0, 0}, ' '), std::invalid_argument);
}
