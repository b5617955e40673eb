// Re-raising a tfcc::Error with context added, keeping its type (an InvalidArgumentError from a
// kernel stays one after the executor names the node and the user's line).
#pragma once

#include <string>

#include "tfcc/platform/errors.h"

namespace tfcc::graph {

/// Throws an error of e's type whose message is e's followed by `note`.
[[noreturn]] void rethrow_with_note(const Error& e, const std::string& note);

}  // namespace tfcc::graph
