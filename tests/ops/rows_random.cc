// Conformance rows of the random family.
#include "tests/ops/harness.h"

namespace tfcc::conformance {

std::vector<OpRow> random_rows() { return {}; }

}  // namespace tfcc::conformance
