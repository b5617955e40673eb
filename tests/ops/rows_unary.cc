// Conformance rows of the unary family.
#include "tests/ops/harness.h"

namespace tfcc::conformance {

std::vector<OpRow> unary_rows() { return {}; }

}  // namespace tfcc::conformance
