#include "tfcc/distribute/strategy.h"

#include <algorithm>
#include <mutex>

#include "tfcc/graph/trace/trace_context.h"
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

Strategy::Strategy() : alive_(std::make_shared<Strategy*>(this)) {}

std::vector<Tensor> Strategy::all_reduce(std::span<const Tensor> values, ReduceOp op,
                                         std::source_location loc) {
  bool symbolic = false;
  for (size_t i = 0; i < values.size(); ++i) {
    TFCC_CHECK_ARG(values[i].defined(), "all_reduce: tensor ", i,
                   " is undefined (a gradient that is None?); pass only defined tensors");
    symbolic = symbolic || values[i].is_symbolic();
  }
  if (!symbolic) return all_reduce_concrete(values, op);
  if (num_replicas_in_sync() == 1) return {values.begin(), values.end()};
  graph::TraceContext* ctx = graph::TraceContext::current();
  TFCC_REQUIRE(FailedPreconditionError, ctx != nullptr,
               "all_reduce received symbolic tensors outside the function trace that made them");
  auto host = std::make_shared<graph::HostFn>();
  host->name = "CollectiveAllReduce";
  host->fn = [alive = std::weak_ptr<Strategy*>(alive_), op](std::span<const Tensor> in) {
    std::shared_ptr<Strategy*> strategy = alive.lock();
    TFCC_REQUIRE(FailedPreconditionError, strategy != nullptr,
                 "CollectiveAllReduce: the distribution strategy this function was traced under "
                 "has been destroyed; keep the strategy alive while its functions run");
    return (*strategy)->all_reduce_concrete(in, op);
  };
  graph::Node n;
  n.kind = graph::NodeKind::kHostCall;
  n.host = std::move(host);
  n.location = loc;
  for (const Tensor& v : values) {
    n.dtypes.push_back(v.dtype());
    n.shapes.push_back(v.partial_shape());
  }
  return ctx->add_node(std::move(n), values);
}

Tensor Strategy::reduce(ReduceOp op, const Tensor& value) {
  Tensor in[] = {value};
  return all_reduce(in, op).front();
}

StrategyScope Strategy::scope() { return StrategyScope(this); }

std::vector<Tensor> DefaultStrategy::all_reduce_concrete(std::span<const Tensor> values, ReduceOp) {
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
