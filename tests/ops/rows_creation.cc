// Conformance rows of the creation family.
#include "tests/ops/harness.h"

namespace tfcc::conformance {

std::vector<OpRow> creation_rows() { return {}; }

}  // namespace tfcc::conformance
