// Conversions between io::Feature and the generated tensorflow::Feature message (internal).
#pragma once

#include "tfcc/io/example/example.h"
#include "tfcc/io/proto/example.pb.h"

namespace tfcc::io::internal {

/// Fills `out` (cleared first) from `f`.
void to_proto(const Feature& f, tensorflow::Feature& out);
/// The io::Feature `p` holds.
Feature from_proto(const tensorflow::Feature& p);
/// The kind of list `p` holds.
Feature::Kind kind_of(const tensorflow::Feature& p);

}  // namespace tfcc::io::internal
