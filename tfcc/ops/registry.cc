#include "tfcc/ops/registry.h"

#include <mutex>

namespace tfcc {

OpRegistry& OpRegistry::global() {
  static OpRegistry* registry = [] {
    auto* r = new OpRegistry();
    register_all_ops(*r);
    auto problems = r->check();
    if (!problems.empty()) {
      std::string msg = "The op registry is incomplete:";
      for (const auto& p : problems) msg += "\n  " + p;
      throw InternalError(msg);
    }
    return r;
  }();
  return *registry;
}

OpDef& OpRegistry::add(const std::string& name) {
  auto [it, inserted] = ops_.emplace(name, nullptr);
  TFCC_REQUIRE(AlreadyExistsError, inserted, "Op ", name, " is registered twice");
  it->second = std::make_unique<OpDef>(name);
  return *it->second;
}

const OpDef* OpRegistry::find(std::string_view name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.get();
}

std::vector<const OpDef*> OpRegistry::ops() const {
  std::vector<const OpDef*> out;
  for (const auto& [name, op] : ops_) out.push_back(op.get());
  return out;
}

std::vector<std::string> OpRegistry::check() const {
  std::vector<std::string> problems;
  for (const auto& [name, op] : ops_) {
    if (!op->shape_function()) problems.push_back(name + ": no shape function");
    if (op->outputs().empty()) problems.push_back(name + ": no outputs declared");
    if (op->is_differentiable() && op->marked_not_differentiable()) {
      problems.push_back(name + ": has a gradient and is marked not differentiable");
    }
    if (!op->is_differentiable() && !op->marked_not_differentiable()) {
      problems.push_back(name + ": neither a gradient rule nor a not_differentiable() mark");
    }
    for (const auto& arg : op->inputs()) {
      if (!arg.fixed && !op->find_attr(arg.type_attr)) {
        problems.push_back(name + ": input " + arg.name + " names unknown type attr " +
                           arg.type_attr);
      }
    }
    const std::string& kt = op->kernel_type_attribute();
    if (kt.empty()) {
      if (!op->find_kernel(DeviceType::kCPU, float32)) {
        problems.push_back(name + ": no CPU kernel (ops without type attrs register float32)");
      }
      continue;
    }
    const AttrDef* ka = op->find_attr(kt);
    if (!ka || ka->type != AttrType::kType) {
      problems.push_back(name + ": kernel type attr " + kt + " is not a type attribute");
      continue;
    }
    for (DType t : ka->allowed) {
      if (!op->find_kernel(DeviceType::kCPU, t)) {
        problems.push_back(name + ": no CPU kernel for " + kt + "=" + std::string(dtype_name(t)));
      }
    }
  }
  return problems;
}

const OpDef& op_def(std::string_view name) {
  const OpDef* op = OpRegistry::global().find(name);
  TFCC_REQUIRE(NotFoundError, op != nullptr, "Op type not registered '", name, "'");
  return *op;
}

}  // namespace tfcc
