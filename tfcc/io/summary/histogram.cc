// histogram(): TensorBoard's TF2 bucketing, computed on the host in float64.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "tfcc/io/summary/summary.h"
#include "tfcc/io/summary/summary_trace.h"
#include "tfcc/platform/errors.h"

namespace tfcc::summary {

std::vector<double> histogram_buckets(std::span<const double> data, int bucket_count) {
  size_t k = static_cast<size_t>(std::max(bucket_count, 0));
  std::vector<double> out(k * 3, 0.0);
  if (data.empty() || k == 0) return out;
  auto [lo, hi] = std::minmax_element(data.begin(), data.end());
  double min = *lo, max = *hi;
  double range = max - min;
  if (range == 0) {
    for (size_t i = 0; i < k; ++i) out[i * 3] = out[i * 3 + 1] = max;
    out[(k - 1) * 3 + 2] = static_cast<double>(data.size());
    return out;
  }
  // Same arithmetic as TensorBoard: width = range / k, index = floor((x - min) / width) clamped
  // to k - 1; edges are linspace(min, max, k + 1) with the last edge set to max exactly.
  double width = range / static_cast<double>(k);
  for (double x : data) {
    double index = std::floor((x - min) / width);
    size_t i = index >= static_cast<double>(k - 1) ? k - 1 : static_cast<size_t>(index);
    out[i * 3 + 2] += 1;
  }
  // The edge is the rounded product plus min, as numpy and TensorFlow compute it: the volatile
  // keeps the compiler from fusing them into one fma, which rounds once and differs by an ulp.
  std::vector<double> edges(k + 1);
  for (size_t i = 0; i < k; ++i) {
    volatile double offset = width * static_cast<double>(i);
    edges[i] = min + offset;
  }
  edges[k] = max;
  for (size_t i = 0; i < k; ++i) {
    out[i * 3] = edges[i];
    out[i * 3 + 1] = edges[i + 1];
  }
  return out;
}

bool histogram(const std::string& name, std::span<const double> data, Step step, int buckets,
               const std::string& description) {
  if (!should_record_summaries()) return false;
  if (internal::tracing()) {
    Tensor values = Tensor::from_vector(std::vector<double>(data.begin(), data.end()));
    return histogram(name, values, std::move(step), buckets, description);
  }
  for (double x : data) {
    TFCC_CHECK_ARG(std::isfinite(x), "summary::histogram(\"", name,
                   "\"): data contains a non-finite value (", x, ")");
  }
  std::vector<double> rows = histogram_buckets(data, buckets);
  TensorProto t;
  t.dtype = kDtDouble;
  t.shape = {static_cast<int64_t>(rows.size() / 3), 3};
  t.tensor_content.resize(rows.size() * sizeof(double));
  if (!rows.empty()) std::memcpy(t.tensor_content.data(), rows.data(), t.tensor_content.size());
  SummaryMetadata m;
  m.plugin_name = "histograms";
  m.summary_description = description;
  return write(name, t, std::move(step), m);
}

bool histogram(const std::string& name, const Tensor& data, Step step, int buckets,
               const std::string& description) {
  if (!should_record_summaries()) return false;
  TFCC_CHECK_ARG(data.defined(), "summary::histogram(\"", name, "\"): data is a null tensor");
  if (internal::tracing()) {
    Tensor in[] = {data};
    internal::add_summary_node("WriteSummary", in, step,
                               [name, buckets, description](std::span<const Tensor> v, int64_t s) {
                                 histogram(name, v[0], s, buckets, description);
                               });
    return true;
  }
  std::vector<double> values = data.to_vector<double>();
  return histogram(name, std::span<const double>(values), std::move(step), buckets, description);
}

}  // namespace tfcc::summary
