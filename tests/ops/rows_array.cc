// Conformance rows of the array family.
#include "tests/ops/harness.h"

namespace tfcc::conformance {

std::vector<OpRow> array_rows() { return {}; }

}  // namespace tfcc::conformance
