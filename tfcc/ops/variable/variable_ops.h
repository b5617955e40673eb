// Variable ops: ReadVariableOp and the assignments, the op-backed side of tfcc::Variable (whose
// methods read_value / assign / assign_add / assign_sub dispatch these).
//
//   tfcc::Variable v(tfcc::constant({1.f, 2.f}));
//   v.assign_add(tfcc::constant({1.f, 1.f}));
//   v.read_value();    // [2. 3.]
#pragma once

#include "tfcc/core/variable.h"

namespace tfcc {

/// The variable a ReadVariableOp / Assign*VariableOp call refers to (from its attributes).
const std::shared_ptr<VariableState>& variable_of(const class Attrs& attrs);

}  // namespace tfcc
