// EinsumDense: the kernel's and bias' shapes follow Keras' _analyze_split_string: a kernel letter
// in the output takes the output's dimension, one in the input the input's; the bias spans the
// output from its first bias letter on, with 1 for the letters it does not name.
#include "tfcc/keras/layers/einsum_dense.h"

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/linalg/einsum.h"
#include "tfcc/platform/errors.h"

namespace tfcc::keras::layers {
namespace config {

std::string repr_shape(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    s += (i ? ", " : "") + (shape[i] < 0 ? std::string("None") : std::to_string(shape[i]));
  }
  return s + "]";
}

}  // namespace config

EinsumDense::EinsumDense(std::string equation, std::vector<int64_t> output_shape, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype,
             options.activity_regularizer},
            "einsum_dense"),
      equation_(std::move(equation)),
      output_shape_(std::move(output_shape)),
      options_(std::move(options)) {}

void EinsumDense::build(const PartialShape& input_shape) {
  const size_t comma = equation_.find(','), arrow = equation_.find("->");
  TFCC_CHECK_ARG(comma != std::string::npos && arrow != std::string::npos && comma < arrow,
                 "EinsumDense '", name(), "': invalid equation '", equation_,
                 "' (expected 'input,kernel->output')");
  std::string in = equation_.substr(0, comma), w = equation_.substr(comma + 1, arrow - comma - 1),
              out = equation_.substr(arrow + 2);
  const bool left_elided = in.starts_with("...");
  TFCC_CHECK_ARG(left_elided == out.starts_with("...") && w.find('.') == std::string::npos &&
                     in.find('.', left_elided ? 3 : 0) == std::string::npos,
                 "EinsumDense '", name(), "': equation '", equation_,
                 "' (an ellipsis may only lead both the input and the output)");
  if (left_elided) {
    in = in.substr(3);
    out = out.substr(3);
  }
  TFCC_CHECK_ARG(input_shape.rank_known(), "EinsumDense '", name(), "': input of unknown rank");
  const std::vector<int64_t>& ishape = input_shape.dims();
  const int64_t rank = int64_t(ishape.size());
  const int64_t elided = rank - int64_t(in.size());
  TFCC_CHECK_ARG(elided >= 0 && (left_elided || elided == 0), "EinsumDense '", name(),
                 "': input shape ", input_shape.to_string(), " does not fit equation '", equation_,
                 "'");
  // The full output shape: batch, then the dims "..." covers, then output_shape.
  std::vector<int64_t> full(ishape.begin(), ishape.begin() + std::max<int64_t>(elided, 1));
  full.insert(full.end(), output_shape_.begin(), output_shape_.end());
  const int64_t out_offset = left_elided ? elided : 0;
  TFCC_CHECK_ARG(int64_t(full.size()) == out_offset + int64_t(out.size()), "EinsumDense '", name(),
                 "': output_shape ", config::repr_shape(output_shape_),
                 " does not fit the output '", out, "' of '", equation_, "'");
  std::vector<int64_t> kshape;
  for (char c : w) {
    const size_t po = out.find(c), pi = in.find(c);
    int64_t d = -1;
    if (po != std::string::npos) d = full[size_t(out_offset) + po];
    if (d < 0 && pi != std::string::npos) d = ishape[size_t(elided) + pi];
    TFCC_CHECK_ARG(d > 0, "EinsumDense '", name(), "': the kernel dimension '", c,
                   "' is not known from the input ", input_shape.to_string(), " or output_shape");
    kshape.push_back(d);
  }
  kernel_ = add_weight(
      "kernel", Shape(kshape),
      {.initializer = options_.kernel_initializer, .regularizer = options_.kernel_regularizer});
  if (!options_.bias_axes.empty()) {
    size_t first = out.size();
    for (char c : options_.bias_axes) {
      const size_t p = out.find(c);
      TFCC_CHECK_ARG(p != std::string::npos, "EinsumDense '", name(), "': bias axis '", c,
                     "' is not in the output '", out, "'");
      first = std::min(first, p);
    }
    std::vector<int64_t> bshape;
    for (size_t p = first; p < out.size(); ++p) {
      const bool biased = options_.bias_axes.find(out[p]) != std::string::npos;
      bshape.push_back(biased ? full[size_t(out_offset) + p] : 1);
    }
    bias_ = add_weight(
        "bias", Shape(bshape),
        {.initializer = options_.bias_initializer, .regularizer = options_.bias_regularizer});
  }
}

Tensor EinsumDense::call(const Tensor& inputs, bool) {
  Tensor x = inputs.dtype() == kernel_.dtype() ? inputs : cast(inputs, kernel_.dtype());
  Tensor y = einsum(equation_, {x, kernel_.read_value()});
  if (!options_.bias_axes.empty()) y = add(y, bias_.read_value());
  return options_.activation(y);
}

namespace {

// bias_axes: a string of output letters, None for no bias.
struct NoneIfEmptyString {
  static std::string repr(const std::string& v) {
    return v.empty() ? "None" : keras::config::repr(v);
  }
  static void read(const saving::Json& v, std::string& out, std::string_view what) {
    if (v.is_null()) {
      out.clear();
      return;
    }
    out = v.as_string(what);
  }
};

}  // namespace

const keras::config::LayerSchema& EinsumDense::config_schema() {
  static const keras::config::LayerSchema schema =
      keras::config::schema<EinsumDense>(&EinsumDense::options_)
          .arg("equation", &EinsumDense::equation_)
          .arg("output_shape", &EinsumDense::output_shape_)
          .option("activation", &Options::activation)
          .option<NoneIfEmptyString>("bias_axes", &Options::bias_axes)
          .option("kernel_initializer", &Options::kernel_initializer)
          .option("bias_initializer", &Options::bias_initializer)
          .option("kernel_regularizer", &Options::kernel_regularizer)
          .option("bias_regularizer", &Options::bias_regularizer)
          .option("activity_regularizer", &Options::activity_regularizer);
  return schema;
}

}  // namespace tfcc::keras::layers
