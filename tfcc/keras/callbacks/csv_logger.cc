// CSVLogger (keras/callbacks.py), written with write_file_atomic.
#include "tfcc/keras/callbacks/csv_logger.h"

#include <algorithm>

#include "tfcc/keras/callbacks/python_repr.h"
#include "tfcc/keras/models/model.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::keras::callbacks {

CSVLogger::CSVLogger(std::string filename, CSVLoggerOptions options)
    : filename_(std::move(filename)), options_(std::move(options)) {
  TFCC_CHECK_ARG(!filename_.empty(), "CSVLogger needs a file name");
  TFCC_CHECK_ARG(!options_.separator.empty(), "CSVLogger needs a non-empty separator");
}

// Python's csv quoting (QUOTE_MINIMAL): quote fields holding the separator, a quote or a newline.
std::string CSVLogger::field(const std::string& text) const {
  bool quote = text.find(options_.separator) != std::string::npos ||
               text.find_first_of("\"\r\n") != std::string::npos;
  if (!quote) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void CSVLogger::on_train_begin(Logs&) {
  if (!is_chief()) return;
  contents_.clear();
  write_header_ = true;
  keys_.reset();
  if (options_.append && file_exists(filename_)) {
    contents_ = read_file(filename_);
    write_header_ = contents_.empty();
  }
  write_file_atomic(filename_, contents_);
}

void CSVLogger::on_epoch_end(int epoch, Logs& logs) {
  if (!is_chief()) return;
  if (!keys_) {
    std::vector<std::string> keys;
    for (const auto& [k, v] : logs.items()) keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    keys_ = std::move(keys);
  }
  if (write_header_) {
    std::string header = field("epoch");
    for (const auto& k : *keys_) header.append(options_.separator).append(field(k));
    contents_.append(header).append("\r\n");
    write_header_ = false;
  }
  std::string row = std::to_string(epoch);
  for (const auto& k : *keys_) {
    std::optional<double> v = logs.get(k);
    row.append(options_.separator).append(v ? field(python_float_repr(*v)) : "NA");
  }
  contents_.append(row).append("\r\n");
  write_file_atomic(filename_, contents_);
}

void CSVLogger::on_train_end(Logs&) { keys_.reset(); }

}  // namespace tfcc::keras::callbacks
