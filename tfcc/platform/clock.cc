#include "tfcc/platform/clock.h"

#include <chrono>

namespace tfcc {

uint64_t now_micros() {
  using namespace std::chrono;
  return duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count();
}

double wall_time_seconds() {
  using namespace std::chrono;
  return duration_cast<duration<double>>(system_clock::now().time_since_epoch()).count();
}

}  // namespace tfcc
