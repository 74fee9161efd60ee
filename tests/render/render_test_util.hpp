// What the render tests share: reading a pixel or counting a colour of an indexed image, and a
// temporary file name unique to the running test (ctest runs tests in parallel processes).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include <pathlab/render/render.hpp>

namespace pathlab::testing {

inline std::uint8_t pixel(const render::IndexedImage& img, int x, int y) {
  return img.pixels[static_cast<std::size_t>(y) * static_cast<std::size_t>(img.width) +
                    static_cast<std::size_t>(x)];
}

inline std::size_t count(const render::IndexedImage& img, std::uint8_t colour) {
  return static_cast<std::size_t>(std::count(img.pixels.begin(), img.pixels.end(), colour));
}

inline std::string temp_path(const std::string& name) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return (std::filesystem::temp_directory_path() /
          ("pathlab_" + std::string(test->test_suite_name()) + "_" + test->name() + "_" + name))
      .string();
}

}  // namespace pathlab::testing
