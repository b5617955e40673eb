// fault_injection save|load|diskfull KIND DIR | bombs DIR | damage DIR
#include <cstring>
#include <string>

#include "tests/integration/fault_injection.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/run_main.h"

namespace {

int dispatch(int argc, char** argv) {
  if (argc < 3) {
    throw tfcc::InvalidArgumentError(
        "usage: fault_injection save|load|diskfull KIND DIR [COUNT] | bombs DIR | damage DIR");
  }
  const std::string mode = argv[1];
  if (mode == "bombs" || mode == "damage") return fault_injection::files_main(argc, argv);
  return fault_injection::saves_main(argc, argv);
}

}  // namespace

int main(int argc, char** argv) { return tfcc::run_main(argc, argv, dispatch); }
