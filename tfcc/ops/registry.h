// The op registry: every op's OpDef, filled once by explicit register_<family>_ops() calls (no
// static registrars a linker could drop) and checked for completeness before first use.
//
//   const tfcc::OpDef& add = tfcc::op_def("AddV2");
//   for (const tfcc::OpDef* op : tfcc::OpRegistry::global().ops()) std::cout << op->name();
// Internal to the library (not installed, not exported from libtfcc.so); a program looks an op up
// with tfcc::op_def (tfcc/ops/op_def.h).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/ops/op_def.h"

namespace tfcc {

/// Holds every OpDef by name.
class OpRegistry {
 public:
  /// The process-wide registry, with every family registered and checked.
  static OpRegistry& global();

  /// Adds a new op (AlreadyExistsError if the name is taken).
  OpDef& add(const std::string& name);
  /// The op, or nullptr.
  const OpDef* find(std::string_view name) const;
  /// Every op, sorted by name.
  std::vector<const OpDef*> ops() const;

  /// The completeness check: returns one line per problem (empty when all is well).
  std::vector<std::string> check() const;

 private:
  std::map<std::string, std::unique_ptr<OpDef>, std::less<>> ops_;
};

/// Registers every op family (called once by OpRegistry::global()).
void register_all_ops(OpRegistry& registry);

}  // namespace tfcc
