// tfcc::available_cpus: the affinity mask is respected (a thread pinned to one CPU sees 1), and
// cgroup quotas parse as TensorFlow and Go read them (rounded up, "max" and -1 mean no quota).
#include "tfcc/platform/cpu_count.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <thread>

namespace tfcc {
namespace {

TEST(CpuCount, CgroupV2CpuMax) {
  EXPECT_EQ(internal::cpus_from_cpu_max("200000 100000"), 2);
  EXPECT_EQ(internal::cpus_from_cpu_max("150000 100000"), 2) << "1.5 CPUs round up";
  EXPECT_EQ(internal::cpus_from_cpu_max("50000 100000"), 1);
  EXPECT_EQ(internal::cpus_from_cpu_max("max 100000"), std::nullopt);
  EXPECT_EQ(internal::cpus_from_cpu_max(""), std::nullopt);
  EXPECT_EQ(internal::cpus_from_cpu_max("garbage"), std::nullopt);
  EXPECT_EQ(internal::cpus_from_cpu_max("100000 0"), std::nullopt);
}

TEST(CpuCount, CgroupV1Cfs) {
  EXPECT_EQ(internal::cpus_from_cfs(-1, 100000), std::nullopt);
  EXPECT_EQ(internal::cpus_from_cfs(400000, 100000), 4);
  EXPECT_EQ(internal::cpus_from_cfs(1, 100000), 1);
}

TEST(CpuCount, AtLeastOneAndAtMostTheMask) {
  const int n = available_cpus();
  EXPECT_GE(n, 1);
  EXPECT_LE(n, internal::affinity_cpus());
}

TEST(CpuCount, AThreadPinnedToOneCpuSeesOne) {
  cpu_set_t mask;
  ASSERT_EQ(sched_getaffinity(0, sizeof mask, &mask), 0);
  int first = -1;
  for (int c = 0; c < CPU_SETSIZE && first < 0; ++c) {
    if (CPU_ISSET(c, &mask)) first = c;
  }
  ASSERT_GE(first, 0);
  int seen = -1, seen_mask = -1;
  std::thread t([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) return;
    seen_mask = internal::affinity_cpus();
    seen = available_cpus();
  });
  t.join();
  EXPECT_EQ(seen_mask, 1);
  EXPECT_EQ(seen, 1);
}

}  // namespace
}  // namespace tfcc
