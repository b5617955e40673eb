// The `tfcc` command line: `tfcc <command> [arguments]`. The commands are listed in kCommands.
#include <iostream>
#include <string>
#include <vector>

#include "tfcc/platform/run_main.h"
#include "tfcc/version.h"
#include "tools/tfcc/commands.h"

namespace tfcc::tools {
namespace {

std::vector<Command> commands() {
  return {
      summary_command(),
      saved_model_command(),
  };
}

void usage(std::ostream& os) {
  os << "usage: tfcc <command> [arguments]\n       tfcc --version\n\ncommands:\n";
  for (const Command& c : commands()) {
    std::string head = std::string(c.name).append(" ").append(c.arguments);
    os << "  " << head << std::string(head.size() < 26 ? 26 - head.size() : 1, ' ') << c.help
       << "\n";
  }
}

int run(int argc, char** argv) {
  if (argc < 2) {
    usage(std::cerr);
    return 2;
  }
  std::string name = argv[1];
  if (name == "-h" || name == "--help" || name == "help") {
    usage(std::cout);
    return 0;
  }
  if (name == "--version" || name == "version") {
    // The library's version (tfcc::version()), which the headers' TFCC_VERSION_STRING matches.
    std::cout << "tfcc " << tfcc::version() << "\n";
    return 0;
  }
  for (const Command& c : commands()) {
    if (c.name == name) return c.run(std::vector<std::string>(argv + 2, argv + argc));
  }
  std::cerr << "tfcc: unknown command '" << name << "'\n\n";
  usage(std::cerr);
  return 2;
}

}  // namespace
}  // namespace tfcc::tools

// Errors a command does not handle end the program with their message and status 1.
int main(int argc, char** argv) { return tfcc::run_main(argc, argv, tfcc::tools::run); }
