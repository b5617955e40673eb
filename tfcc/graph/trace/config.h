// Process-wide switches of graph mode, like tf.config's.
//
//   tfcc::config::run_functions_eagerly(true);   // every tfcc::function runs its C++ eagerly:
//                                                 // step through it in a debugger, print values
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

namespace tfcc::config {

/// Makes every tfcc::function call its callable directly (no tracing) while `enable` is true,
/// as tf.config.run_functions_eagerly does; for debugging.
void run_functions_eagerly(bool enable);
/// Whether functions currently run eagerly.
bool functions_run_eagerly();

}  // namespace tfcc::config
#pragma GCC visibility pop
