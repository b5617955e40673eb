// A program's main that ends with a message and a non-zero exit status when a tfcc error (or any
// other exception) escapes, instead of std::terminate, SIGABRT and a backtrace.
//
//   static int train(int argc, char** argv) { ...; return 0; }
//   int main(int argc, char** argv) { return tfcc::run_main(argc, argv, train); }
//
// A DeadlineExceededError from a distribution strategy whose peer died, for example, prints
//   distributed_fit_cnn: DeadlineExceededError: all-reduce: rank 1 did not answer within 30 s
// on stderr and exits with status 1.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdio>
#include <cstring>
#include <exception>
#include <type_traits>

#include "tfcc/platform/errors.h"

namespace tfcc {

/// Runs `body` (callable as `int(int, char**)` or `int()`) and returns its status; an escaping
/// exception is printed as "<program>: <ErrorName>: <message>" and gives status 1.
template <typename F>
int run_main(int argc, char** argv, F&& body) {
  const char* program = argc > 0 && argv[0] != nullptr ? argv[0] : "program";
  if (const char* slash = std::strrchr(program, '/')) program = slash + 1;
  auto report = [&](const char* kind, const char* message) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %s: %s\n", program, kind, message);
    std::fflush(stderr);
    return 1;
  };
  try {
    if constexpr (std::is_invocable_v<F, int, char**>) {
      return body(argc, argv);
    } else {
      return body();
    }
  } catch (const Error& e) {
    return report(error_code_name(e.code()), e.what());
  } catch (const std::exception& e) {
    return report("error", e.what());
  }
}

}  // namespace tfcc
#pragma GCC visibility pop
