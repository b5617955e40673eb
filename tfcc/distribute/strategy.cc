#include "tfcc/distribute/strategy.h"

#include <algorithm>
#include <mutex>

#include "tfcc/platform/errors.h"

namespace tfcc::distribute {
namespace {

// Scopes are process-wide (like TF's strategy scope, which input pipelines and callbacks on other
// threads also see); the stack only changes when a scope begins or ends.
std::mutex& scope_mutex() {
  static std::mutex mu;
  return mu;
}
std::vector<Strategy*>& scope_stack() {
  static std::vector<Strategy*> stack;
  return stack;
}

}  // namespace

Tensor Strategy::reduce(ReduceOp op, const Tensor& value) {
  Tensor in[] = {value};
  return all_reduce(in, op).front();
}

StrategyScope Strategy::scope() { return StrategyScope(this); }

std::vector<Tensor> DefaultStrategy::all_reduce(std::span<const Tensor> values, ReduceOp) {
  for (const Tensor& v : values) {
    TFCC_CHECK_ARG(v.defined(), "all_reduce got an undefined tensor (a gradient that is None?)");
  }
  return {values.begin(), values.end()};
}

void DefaultStrategy::broadcast_variables(std::span<const Variable>) {}

Strategy& get_strategy() {
  static DefaultStrategy default_strategy;
  std::lock_guard<std::mutex> lock(scope_mutex());
  auto& stack = scope_stack();
  return stack.empty() ? static_cast<Strategy&>(default_strategy) : *stack.back();
}

bool has_strategy() {
  std::lock_guard<std::mutex> lock(scope_mutex());
  return !scope_stack().empty();
}

StrategyScope::StrategyScope(Strategy* strategy) : strategy_(strategy) {
  TFCC_CHECK_ARG(strategy != nullptr, "StrategyScope needs a strategy");
  std::lock_guard<std::mutex> lock(scope_mutex());
  scope_stack().push_back(strategy);
}

StrategyScope::StrategyScope(StrategyScope&& other) noexcept : strategy_(other.strategy_) {
  other.strategy_ = nullptr;
}

StrategyScope::~StrategyScope() {
  if (strategy_ == nullptr) return;
  std::lock_guard<std::mutex> lock(scope_mutex());
  auto& stack = scope_stack();
  // Scopes end in reverse order in correct code; tolerate out-of-order ends without corrupting.
  auto it = std::find(stack.rbegin(), stack.rend(), strategy_);
  if (it != stack.rend()) stack.erase(std::next(it).base());
}

}  // namespace tfcc::distribute
