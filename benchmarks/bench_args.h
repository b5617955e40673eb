// Command-line options shared by the benchmarks that time training steps (fit_cnn_bench,
// cnn_step_bench): --threads N, --steps N, --json OUT.
//
//   tfcc_bench::StepArgs args = tfcc_bench::parse_step_args(argc, argv, "cnn_step_bench", 200);
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace tfcc_bench {

/// What a step benchmark was asked to do.
struct StepArgs {
  int threads = 2;    ///< OpenMP threads for tfcc's kernels and oneDNN
  int64_t steps = 0;  ///< timed steps
  std::string json;   ///< where to write the result as JSON (empty: nowhere)
};

/// Parses --threads, --steps and --json; an unknown option prints a message naming `program`
/// and exits with status 2.
inline StepArgs parse_step_args(int argc, char** argv, const char* program, int64_t steps) {
  StepArgs a;
  a.steps = steps;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--threads") == 0) {
      a.threads = std::atoi(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--steps") == 0) {
      a.steps = std::atoll(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--json") == 0) {
      a.json = argv[i + 1];
    } else {
      std::fprintf(stderr, "%s: unknown option %s\n", program, argv[i]);
      std::exit(2);
    }
  }
  return a;
}

}  // namespace tfcc_bench
