// parse_single_example inside tfcc::function: one host node (named like TensorFlow's op,
// ParseExampleV2) that parses the record at every call. Its outputs, feature by feature in spec
// order: [indices] values [byte_splits] [dense_shape] (the brackets where the feature has them).
#include <memory>

#include "tfcc/graph/trace/trace_context.h"
#include "tfcc/io/example/parse_internal.h"
#include "tfcc/platform/errors.h"

namespace tfcc::io::internal {
namespace {

struct Output {
  DType dtype;
  PartialShape shape;
};

// The node's outputs for one feature, with the static shapes TensorFlow's op gives.
std::vector<Output> outputs_of(const FeatureSpec& spec) {
  const DType dtype = std::visit([](const auto& s) { return s.dtype; }, spec);
  const bool bytes = dtype == uint8;
  std::vector<Output> out;
  if (std::holds_alternative<VarLenFeature>(spec)) out.push_back({int64, PartialShape{-1, 1}});
  if (const auto* f = std::get_if<FixedLenFeature>(&spec); f && !bytes) {
    out.push_back({dtype, f->shape});
  } else if (const auto* s = std::get_if<FixedLenSequenceFeature>(&spec); s && !bytes) {
    std::vector<int64_t> dims = s->shape.dims();
    dims.insert(dims.begin(), -1);
    out.push_back({dtype, PartialShape(dims)});
  } else {
    out.push_back({dtype, PartialShape{-1}});
  }
  if (bytes) {
    const auto* f = std::get_if<FixedLenFeature>(&spec);
    out.push_back({int64, PartialShape{f ? f->shape.num_elements() + 1 : -1}});
  }
  if (std::holds_alternative<VarLenFeature>(spec)) out.push_back({int64, PartialShape{1}});
  return out;
}

std::vector<Tensor> flatten(const ParsedFeature& f) {
  std::vector<Tensor> out;
  if (f.is_sparse()) out.push_back(f.indices);
  out.push_back(f.values);
  if (f.is_bytes()) out.push_back(f.byte_splits);
  if (f.is_sparse()) out.push_back(f.dense_shape);
  return out;
}

}  // namespace

ParsedExample traced_parse_single_example(const Tensor& serialized, const FeatureSpecs& features) {
  graph::TraceContext* ctx = graph::TraceContext::current();
  TFCC_CHECK_ARG(ctx != nullptr,
                 "parse_single_example: the record is a symbolic tensor but no function is "
                 "being traced");
  for (const auto& [key, spec] : features) {
    check_spec(key, spec, "parse_single_example", false, false);
  }
  auto host = std::make_shared<graph::HostFn>();
  host->name = "ParseExampleV2";
  host->fn = [features](std::span<const Tensor> in) {
    const Tensor& record = in[0];
    ParsedExample parsed = parse_single_example(
        std::string_view(static_cast<const char*>(record.raw_data()), record.nbytes()), features);
    std::vector<Tensor> out;
    for (const auto& [key, spec] : features) {
      std::vector<Tensor> part = flatten(parsed.at(key));
      out.insert(out.end(), part.begin(), part.end());
    }
    return out;
  };
  graph::Node n;
  n.kind = graph::NodeKind::kHostCall;
  n.host = std::move(host);
  for (const auto& [key, spec] : features) {
    for (const Output& o : outputs_of(spec)) {
      n.dtypes.push_back(o.dtype);
      n.shapes.push_back(o.shape);
    }
  }
  const std::vector<Tensor> inputs{serialized};
  std::vector<Tensor> out = ctx->add_node(std::move(n), inputs);
  ParsedExample parsed;
  size_t at = 0;
  for (const auto& [key, spec] : features) {
    ParsedFeature f;
    const bool sparse = std::holds_alternative<VarLenFeature>(spec);
    const bool bytes = std::visit([](const auto& s) { return s.dtype == uint8; }, spec);
    if (sparse) f.indices = out[at++];
    f.values = out[at++];
    if (bytes) f.byte_splits = out[at++];
    if (sparse) f.dense_shape = out[at++];
    if (const auto* fixed = std::get_if<FixedLenFeature>(&spec)) {
      f.shape = fixed->shape;
    } else if (const auto* seq = std::get_if<FixedLenSequenceFeature>(&spec)) {
      std::vector<int64_t> dims = seq->shape.dims();
      dims.insert(dims.begin(), -1);
      f.shape = PartialShape(dims);
    }
    parsed.emplace(key, std::move(f));
  }
  return parsed;
}

}  // namespace tfcc::io::internal
