// How many CPUs this process may use: the affinity mask (taskset, cpusets) capped by the cgroup
// CPU quota (a container's --cpus), as TensorFlow and Go size their pools. A quota of 1.5 CPUs
// rounds up to 2.
//
//   int threads = tfcc::available_cpus();   // e.g. 2 on a 64-core host in a --cpus=2 container
#pragma once

#include <optional>
#include <string_view>

namespace tfcc {

/// CPUs in the calling thread's affinity mask, capped by the cgroup (v2 or v1) CPU quota of the
/// process; at least 1.
int available_cpus();

namespace internal {

/// CPUs allowed by a cgroup v2 `cpu.max` line ("200000 100000" -> 2, "max 100000" -> none).
std::optional<int> cpus_from_cpu_max(std::string_view cpu_max);

/// CPUs allowed by cgroup v1 cfs_quota_us / cfs_period_us (quota -1: none).
std::optional<int> cpus_from_cfs(long long quota_us, long long period_us);

/// CPUs in the calling thread's affinity mask (std::thread::hardware_concurrency() if unknown).
int affinity_cpus();

}  // namespace internal
}  // namespace tfcc
