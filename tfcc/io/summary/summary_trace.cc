#include "tfcc/io/summary/summary_trace.h"

#include <memory>
#include <string>

#include "tfcc/graph/trace/trace_context.h"
#include "tfcc/platform/errors.h"

namespace tfcc::summary::internal {

bool tracing() { return graph::TraceContext::current() != nullptr; }

void add_summary_node(const char* op, std::span<const Tensor> inputs, const Step& step,
                      TracedWrite write, std::source_location loc) {
  graph::TraceContext* ctx = graph::TraceContext::current();
  if (!ctx) throw InternalError("add_summary_node called outside a trace");
  Step s = step.has_value() ? step : default_step();
  if (!s.has_value()) {
    throw InvalidArgumentError(
        "No step set. Please specify one either through the `step` argument or through "
        "tfcc::summary::experimental::set_step()");
  }
  std::vector<Tensor> node_inputs(inputs.begin(), inputs.end());
  size_t data_count = node_inputs.size();
  // A tensor step travels as an input (it may be symbolic); integers and variables stay in the
  // callback, a variable being read when the node runs.
  bool step_is_input = s.tensor().defined();
  if (step_is_input) {
    const Tensor& t = s.tensor();
    DType d = t.dtype();
    TFCC_CHECK_ARG(d == int64 || d == int32 || d == uint8,
                   "summary step must be an integer, got a ", dtype_name(d), " tensor");
    TFCC_CHECK_ARG(!t.partial_shape().rank_known() || t.partial_shape().rank() == 0,
                   "summary step must be a scalar, got shape ", t.partial_shape().to_string());
    node_inputs.push_back(t);
    s = Step();
  }
  auto host = std::make_shared<graph::HostFn>();
  host->name = op;
  host->fn = [writer = default_writer(), condition = record_condition(), s, step_is_input,
              data_count, write = std::move(write)](std::span<const Tensor> values) {
    if (condition && !condition()) return std::vector<Tensor>{};
    int64_t step_value = step_is_input ? Step(values[data_count]).value() : s.value();
    WriterOverride scope(writer);
    write(values.first(data_count), step_value);
    return std::vector<Tensor>{};
  };
  graph::Node n;
  n.kind = graph::NodeKind::kHostCall;
  n.host = std::move(host);
  n.location = loc;
  ctx->add_node(std::move(n), node_inputs);
}

}  // namespace tfcc::summary::internal
