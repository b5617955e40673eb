// Iterator state as bytes: what `Iterator::save()` returns and `Iterator::restore()` reads.
//
//   std::string state = it.save();     // position, shuffle buffers and RNG counters, ...
//   auto again = dataset.make_iterator();
//   again.restore(state);              // continues exactly where `it` was
//
// Each iterator writes its own fields then its inputs', in a fixed order, so the layout needs no
// field names. A state that does not parse raises DataLossError; one written by a different
// pipeline raises FailedPreconditionError (the iterator names are checked).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <string>
#include <string_view>

#include "tfcc/data/element.h"

namespace tfcc::data {

/// Appends typed fields to a byte string.
class StateWriter {
 public:
  void write_i64(int64_t v);
  void write_u64(uint64_t v);
  void write_string(std::string_view s);
  void write_tensor(const Tensor& t);
  void write_element(const Element& e);
  /// Writes a tag that restore checks, so a state cannot be fed to a different pipeline.
  void write_tag(std::string_view name) { write_string(name); }
  const std::string& bytes() const { return out_; }

 private:
  std::string out_;
};

/// Reads fields written by StateWriter, bounds-checked.
class StateReader {
 public:
  explicit StateReader(std::string_view bytes) : in_(bytes) {}
  int64_t read_i64();
  uint64_t read_u64();
  std::string read_string();
  Tensor read_tensor();
  Element read_element();
  /// Reads a tag and checks it is `name`.
  void expect_tag(std::string_view name);
  bool done() const { return pos_ == in_.size(); }

 private:
  void need(size_t n, const char* what);
  std::string_view in_;
  size_t pos_ = 0;
};

}  // namespace tfcc::data
#pragma GCC visibility pop
