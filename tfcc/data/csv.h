// CSV files as a dataset, like tf.data.experimental.CsvDataset.
//
//   auto ds = tfcc::data::csv_dataset(
//       {"train.csv"},
//       {tfcc::data::csv_default(0.0f),           // float32, 0 when missing
//        tfcc::data::csv_required(tfcc::int64)},  // int64, a missing value is an error
//       {.header = true});
//   for (const auto& row : ds) use(row[0], row[1]);   // scalars, one per column
//
// Quoting follows RFC 4180 as TensorFlow does: a field in double quotes may hold the delimiter,
// newlines and "" for a quote. Empty lines are skipped. Numeric fields may have surrounding spaces.
// String columns are not supported (tfcc has no string dtype).
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/data/dataset.h"

namespace tfcc::data {

/// One parsed column: its dtype (int32, int64, float32 or float64) and the value used when a
/// field is empty or equals na_value; an undefined default makes the column required.
struct CsvColumn {
  DType dtype = float32;
  Tensor default_value;
};

/// A column that must be present in every record.
inline CsvColumn csv_required(DType dtype) { return {dtype, Tensor()}; }
/// A column with a default value (its C++ type gives the dtype).
template <typename T>
CsvColumn csv_default(T value) {
  return {dtype_of<T>(), Tensor::scalar<T>(value)};
}

/// Options of csv_dataset (TF's CsvDataset arguments).
struct CsvOptions {
  /// Skip the first line of each file.
  bool header = false;
  char field_delim = ',';
  /// Treat double quotes as quoting (false: quotes are ordinary characters).
  bool use_quote_delim = true;
  /// A field equal to this is missing (besides the empty field).
  std::string na_value;
  /// Indices of the columns to parse, increasing; empty: all. One CsvColumn per selected column.
  std::vector<int64_t> select_cols;
};

/// Records of the files, in order, one scalar tensor per selected column.
Dataset csv_dataset(std::vector<std::string> filenames, std::vector<CsvColumn> record_defaults,
                    CsvOptions options = {});

/// Parses CSV text into records (what csv_dataset does per file); `source` names it in errors.
/// Bad values raise InvalidArgumentError and an unterminated quote DataLossError, both naming the
/// source, record and byte offset.
std::vector<Element> parse_csv(std::string_view text, const std::vector<CsvColumn>& columns,
                               const CsvOptions& options, const std::string& source);

}  // namespace tfcc::data
#pragma GCC visibility pop
