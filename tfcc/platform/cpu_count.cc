// Reads the affinity mask with sched_getaffinity (sized for hosts with more than 1024 CPUs) and
// the quota from the cgroup files of this process: cgroup v2 `cpu.max` of its own group and every
// parent (the tightest wins), else cgroup v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`.
#include "tfcc/platform/cpu_count.h"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace tfcc {
namespace {

std::optional<std::string> read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

// The cgroup path of this process for a v1 controller ("cpu"), or the v2 path ("" controller).
std::optional<std::string> cgroup_path(std::string_view controller) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    // hierarchy-id:controller-list:path
    const size_t a = line.find(':');
    const size_t b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string list = line.substr(a + 1, b - a - 1);
    std::istringstream names(list);
    std::string name;
    bool match = controller.empty() && list.empty();
    while (!match && !controller.empty() && std::getline(names, name, ',')) {
      match = name == controller;
    }
    if (match) return line.substr(b + 1);
  }
  return std::nullopt;
}

std::optional<int> min_opt(std::optional<int> a, std::optional<int> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

std::optional<int> cgroup_v2_cpus() {
  std::optional<std::string> path = cgroup_path("");
  if (!path) return std::nullopt;
  std::optional<int> best;
  // Walk from the process's group up to the root: a parent's quota caps its children.
  std::string p = *path;
  for (;;) {
    if (auto line = read_first_line("/sys/fs/cgroup" + p + (p == "/" ? "" : "/") + "cpu.max")) {
      best = min_opt(best, internal::cpus_from_cpu_max(*line));
    }
    if (p.empty() || p == "/") break;
    const size_t slash = p.rfind('/');
    p = slash == 0 || slash == std::string::npos ? "/" : p.substr(0, slash);
  }
  return best;
}

std::optional<int> cgroup_v1_cpus() {
  std::optional<std::string> path = cgroup_path("cpu");
  if (!path) return std::nullopt;
  for (const char* mount : {"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"}) {
    for (const std::string& dir : {std::string(mount) + *path, std::string(mount)}) {
      auto quota = read_first_line(dir + "/cpu.cfs_quota_us");
      auto period = read_first_line(dir + "/cpu.cfs_period_us");
      if (!quota || !period) continue;
      try {
        return internal::cpus_from_cfs(std::stoll(*quota), std::stoll(*period));
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
  }
  return std::nullopt;
}

}  // namespace

namespace internal {

std::optional<int> cpus_from_cpu_max(std::string_view cpu_max) {
  std::istringstream in{std::string(cpu_max)};
  std::string quota;
  long long period = 0;
  if (!(in >> quota >> period) || quota == "max") return std::nullopt;
  try {
    return cpus_from_cfs(std::stoll(quota), period);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<int> cpus_from_cfs(long long quota_us, long long period_us) {
  if (quota_us <= 0 || period_us <= 0) return std::nullopt;
  const double cpus = std::ceil(static_cast<double>(quota_us) / static_cast<double>(period_us));
  return static_cast<int>(std::clamp(cpus, 1.0, 1e6));
}

int affinity_cpus() {
  for (int size = 1024; size <= (1 << 20); size *= 4) {
    cpu_set_t* set = CPU_ALLOC(size);
    const size_t bytes = CPU_ALLOC_SIZE(size);
    const int rc = sched_getaffinity(0, bytes, set);
    const int count = rc == 0 ? CPU_COUNT_S(bytes, set) : 0;
    CPU_FREE(set);
    if (rc == 0) return std::max(count, 1);
    if (errno != EINVAL) break;  // EINVAL: the mask is larger than `size` CPUs
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace internal

int available_cpus() {
  int n = internal::affinity_cpus();
  if (std::optional<int> q = cgroup_v2_cpus()) n = std::min(n, *q);
  if (std::optional<int> q = cgroup_v1_cpus()) n = std::min(n, *q);
  return std::max(n, 1);
}

}  // namespace tfcc
