// MultiHeadAttention, Attention and AdditiveAttention. The einsum equations are Keras' (built the
// same way from the ranks and attention axes), so weights and intermediate layouts match.
#include "tfcc/keras/layers/attention.h"

#include <cmath>

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/attention/attention.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/linalg/einsum.h"
#include "tfcc/ops/linalg/linalg.h"
#include "tfcc/ops/nn/nn.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/unary/unary.h"
#include "tfcc/platform/errors.h"

namespace tfcc::keras::layers {
namespace {

const std::string kLetters = "abcdefghijklmnopqrstuvwxyz";

// Keras' _build_proj_equation: (equation, bias axes, output rank).
std::tuple<std::string, std::string, int64_t> proj_equation(int64_t free, int64_t bound,
                                                            int64_t out) {
  std::string in, kernel, output, bias;
  size_t l = 0;
  for (int64_t i = 0; i < free; ++i, ++l) {
    in += kLetters[l];
    output += kLetters[l];
  }
  for (int64_t i = 0; i < bound; ++i, ++l) {
    in += kLetters[l];
    kernel += kLetters[l];
  }
  for (int64_t i = 0; i < out; ++i, ++l) {
    kernel += kLetters[l];
    output += kLetters[l];
    bias += kLetters[l];
  }
  return {in + "," + kernel + "->" + output, bias, int64_t(output.size())};
}

// [-1] * (rank - known.size()) + known: Keras' _get_output_shape.
std::vector<int64_t> output_shape_of(int64_t rank, const std::vector<int64_t>& known) {
  std::vector<int64_t> s(size_t(std::max<int64_t>(rank - int64_t(known.size()), 0)), -1);
  s.insert(s.end(), known.begin(), known.end());
  return s;
}

// A [tq, tk] lower-triangular bool mask (query i sees keys j <= i).
Tensor causal_mask(int64_t tq, int64_t tk) {
  std::vector<double> v(size_t(tq * tk));
  for (int64_t i = 0; i < tq; ++i) {
    for (int64_t j = 0; j < tk; ++j) v[size_t(i * tk + j)] = j <= i;
  }
  return detail::make_constant(v, Shape{tq, tk}, bool_);
}

Tensor and_mask(const Tensor& a, const Tensor& b) {
  if (!a.defined()) return b;
  if (!b.defined()) return a;
  return logical_and(a, b);
}

// softmax over `axes` (several for multi-axis attention).
Tensor softmax_over(const Tensor& x, const std::vector<int64_t>& axes) {
  if (axes.size() == 1) return softmax(x, axes[0]);
  return exp(subtract(x, reduce_logsumexp(x, Axes(axes), true)));
}

}  // namespace

MultiHeadAttention::MultiHeadAttention(int64_t num_heads, int64_t key_dim, Options options)
    : Layer({options.name, options.trainable, {}, options.dtype, options.activity_regularizer},
            "multi_head_attention"),
      num_heads_(num_heads),
      key_dim_(key_dim),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(num_heads > 0 && key_dim > 0, "MultiHeadAttention: num_heads (", num_heads,
                 ") and key_dim (", key_dim, ") must be positive");
  if (options_.value_dim <= 0) options_.value_dim = key_dim;
  set_supports_masking(true);  // the output carries the query's mask, as Keras'
  TFCC_CHECK_ARG(options_.dropout >= 0 && options_.dropout < 1,
                 "MultiHeadAttention: dropout must be in [0, 1), got ", options_.dropout);
}

void MultiHeadAttention::build_n(const std::vector<PartialShape>& shapes) {
  TFCC_CHECK_ARG(shapes.size() >= 2 && shapes.size() <= 4 && shapes[0].rank_known() &&
                     shapes[1].rank_known() && shapes[0].rank() >= 3,
                 "MultiHeadAttention '", name(),
                 "' takes [query, value(, key(, attention_mask))] of rank 3 or more");
  const PartialShape& q = shapes[0];
  const PartialShape& v = shapes[1];
  const PartialShape& k = shapes.size() > 2 ? shapes[2] : v;
  EinsumDense::Options common{.kernel_initializer = options_.kernel_initializer,
                              .bias_initializer = options_.bias_initializer,
                              .kernel_regularizer = options_.kernel_regularizer,
                              .bias_regularizer = options_.bias_regularizer,
                              .dtype = dtype()};
  auto projection = [&](const PartialShape& s, int64_t dim, const char* name, const char* key) {
    auto [eq, bias, rank] = proj_equation(s.rank() - 1, 1, 2);
    EinsumDense::Options o = common;
    o.name = name;
    o.bias_axes = options_.use_bias ? bias : "";
    auto layer = track_module(
        std::make_shared<EinsumDense>(eq, output_shape_of(rank - 1, {num_heads_, dim}), o), key);
    layer->maybe_build({s});
    return layer;
  };
  query_dense_ = projection(q, key_dim_, "query", "query_dense");
  key_dense_ = projection(k, key_dim_, "key", "key_dense");
  value_dense_ = projection(v, options_.value_dim, "value", "value_dense");
  // Attention equations over the projected rank (Keras' _build_attention_equation).
  const int64_t rank = q.rank() + 1;
  if (options_.attention_axes.empty()) {
    for (int64_t a = 1; a < rank - 2; ++a) options_.attention_axes.push_back(a);
  }
  for (int64_t& a : options_.attention_axes) {
    if (a < 0) a += rank - 1;
    TFCC_CHECK_ARG(a >= 0 && a < rank - 2, "MultiHeadAttention '", name(), "': attention axis ", a,
                   " out of range for a query of rank ", q.rank());
  }
  const auto& axes = options_.attention_axes;
  auto in_axes = [&](int64_t i) { return std::find(axes.begin(), axes.end(), i) != axes.end(); };
  const std::string target = kLetters.substr(0, size_t(rank));
  std::string source, product;
  size_t next = size_t(rank);
  for (int64_t i = 0; i < rank; ++i) {
    source += in_axes(i) ? kLetters[next++] : target[size_t(i)];
  }
  for (int64_t i = 0; i < rank - 1; ++i) {
    if (!in_axes(i)) product += target[size_t(i)];
  }
  for (int64_t a : axes) product += target[size_t(a)];
  for (int64_t a : axes) product += source[size_t(a)];
  dot_equation_ = source + "," + target + "->" + product;
  combine_equation_ = product + "," + source + "->" + target;
  norm_axes_.clear();
  const int64_t scores_rank = int64_t(product.size());
  for (int64_t i = scores_rank - int64_t(axes.size()); i < scores_rank; ++i)
    norm_axes_.push_back(i);
  // The output projection: (heads, value_dim) back to output_shape.
  std::vector<int64_t> out_shape = options_.output_shape;
  if (out_shape.empty()) out_shape = {q.dim(q.rank() - 1)};
  auto [eq, bias, out_rank] = proj_equation(q.rank() - 1, 2, int64_t(out_shape.size()));
  EinsumDense::Options o = common;
  o.name = "attention_output";
  o.bias_axes = options_.use_bias ? bias : "";
  output_dense_ =
      track_module(std::make_shared<EinsumDense>(eq, output_shape_of(out_rank - 1, out_shape), o),
                   "output_dense");
  std::vector<int64_t> projected(size_t(rank), -1);
  projected[size_t(rank - 2)] = num_heads_;
  projected[size_t(rank - 1)] = options_.value_dim;
  output_dense_->maybe_build({PartialShape(projected)});
}

std::pair<Tensor, Tensor> MultiHeadAttention::attend(const Tensor& query, const Tensor& value,
                                                     const Tensor& key_in,
                                                     const AttentionCall& call) {
  const Tensor& key = key_in.defined() ? key_in : value;
  std::vector<PartialShape> shapes = {query.partial_shape(), value.partial_shape(),
                                      key.partial_shape()};
  maybe_build(shapes);
  Tensor q = (*query_dense_)(query), k = (*key_dense_)(key), v = (*value_dense_)(value);
  // Keras' _compute_attention_mask: the query's mask as [B, T, 1], the value's and key's as
  // [B, 1, S], and-ed with the explicit attention mask.
  Tensor attention_mask;
  if (call.attention_mask.defined()) attention_mask = cast(call.attention_mask, bool_);
  if (call.query_mask.defined()) {
    attention_mask = and_mask(attention_mask, expand_dims(cast(call.query_mask, bool_), -1));
  }
  for (const Tensor* m : {&call.value_mask, &call.key_mask}) {
    if (m->defined()) attention_mask = and_mask(attention_mask, expand_dims(cast(*m, bool_), -2));
  }
  const double scale = 1.0 / std::sqrt(double(key_dim_));
  const bool dropout = call.training && options_.dropout > 0;
  const int64_t rank = q.rank();
  if (!dropout && !call.return_attention_scores && rank == 4 &&
      options_.attention_axes == std::vector<int64_t>{1}) {
    // [B, T, N, H] -> [B, N, T, H]: heads become a batch dim of the fused op.
    const std::vector<int64_t> perm = {0, 2, 1, 3};
    tfcc::AttentionOptions o{.is_causal = call.use_causal_mask, .scale = scale};
    if (attention_mask.defined()) {
      o.mask = attention_mask.rank() == 3 ? expand_dims(attention_mask, 1) : attention_mask;
    }
    Tensor out =
        scaled_dot_product_attention(transpose(q, perm), transpose(k, perm), transpose(v, perm), o);
    return {(*output_dense_)(transpose(out, perm)), Tensor()};
  }
  Tensor scores = einsum(dot_equation_, {k, multiply(q, scale)});
  Tensor mask = attention_mask;
  if (call.use_causal_mask) {
    mask = and_mask(mask, causal_mask(query.shape().dim(1), value.shape().dim(1)));
  }
  if (mask.defined()) {
    // Mask dims expand from the heads axis on, as Keras' _masked_softmax.
    const int64_t axis = -int64_t(options_.attention_axes.size()) * 2 - 1;
    while (mask.rank() < scores.rank()) mask = expand_dims(mask, axis);
    // Keras' Softmax(mask): masked scores become -1e9, and masked weights 0 after the softmax
    // (a fully masked row gives zeros, not a uniform row).
    scores = where(mask, scores, -1e9);
  }
  scores = softmax_over(scores, norm_axes_);
  if (mask.defined()) scores = where(mask, scores, 0.0);
  Tensor dropped = dropout ? nn::dropout(scores, options_.dropout, options_.seed) : scores;
  Tensor out = einsum(combine_equation_, {dropped, v});
  return {(*output_dense_)(out), call.return_attention_scores ? scores : Tensor()};
}

Tensors MultiHeadAttention::call_n(const Tensors& inputs, bool training) {
  TFCC_CHECK_ARG(inputs.size() >= 2 && inputs.size() <= 4, "MultiHeadAttention '", name(),
                 "' takes [query, value(, key(, attention_mask))], got ", inputs.size(), " inputs");
  AttentionCall call{.training = training};
  if (inputs.size() == 4) call.attention_mask = inputs[3];
  // The inputs' Keras masks (Keras reads query/value/key._keras_mask).
  call.query_mask = input_mask(0);
  call.value_mask = input_mask(1);
  if (inputs.size() > 2) call.key_mask = input_mask(2);
  return {attend(inputs[0], inputs[1], inputs.size() > 2 ? inputs[2] : Tensor(), call).first};
}

const keras::config::LayerSchema& MultiHeadAttention::config_schema() {
  static const keras::config::LayerSchema schema =
      keras::config::schema<MultiHeadAttention>(&MultiHeadAttention::options_)
          .arg("num_heads", &MultiHeadAttention::num_heads_)
          .arg("key_dim", &MultiHeadAttention::key_dim_)
          .option("value_dim", &Options::value_dim)
          .option("dropout", &Options::dropout)
          .option("use_bias", &Options::use_bias)
          .option<keras::config::NoneIfEmpty>("output_shape", &Options::output_shape)
          .option<keras::config::NoneIfEmpty>("attention_axes", &Options::attention_axes)
          .option("kernel_initializer", &Options::kernel_initializer)
          .option("bias_initializer", &Options::bias_initializer)
          .option("kernel_regularizer", &Options::kernel_regularizer)
          .option("bias_regularizer", &Options::bias_regularizer)
          .option("activity_regularizer", &Options::activity_regularizer)
          .option("seed", &Options::seed);
  return schema;
}

Attention::Attention(Options options)
    : Layer({options.name, options.trainable, {}, options.dtype}, "attention"),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(options_.score_mode == "dot" || options_.score_mode == "concat",
                 "Invalid value for argument score_mode. Expected one of {'dot', 'concat'}. "
                 "Received: score_mode=",
                 options_.score_mode);
  set_supports_masking(true);
}

void Attention::build_n(const std::vector<PartialShape>&) {
  if (options_.use_scale) scale_ = add_weight("scale", Shape{}, {.initializer = "ones"});
  if (options_.score_mode == "concat") {
    concat_score_weight_ = add_weight("concat_score_weight", Shape{}, {.initializer = "ones"});
  }
}

Tensor Attention::scores(const Tensor& q, const Tensor& k) {
  if (options_.score_mode == "dot") {
    Tensor s = matmul(q, k, false, true);
    return options_.use_scale ? multiply(s, scale_.read_value()) : s;
  }
  Tensor sum = add(expand_dims(q, -2), expand_dims(k, -3));
  if (options_.use_scale) sum = multiply(scale_.read_value(), sum);
  return multiply(concat_score_weight_.read_value(), reduce_sum(tanh(sum), {-1}));
}

std::pair<Tensor, Tensor> Attention::attend(const Tensor& query, const Tensor& value,
                                            const Tensor& key_in, const AttentionCall& call) {
  const Tensor& key = key_in.defined() ? key_in : value;
  maybe_build({query.partial_shape(), value.partial_shape(), key.partial_shape()});
  Tensor mask;
  if (call.value_mask.defined()) mask = expand_dims(cast(call.value_mask, bool_), -2);
  if (call.use_causal_mask) {
    mask = and_mask(mask, causal_mask(query.shape().dim(query.rank() - 2),
                                      value.shape().dim(value.rank() - 2)));
  }
  // Masked scores lose 1e9 (Keras' _apply_scores): an additive bias, not a replacement.
  Tensor bias;
  if (mask.defined()) bias = multiply(subtract(1.0, cast(mask, query.dtype())), -1e9);
  const bool dropout = call.training && options_.dropout > 0;
  Tensor out, weights;
  if (this->class_name() == "Attention" && options_.score_mode == "dot" && !options_.use_scale &&
      !dropout && !call.return_attention_scores) {
    out = scaled_dot_product_attention(query, key, value, {.bias = bias, .scale = 1.0});
  } else {
    Tensor s = scores(query, key);
    if (bias.defined()) s = add(s, bias);
    weights = softmax(s, -1);
    Tensor w = dropout ? nn::dropout(weights, options_.dropout, options_.seed) : weights;
    out = matmul(w, value);
  }
  if (call.query_mask.defined()) {
    out = where(expand_dims(cast(call.query_mask, bool_), -1), out, zeros_like(out));
  }
  return {out, weights};
}

Tensors Attention::call_n(const Tensors& inputs, bool training) {
  TFCC_CHECK_ARG(inputs.size() == 2 || inputs.size() == 3, "Layer '", name(),
                 "' expects [query, value] or [query, value, key], got ", inputs.size(), " inputs");
  // Keras' mask=[query_mask, value_mask] comes from the inputs' masks.
  return {attend(inputs[0], inputs[1], inputs.size() == 3 ? inputs[2] : Tensor(),
                 {.query_mask = input_mask(0), .value_mask = input_mask(1), .training = training})
              .first};
}

const keras::config::LayerSchema& Attention::config_schema() {
  static const keras::config::LayerSchema schema =
      keras::config::schema<Attention>(&Attention::options_)
          .option("use_scale", &Options::use_scale)
          .option("score_mode", &Options::score_mode)
          .option("dropout", &Options::dropout)
          .option("seed", &Options::seed);
  return schema;
}

Attention::Attention(Options options, const std::string& default_name)
    : Layer({options.name, options.trainable, {}, options.dtype}, default_name),
      options_(std::move(options)) {
  set_supports_masking(true);
}

AdditiveAttention::AdditiveAttention(Options options)
    : Attention(std::move(options), "additive_attention") {}

void AdditiveAttention::build_n(const std::vector<PartialShape>& shapes) {
  const PartialShape& q = shapes[0];  // Keras: the query's last dimension
  if (options_.use_scale) {
    scale_ = add_weight("scale", Shape{q.dim(q.rank() - 1)}, {.initializer = "glorot_uniform"});
  }
}

Tensor AdditiveAttention::scores(const Tensor& q, const Tensor& k) {
  Tensor t = tanh(add(expand_dims(q, -2), expand_dims(k, -3)));
  if (options_.use_scale) t = multiply(scale_.read_value(), t);
  return reduce_sum(t, {-1});
}

const keras::config::LayerSchema& AdditiveAttention::config_schema() {
  static const keras::config::LayerSchema schema =
      keras::config::schema<AdditiveAttention>(&AdditiveAttention::options_)
          .option("use_scale", &Options::use_scale)
          .option("dropout", &Options::dropout)
          .option("seed", &Options::seed);
  return schema;
}

}  // namespace tfcc::keras::layers
