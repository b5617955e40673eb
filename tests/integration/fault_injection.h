// The fault-injection suite's program (see fault_injection_test.py): one binary, two halves.
#pragma once

namespace fault_injection {

/// `save`, `load` and `diskfull` (fault_injection_saves.cc).
int saves_main(int argc, char** argv);
/// `bombs` and `damage` (fault_injection_files.cc): prints one summary line each, exit 1 if any
/// hostile file escaped as something other than a tfcc error.
int files_main(int argc, char** argv);

}  // namespace fault_injection
