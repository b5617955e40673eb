// Keras backend settings and per-session state: unique layer names, floatx, epsilon.
//
//   tfcc::keras::backend::unique_object_name("dense");   // "dense", then "dense_1", ...
//   tfcc::keras::backend::clear_session();                // names start again from "dense"
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <string>

namespace tfcc::keras::backend {

/// `base` the first time it is asked for in this session, then "base_1", "base_2", ...; with
/// zero_based false the first is "base_1" (Keras' rule for Input layers).
std::string unique_object_name(const std::string& base, bool zero_based = true);
/// Resets the unique-name counters (tf.keras.backend.clear_session).
void clear_session();
/// The fuzz factor, 1e-7 (tf.keras.backend.epsilon()).
inline constexpr double epsilon() { return 1e-7; }
/// "CamelCase2D" -> "camel_case2d", Keras' default layer-name rule.
std::string to_snake_case(const std::string& name);

}  // namespace tfcc::keras::backend
#pragma GCC visibility pop
