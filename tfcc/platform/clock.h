// Monotonic and wall clocks.
//
//   uint64_t t0 = tfcc::now_micros();  ...;  double s = (tfcc::now_micros() - t0) / 1e6;
#pragma once

#include <cstdint>

namespace tfcc {

/// Microseconds on a monotonic clock (for durations).
uint64_t now_micros();

/// Seconds since the Unix epoch, with sub-second precision (for timestamps, e.g. event files).
double wall_time_seconds();

}  // namespace tfcc
