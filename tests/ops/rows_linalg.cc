// Conformance rows of the linalg family.
#include "tests/ops/harness.h"

namespace tfcc::conformance {

std::vector<OpRow> linalg_rows() { return {}; }

}  // namespace tfcc::conformance
