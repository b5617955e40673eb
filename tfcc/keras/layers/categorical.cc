#include "tfcc/keras/layers/categorical.h"

#include <algorithm>
#include <cmath>

#include "tfcc/keras/engine/config_schema.h"
#include "tfcc/keras/layers/adapt_util.h"
#include "tfcc/keras/layers/preprocessing_config.h"
#include "tfcc/ops/array/array.h"
#include "tfcc/ops/binary/binary.h"
#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/ops/reduction/reduction.h"
#include "tfcc/ops/strings/strings.h"

namespace tfcc::keras::layers {

namespace internal {

Tensor encode_ids(const Tensor& ids_in, int64_t depth, const std::string& mode, DType dtype,
                  const char* layer) {
  Tensor ids = ids_in.dtype() == int64 ? ids_in : cast(ids_in, int64);
  if (!ids.is_symbolic() && ids.num_elements() > 0) {
    const int64_t lo = reduce_min(ids).item<int64_t>(), hi = reduce_max(ids).item<int64_t>();
    TFCC_CHECK_ARG(lo >= 0 && hi < depth, layer, ": input values must be in the range [0, ", depth,
                   ") (num_tokens); got values from ", lo, " to ", hi);
  }
  const int rank = ids.rank();
  if (mode == "one_hot") {
    if (rank >= 2 && ids.partial_shape().dim(rank - 1) == 1) ids = squeeze(ids, {rank - 1});
    return one_hot(ids, depth, 1, 0, dtype);
  }
  TFCC_CHECK_ARG(mode == "multi_hot" || mode == "count", layer,
                 ": output_mode must be one of 'one_hot', 'multi_hot', 'count'; got '", mode, "'");
  TFCC_CHECK_ARG(rank <= 2, layer, ": multi_hot and count take inputs of rank <= 2, got rank ",
                 rank);
  if (rank == 0) ids = reshape(ids, {1});
  // (..., k, depth) one-hot rows summed (count) or or-ed (multi_hot) over the k ids of a sample.
  Tensor hot = one_hot(ids, depth, 1, 0, dtype);
  return mode == "count" ? reduce_sum(hot, {-2}) : reduce_max(hot, {-2});
}

std::vector<Tensor> adapt_batches(const data::Dataset& data) {
  std::vector<Tensor> out;
  for (const data::Element& e : data) {
    TFCC_CHECK_ARG(!e.empty(), "adapt: the dataset's elements have no components");
    out.push_back(e[0]);
  }
  return out;
}

}  // namespace internal

CategoryEncoding::CategoryEncoding(int64_t num_tokens, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype},
            "category_encoding"),
      num_tokens_(num_tokens),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(num_tokens_ > 0, "CategoryEncoding: num_tokens must be positive, got ",
                 num_tokens_);
}

Tensor CategoryEncoding::call(const Tensor& inputs, bool) {
  return internal::encode_ids(inputs, num_tokens_, options_.output_mode, dtype(),
                              "CategoryEncoding");
}

const keras::config::LayerSchema& CategoryEncoding::config_schema() {
  static const keras::config::LayerSchema schema =
      keras::config::schema<CategoryEncoding>(&CategoryEncoding::options_)
          .arg("num_tokens", &CategoryEncoding::num_tokens_)
          .option("output_mode", &Options::output_mode);
  return schema;
}

Hashing::Hashing(int64_t num_bins, Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype}, "hashing"),
      num_bins_(num_bins),
      options_(std::move(options)) {
  TFCC_CHECK_ARG(num_bins_ > (options_.mask_value ? 1 : 0),
                 "Hashing: num_bins must be positive (> 1 with a mask_value), got ", num_bins_);
}

Tensor Hashing::call(const Tensor& inputs, bool) {
  Tensor text = inputs.dtype() == string ? inputs : strings::as_string(inputs);
  if (!options_.mask_value) return strings::to_hash_bucket_fast(text, num_bins_);
  Tensor bins = add(strings::to_hash_bucket_fast(text, num_bins_ - 1), int64_t{1});
  Tensor masked = equal(text, Tensor::scalar(*options_.mask_value));
  return where(masked, Tensor::scalar<int64_t>(0), bins);
}

const keras::config::LayerSchema& Hashing::config_schema() {
  static const keras::config::LayerSchema schema =
      keras::config::schema<Hashing>(&Hashing::options_)
          .arg("num_bins", &Hashing::num_bins_)
          .option("mask_value", &Options::mask_value);
  return schema;
}

Discretization::Discretization(Options options)
    : Layer({options.name, options.trainable, options.input_shape, options.dtype},
            "discretization"),
      options_(std::move(options)) {
  if (options_.bin_boundaries) {
    boundaries_ = *options_.bin_boundaries;
    TFCC_CHECK_ARG(std::is_sorted(boundaries_.begin(), boundaries_.end()),
                   "Discretization: bin_boundaries must be sorted");
  }
  if (options_.num_bins) {
    TFCC_CHECK_ARG(*options_.num_bins >= 1, "Discretization: num_bins must be >= 1, got ",
                   *options_.num_bins);
  }
}

namespace {

// Keras' compress_summary: the summary (values, weights) resampled at the points epsilon,
// 2 epsilon, ..., 1 of its cumulative weight, by linear interpolation (NumPy's interp).
std::vector<double> compress(const std::vector<double>& values, std::vector<double>& weights,
                             double epsilon) {
  const size_t n = values.size();
  if (static_cast<double>(n) * epsilon < 1) return values;
  std::vector<double> cum(n);
  double total = 0;
  for (size_t i = 0; i < n; ++i) cum[i] = total += weights[i];
  auto interp = [&](double x, const std::vector<double>& fp) {
    // xp = cum / total, increasing.
    if (x <= cum[0] / total) return fp[0];
    for (size_t i = 1; i < n; ++i) {
      const double x0 = cum[i - 1] / total, x1 = cum[i] / total;
      if (x <= x1) return x1 == x0 ? fp[i] : fp[i - 1] + (fp[i] - fp[i - 1]) * (x - x0) / (x1 - x0);
    }
    return fp[n - 1];
  };
  std::vector<double> new_values, new_cum;
  const auto points = static_cast<size_t>(std::ceil(1.0 / epsilon));  // np.arange(0, 1, epsilon)
  for (size_t i = 0; i < points; ++i) {
    const double p = static_cast<double>(i) * epsilon + epsilon;
    new_values.push_back(static_cast<double>(static_cast<float>(interp(p, values))));
    new_cum.push_back(interp(p, cum));
  }
  weights.assign(new_cum.size(), 0);
  for (size_t i = 0; i < new_cum.size(); ++i) weights[i] = new_cum[i] - (i ? new_cum[i - 1] : 0);
  return new_values;
}

}  // namespace

void Discretization::adapt_values(std::vector<double> values) {
  TFCC_CHECK_ARG(options_.num_bins.has_value(),
                 "Discretization: adapt needs num_bins (bin_boundaries were given)");
  TFCC_CHECK_ARG(!values.empty(), "Discretization: adapt needs at least one value");
  std::sort(values.begin(), values.end());
  std::vector<double> weights(values.size(), 1.0);
  values = compress(values, weights, options_.epsilon);
  values = compress(values, weights, 1.0 / static_cast<double>(*options_.num_bins));
  values.pop_back();
  boundaries_ = std::move(values);
  options_.bin_boundaries = boundaries_;  // the config carries them, as Keras'
}

void Discretization::adapt(const Tensor& data) { adapt_values(data.to_vector<double>()); }

void Discretization::adapt(const data::Dataset& data) {
  std::vector<double> all;
  for (const Tensor& t : internal::adapt_batches(data)) {
    std::vector<double> v = t.to_vector<double>();
    all.insert(all.end(), v.begin(), v.end());
  }
  adapt_values(std::move(all));
}

Tensor Discretization::call(const Tensor& inputs, bool) {
  TFCC_CHECK_ARG(!boundaries_.empty() || options_.bin_boundaries,
                 "Discretization: call adapt() first (or give bin_boundaries)");
  // bucket = number of boundaries <= x, by broadcasting against a new last axis.
  Tensor x = expand_dims(cast(inputs, float64), -1);
  Tensor b = Tensor::from_vector<double>(boundaries_);
  return reduce_sum(cast(greater_equal(x, b), int64), {-1});
}

const keras::config::LayerSchema& Discretization::config_schema() {
  static const keras::config::LayerSchema schema =
      keras::config::schema<Discretization>(&Discretization::options_)
          .option<internal::OptionalNumbers>("bin_boundaries", &Options::bin_boundaries)
          .option("num_bins", &Options::num_bins)
          .option("epsilon", &Options::epsilon);
  return schema;
}

}  // namespace tfcc::keras::layers
