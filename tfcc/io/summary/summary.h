// TensorBoard summaries from C++ (tf.summary): scalars, histograms, images and text, written to
// the thread's default writer (see summary_writer.h) in TF2's format, which TensorBoard reads.
//
//   namespace summary = tfcc::summary;
//   auto writer = summary::create_file_writer("/tmp/summaries/train");
//   auto scope = writer.as_default();
//   for (int64_t step = 0; step < 100; ++step) {
//     summary::scalar("loss", loss, step);
//     summary::histogram("weights", dense.kernel(), step);
//   }
//   summary::image("inputs", batch, step, /*max_outputs=*/3);   // [k, h, w, c], float in [0, 1]
//   summary::text("notes", "learning rate **0.01**", step);      // Markdown
//
// Each returns true if it wrote, false when there is no default writer or record_if() is off; in
// that case it returns before looking at the data. Without `step` the default step
// (experimental::set_step or as_default(step)) is used; with neither, InvalidArgumentError.
//
// Inside a traced tfcc::function a summary call becomes a "WriteSummary" node that writes at every
// call of the function, with that call's values (see summary_trace.h): the writer and step are
// the ones in force when the function was traced (a Variable step, e.g. optimizer.iterations(),
// is read at each call), and a function traced without a default writer has no summary node at
// all. There the call returns true when it added the node. trace_on / trace_export (trace.h)
// write the graphs of the functions that ran.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <span>
#include <string>
#include <vector>

#include "tfcc/core/tensor.h"
#include "tfcc/io/summary/event.h"
#include "tfcc/io/summary/graph_def.h"
#include "tfcc/io/summary/graph_export.h"
#include "tfcc/io/summary/summary_writer.h"
#include "tfcc/io/summary/trace.h"

namespace tfcc::summary {

/// Writes `tensor` under `tag` with `metadata` (tf.summary.write): the primitive the others use.
bool write(const std::string& tag, const TensorProto& tensor, Step step = {},
           const SummaryMetadata& metadata = {});

/// A scalar: `data` (a one-element numeric tensor) is stored as a rank-0 float32 tensor for the
/// Scalars dashboard.
bool scalar(const std::string& name, const Tensor& data, Step step = {},
            const std::string& description = "");
/// A scalar from a C++ number.
bool scalar(const std::string& name, double data, Step step = {},
            const std::string& description = "");

/// The default number of histogram buckets (TensorBoard's DEFAULT_BUCKET_COUNT).
inline constexpr int kDefaultBucketCount = 30;

/// A histogram of all elements of `data` in `buckets` equal-width buckets, stored as TF2's
/// float64 [buckets, 3] tensor of (left edge, right edge, count) rows.
bool histogram(const std::string& name, const Tensor& data, Step step = {},
               int buckets = kDefaultBucketCount, const std::string& description = "");
/// A histogram of C++ numbers.
bool histogram(const std::string& name, std::span<const double> data, Step step = {},
               int buckets = kDefaultBucketCount, const std::string& description = "");

/// TensorBoard's bucketing, row-major [bucket_count, 3]: equal-width buckets from min to max,
/// a value at x going to floor((x - min) / width) clamped to the last bucket; all-zero rows for
/// empty data; for constant data every edge is the value and the last bucket holds the count.
/// A negative bucket_count counts as 0.
std::vector<double> histogram_buckets(std::span<const double> data, int bucket_count);

/// Up to `max_outputs` images of `data`, a [k, height, width, channels] tensor (channels 1-4),
/// PNG-encoded for the Images dashboard. uint8 data is used as is; floating-point data is taken
/// to lie in [0, 1] and converted like tf.image.convert_image_dtype(saturate=True).
bool image(const std::string& name, const Tensor& data, Step step = {}, int max_outputs = 3,
           const std::string& description = "");

/// A text summary (Markdown) for the Text dashboard: a scalar string.
bool text(const std::string& name, const std::string& data, Step step = {},
          const std::string& description = "");
/// A text summary of several strings (a rank-1 string tensor, shown as a table).
bool text(const std::string& name, const std::vector<std::string>& data, Step step = {},
          const std::string& description = "");
inline bool text(const std::string& name, const char* data, Step step = {},
                 const std::string& description = "") {
  return text(name, std::string(data), std::move(step), description);
}

}  // namespace tfcc::summary
#pragma GCC visibility pop
