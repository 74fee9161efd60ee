// The radix queue that A*, Dijkstra, JPS, JPS+ and subgoal graphs keep their open cells in
// (libs/search/src/radix_queue.hpp): against a plain list that scans for the least key.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../../libs/search/src/radix_queue.hpp"

using pathlab::search::detail::HeapEntry;
using pathlab::search::detail::priority_key;
using pathlab::search::detail::RadixQueue;

namespace {

/// The reference: keys raised to the last one popped, the least key out first, and among
/// equal keys the last pushed.
struct Model {
  std::vector<HeapEntry> items;
  std::uint64_t last = 0;
  void push(HeapEntry e) {
    e.key = std::max(e.key, last);
    items.push_back(e);
  }
  HeapEntry pop() {
    std::size_t best = 0;
    for (std::size_t i = 1; i < items.size(); ++i) {
      if (items[i].key <= items[best].key) best = i;  // <=: the later of equal keys
    }
    const HeapEntry e = items[best];
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(best));
    last = e.key;
    return e;
  }
};

}  // namespace

TEST(RadixQueue, PopsInOrderOfPriorityThenLastInFirstOut) {
  RadixQueue q;
  q.push({priority_key(5.0), 1});
  q.push({priority_key(3.0), 2});
  q.push({priority_key(3.0), 3});
  q.push({priority_key(4.0 + 1e-12), 4});  // within the key's resolution of 4: a tie with 5
  q.push({priority_key(7.5), 5});
  ASSERT_EQ(q.size(), 5u);
  EXPECT_EQ(q.pop().id, 3u);  // the later of the two 3s
  EXPECT_EQ(q.pop().id, 2u);
  EXPECT_EQ(q.pop().id, 4u);
  q.push({priority_key(2.0), 6});  // below the last popped (4): comes out next
  EXPECT_EQ(q.pop().id, 6u);
  EXPECT_EQ(q.pop().id, 1u);
  EXPECT_EQ(q.pop().id, 5u);
  EXPECT_TRUE(q.empty());
}

TEST(RadixQueue, ClearForgetsEntriesAndTheLastKey) {
  RadixQueue q;
  for (std::uint32_t i = 0; i < 100; ++i) q.push({priority_key(100.0 - i), i});
  EXPECT_EQ(q.pop().id, 99u);
  q.clear();
  EXPECT_TRUE(q.empty());
  q.push({priority_key(0.5), 7});
  q.push({priority_key(0.25), 8});  // not raised to the key popped before the clear
  EXPECT_EQ(q.pop().id, 8u);
  EXPECT_EQ(q.pop().id, 7u);
  EXPECT_TRUE(q.empty());
}

RC_GTEST_PROP(RadixQueueProperty, MatchesTheReferenceOnAnySequence, ()) {
  // Priorities as A* makes them: octile-like sums a + b*sqrt(2), often equal, sometimes far.
  const auto ops = *rc::gen::container<std::vector<std::pair<int, std::pair<int, int>>>>(
      rc::gen::pair(rc::gen::inRange(0, 3),
                    rc::gen::pair(rc::gen::inRange(0, 2000), rc::gen::inRange(0, 300))));
  RadixQueue q;
  Model m;
  std::uint32_t next_id = 0;
  for (const auto& [op, ab] : ops) {
    if (op < 2 || m.items.empty()) {
      const double f = ab.first + ab.second * 1.4142135623730951;
      const HeapEntry e{priority_key(f), next_id++};
      q.push(e);
      m.push(e);
    } else {
      const HeapEntry got = q.pop();
      const HeapEntry want = m.pop();
      RC_ASSERT(got.key == want.key);
      RC_ASSERT(got.id == want.id);
    }
    RC_ASSERT(q.size() == m.items.size());
  }
  while (!m.items.empty()) {
    const HeapEntry got = q.pop();
    const HeapEntry want = m.pop();
    RC_ASSERT(got.id == want.id);
  }
  RC_ASSERT(q.empty());
}
