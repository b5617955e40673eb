// Conformance rows of the binary family.
#include "tests/ops/harness.h"

namespace tfcc::conformance {

std::vector<OpRow> binary_rows() { return {}; }

}  // namespace tfcc::conformance
