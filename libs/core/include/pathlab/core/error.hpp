// Errors raised while reading files. Parsers throw ParseError carrying the file and line, and the
// application edge prints it as "pathlab: error: FILE:LINE: message". Query APIs never throw.
#pragma once

#include <stdexcept>
#include <string>

namespace pathlab {

/// A file that could not be read or parsed: what() is "FILE:LINE: message" (the line part left
/// out when the line is 0, the file part when the file name is empty).
class ParseError : public std::runtime_error {
 public:
  /// line 0 means "no particular line" (e.g. an empty or unreadable file).
  ParseError(std::string file, int line, const std::string& message)
      : std::runtime_error(format(file, line, message)),
        file_(std::move(file)),
        line_(line),
        message_(message) {}

  /// The file's path as the caller named it (may be empty).
  [[nodiscard]] const std::string& file() const noexcept { return file_; }
  /// 1-based line of the error; 0 when no particular line is at fault.
  [[nodiscard]] int line() const noexcept { return line_; }
  /// The message alone, without the "FILE:LINE: " prefix that what() carries.
  [[nodiscard]] const std::string& message() const noexcept { return message_; }

 private:
  static std::string format(const std::string& file, int line, const std::string& message) {
    // Built with append(): g++ 12 gives a false -Wrestrict on chained operator+ here.
    std::string s = file;
    if (line > 0) s.append(":").append(std::to_string(line));
    if (!s.empty()) s.append(": ");
    s.append(message);
    return s;
  }
  std::string file_;
  int line_;
  std::string message_;
};

}  // namespace pathlab
