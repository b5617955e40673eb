#include "tfcc/io/record/record_writer.h"

#include "tfcc/io/record/byte_stream.h"
#include "tfcc/io/record/record_format.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/logging.h"

namespace tfcc::io {

TFRecordWriter::TFRecordWriter(const std::string& path, const TFRecordOptions& options)
    : path_(path) {
  TFCC_CHECK_ARG(!path.empty(), "TFRecordWriter: the path is empty");
  CompressionType type = parse_compression_type(options.compression_type);
  TFCC_CHECK_ARG(options.compression_level >= -1 && options.compression_level <= 9,
                 "TFRecordWriter: compression_level must be in [-1, 9], got ",
                 options.compression_level);
  sink_ = internal::open_sink(path, type, options.compression_level);
}

TFRecordWriter::TFRecordWriter(const std::string& path, const std::string& compression_type)
    : TFRecordWriter(path, TFRecordOptions{.compression_type = compression_type}) {}

TFRecordWriter::~TFRecordWriter() {
  if (!sink_) return;
  try {
    sink_->close();
  } catch (const Error& e) {
    TFCC_LOG(ERROR) << "TFRecordWriter: closing " << path_ << " failed: " << e.what();
  }
}

TFRecordWriter::TFRecordWriter(TFRecordWriter&&) noexcept = default;

TFRecordWriter& TFRecordWriter::operator=(TFRecordWriter&& other) noexcept {
  if (this != &other) {
    if (sink_) {
      try {
        sink_->close();
      } catch (const Error& e) {
        TFCC_LOG(ERROR) << "TFRecordWriter: closing " << path_ << " failed: " << e.what();
      }
    }
    path_ = std::move(other.path_);
    sink_ = std::move(other.sink_);
    num_records_ = other.num_records_;
  }
  return *this;
}

void TFRecordWriter::write(std::string_view record) {
  if (!sink_) throw FailedPreconditionError("TFRecordWriter: " + path_ + " is closed");
  char header[internal::kRecordHeaderSize];
  char footer[internal::kRecordFooterSize];
  internal::encode_record_header(header, record.size());
  internal::encode_record_footer(footer, record);
  sink_->append(std::string_view(header, sizeof header));
  sink_->append(record);
  sink_->append(std::string_view(footer, sizeof footer));
  ++num_records_;
}

void TFRecordWriter::flush() {
  if (!sink_) throw FailedPreconditionError("TFRecordWriter: " + path_ + " is closed");
  sink_->flush();
}

void TFRecordWriter::sync() {
  if (!sink_) throw FailedPreconditionError("TFRecordWriter: " + path_ + " is closed");
  sink_->sync();
}

void TFRecordWriter::close() {
  if (!sink_) return;
  std::unique_ptr<internal::ByteSink> sink = std::move(sink_);
  sink->close();
}

}  // namespace tfcc::io
