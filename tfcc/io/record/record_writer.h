// TFRecordWriter: writes TFRecord files, the record format of TensorFlow datasets and TensorBoard
// event files (tf.io.TFRecordWriter).
//
//   {
//     tfcc::io::TFRecordWriter writer("/tmp/data.tfrecord");
//     writer.write("first record");
//     writer.write(serialized_example);
//   }  // closed (flushed) here; close() does the same and reports errors
//
// Each record is framed as length (uint64 LE), masked CRC32C of the length, payload, masked CRC32C
// of the payload, so truncation and corruption are detected when the file is read back
// (TFRecordReader). The file is written as it goes, like TensorFlow's writer, so a reader can
// follow it; a crash leaves the records written so far and at most one truncated record, which the
// reader reports as DataLossError.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "tfcc/io/record/record_options.h"

namespace tfcc::io {

namespace internal {
class ByteSink;
}

/// Writes records to a TFRecord file (optionally ZLIB or GZIP compressed).
class TFRecordWriter {
 public:
  /// Creates (or truncates) `path`. Throws NotFoundError if its directory does not exist,
  /// InvalidArgumentError for bad options.
  explicit TFRecordWriter(const std::string& path, const TFRecordOptions& options = {});
  /// Same, with TensorFlow's shorthand: the compression type as a string ("", "ZLIB", "GZIP").
  TFRecordWriter(const std::string& path, const std::string& compression_type);
  TFRecordWriter(const std::string& path, const char* compression_type)
      : TFRecordWriter(path, std::string(compression_type)) {}
  /// Closes the file; errors at that point are logged, not thrown (call close() to see them).
  ~TFRecordWriter();
  TFRecordWriter(TFRecordWriter&&) noexcept;
  TFRecordWriter& operator=(TFRecordWriter&&) noexcept;
  TFRecordWriter(const TFRecordWriter&) = delete;
  TFRecordWriter& operator=(const TFRecordWriter&) = delete;

  /// Appends one record (any bytes). Throws FailedPreconditionError after close().
  void write(std::string_view record);
  /// Hands the records written so far to the operating system (visible to readers).
  void flush();
  /// flush(), then waits until the operating system has stored them on disk (fdatasync).
  void sync();
  /// Flushes and closes the file (and finishes the compressed stream). Idempotent.
  void close();

  /// The file being written.
  const std::string& path() const { return path_; }
  /// Number of records written.
  uint64_t num_records() const { return num_records_; }

 private:
  std::string path_;
  std::unique_ptr<internal::ByteSink> sink_;
  uint64_t num_records_ = 0;
};

}  // namespace tfcc::io
