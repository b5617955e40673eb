#include "tfcc/version.h"

namespace tfcc {

std::string_view version() { return TFCC_VERSION_STRING; }

}  // namespace tfcc
