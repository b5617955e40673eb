// Dataset::map and filter with plain C++ functions: parallel calls, errors, early destruction
// (map_ops_test.cc has the maps that call ops).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <stdexcept>

#include "tests/unit/data/test_util.h"
#include "tfcc/data/dataset.h"

namespace tfcc::data {
namespace {

using testing::ints;
using testing::iota;

TEST(MapTest, WrongArityIsAnError) {
  Dataset d =
      Dataset::range(3).map_element([](const Element& e) { return e; },
                                    {.output_spec = ElementSpec{{int64, PartialShape(Shape{})}}});
  auto two = [](Tensor a, Tensor) { return a; };
  EXPECT_THROW(d.map(two).take_one(), InvalidArgumentError);
}

TEST(MapTest, ParallelDeterministicKeepsOrder) {
  for (int64_t calls : {int64_t{2}, int64_t{4}, AUTOTUNE}) {
    Dataset d = Dataset::range(200).map([](Tensor x) { return testing::times(x, 2); },
                                        {.num_parallel_calls = calls});
    std::vector<int64_t> want;
    for (int64_t i = 0; i < 200; ++i) want.push_back(2 * i);
    EXPECT_EQ(ints(d), want) << calls;
  }
}

TEST(MapTest, ParallelNonDeterministicYieldsEveryElementOnce) {
  Dataset d = Dataset::range(300).map(
      [](Tensor x) {
        if (x.item<int64_t>() % 7 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
        return x;
      },
      {.num_parallel_calls = 4, .deterministic = false});
  std::vector<int64_t> got = ints(d);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, iota(300));
}

TEST(MapTest, ExceptionReachesTheConsumerInOrder) {
  for (int64_t calls : {int64_t{0}, int64_t{3}}) {
    Dataset d = Dataset::range(10).map(
        [](Tensor x) {
          if (x.item<int64_t>() == 5) throw std::runtime_error("bad element 5");
          return x;
        },
        {.num_parallel_calls = calls, .output_spec = ElementSpec{{int64, PartialShape(Shape{})}}});
    Iterator it = d.make_iterator();
    for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(it.get_next()[0].item<int64_t>(), i);
    try {
      it.get_next();
      FAIL();
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "bad element 5");
    }
    // Like TensorFlow, the iterator continues after an error.
    EXPECT_EQ(it.get_next()[0].item<int64_t>(), 6);
  }
}

TEST(MapTest, EarlyDestructionJoinsWorkers) {
  std::atomic<int> calls{0};
  {
    Dataset d = Dataset::range(1000000).map(
        [&calls](Tensor x) {
          calls.fetch_add(1);
          std::this_thread::sleep_for(std::chrono::microseconds(100));
          return x;
        },
        {.num_parallel_calls = 4, .output_spec = ElementSpec{{int64, PartialShape(Shape{})}}});
    Iterator it = d.make_iterator();
    it.get_next();
    it.get_next();
  }
  int after = calls.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(calls.load(), after);  // nothing runs once the iterator is gone
  EXPECT_LT(after, 100);
}

TEST(FilterTest, KeepsMatchingElements) {
  Dataset d = Dataset::range(10).filter([](Tensor x) { return x.item<int64_t>() % 3 == 0; });
  EXPECT_EQ(ints(d), (std::vector<int64_t>{0, 3, 6, 9}));
  Dataset bad = Dataset::range(3).filter([](Tensor x) { return x; });
  try {
    bad.take_one();
    FAIL();
  } catch (const InvalidArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("must be convertible to a scalar boolean tensor"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace tfcc::data
