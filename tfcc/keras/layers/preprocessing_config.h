// Config conversions the categorical and text preprocessing layers share (not public API):
// Keras 3 writes their lists and optional strings as None when unset.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tfcc/keras/engine/config_schema.h"

namespace tfcc::keras::layers::internal {

/// A list of numbers, None when empty (idf_weights).
struct NumbersOrNone {
  static std::string repr(const std::vector<double>& v);
  static void read(const saving::Json& v, std::vector<double>& out, std::string_view what);
};

/// An optional list of numbers (Discretization's bin_boundaries); a single number reads as one.
struct OptionalNumbers {
  static std::string repr(const std::optional<std::vector<double>>& v);
  static void read(const saving::Json& v, std::optional<std::vector<double>>& out,
                   std::string_view what);
};

/// A vocabulary: a list of strings or of ints, None when empty.
template <typename T>
struct TokensOrNone {
  static std::string repr(const std::vector<T>& v);
  static void read(const saving::Json& v, std::vector<T>& out, std::string_view what);
};

/// A string where "" means None (TextVectorization's standardize and split).
struct EmptyIsNone {
  static std::string repr(const std::string& v);
  static void read(const saving::Json& v, std::string& out, std::string_view what);
};

/// TextVectorization's ngrams: None (no n-grams), an int n (widths 1..n) or a tuple of widths.
struct Ngrams {
  static std::string repr(const std::vector<int64_t>& v);
  static void read(const saving::Json& v, std::vector<int64_t>& out, std::string_view what);
};

}  // namespace tfcc::keras::layers::internal
