// Internal to the search module: work split over two cores where the process has them (the
// JPS+ table's fill and repair, the landmarks' builds, the subgoal methods' rebuilds).
#pragma once

#include <future>
#include <system_error>
#include <utility>

namespace pathlab::search::detail {

/// Whether this program can start a thread at all (a WebAssembly build without threads cannot).
/// std::async must not be asked to when it cannot: libc++'s std::async, failing to start its
/// thread, waits in the shared state's release for a task that never runs, and never returns.
[[nodiscard]] bool threads_available();
/// Whether this process may run on more than one core (a build off the query's thread then
/// leaves the queries theirs): the cores of its affinity mask on Linux.
[[nodiscard]] bool spare_core();

/// Runs a() here and b() on another thread when `apart` (one is started for it), else b() after
/// a(), and returns once both are done. The two must touch no entry in common.
template <class A, class B>
void side_by_side(bool apart, A&& a, B&& b) {
  if (apart) {
    std::future<void> other;
    try {
      other = std::async(std::launch::async, std::forward<B>(b));
    } catch (const std::system_error&) {
      apart = false;  // no thread to be had: both here
    }
    if (apart) {
      a();
      other.get();
      return;
    }
  }
  a();
  b();
}

}  // namespace pathlab::search::detail
