// write(), scalar() and text(): the summaries that need no computation on their data.
#include <cmath>
#include <cstring>
#include <ctime>

#include "tfcc/io/summary/summary.h"
#include "tfcc/io/summary/summary_trace.h"
#include "tfcc/platform/errors.h"

namespace tfcc::summary {
namespace {

double now_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

int64_t resolve_step(const Step& step) {
  if (step.has_value()) return step.value();
  std::optional<int64_t> fallback = experimental::get_step();
  if (!fallback) {
    throw InvalidArgumentError(
        "No step set. Please specify one either through the `step` argument or through "
        "tfcc::summary::experimental::set_step()");
  }
  return *fallback;
}

SummaryMetadata plugin_metadata(const char* plugin, const std::string& description) {
  SummaryMetadata m;
  m.plugin_name = plugin;
  m.summary_description = description;
  return m;
}

TensorProto string_tensor(std::vector<std::string> values, std::vector<int64_t> shape) {
  TensorProto t;
  t.dtype = kDtString;
  t.shape = std::move(shape);
  t.string_val = std::move(values);
  return t;
}

}  // namespace

bool write(const std::string& tag, const TensorProto& tensor, Step step,
           const SummaryMetadata& metadata) {
  if (!should_record_summaries()) return false;
  if (internal::tracing()) {
    internal::add_summary_node("WriteSummary", {}, step,
                               [tag, tensor, metadata](std::span<const Tensor>, int64_t s) {
                                 write(tag, tensor, s, metadata);
                               });
    return true;
  }
  Event event;
  event.step = resolve_step(step);
  event.wall_time = now_seconds();
  SummaryValue value;
  value.tag = tag;
  value.tensor = tensor;
  value.metadata = metadata;
  event.summary.push_back(std::move(value));
  default_writer().write_event(event);
  return true;
}

bool scalar(const std::string& name, const Tensor& data, Step step,
            const std::string& description) {
  if (!should_record_summaries()) return false;
  TFCC_CHECK_ARG(data.defined(), "summary::scalar(\"", name, "\"): data is a null tensor");
  const PartialShape shape = data.partial_shape();
  TFCC_CHECK_ARG(!shape.rank_known() || shape.rank() == 0, "summary::scalar(\"", name,
                 "\"): data must be a scalar, got shape ", shape.to_string());
  if (internal::tracing()) {
    Tensor in[] = {data};
    internal::add_summary_node("WriteSummary", in, step,
                               [name, description](std::span<const Tensor> v, int64_t s) {
                                 scalar(name, v[0], s, description);
                               });
    return true;
  }
  TFCC_CHECK_ARG(data.rank() == 0, "summary::scalar(\"", name,
                 "\"): data must be a scalar, got shape ", data.shape().to_string());
  return scalar(name, data.item<double>(), std::move(step), description);
}

bool scalar(const std::string& name, double data, Step step, const std::string& description) {
  if (!should_record_summaries()) return false;
  TensorProto t;
  t.dtype = kDtFloat;
  float f = static_cast<float>(data);
  t.tensor_content.assign(reinterpret_cast<const char*>(&f), sizeof f);
  return write(name, t, std::move(step), plugin_metadata("scalars", description));
}

bool text(const std::string& name, const std::string& data, Step step,
          const std::string& description) {
  if (!should_record_summaries()) return false;
  return write(name, string_tensor({data}, {}), std::move(step),
               plugin_metadata("text", description));
}

bool text(const std::string& name, const std::vector<std::string>& data, Step step,
          const std::string& description) {
  if (!should_record_summaries()) return false;
  return write(name, string_tensor(data, {static_cast<int64_t>(data.size())}), std::move(step),
               plugin_metadata("text", description));
}

}  // namespace tfcc::summary
