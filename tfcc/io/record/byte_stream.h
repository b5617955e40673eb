// Internal: byte sinks and sources under the TFRecord framing, raw or through zlib/gzip.
//
//   auto sink = internal::open_sink("data.tfrecord", CompressionType::kGzip, -1);
//   sink->append(framed_record);
//   sink->close();
//   auto source = internal::open_source("data.tfrecord", CompressionType::kGzip);
//   size_t got = source->read(buffer, 12);  // fewer than asked only at the end of the stream
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "tfcc/io/record/record_options.h"

namespace tfcc::io::internal {

/// An append-only destination of bytes. Errors raise tfcc::Error subclasses naming the file.
class ByteSink {
 public:
  virtual ~ByteSink() = default;
  /// Appends bytes (they may stay buffered until flush()).
  virtual void append(std::string_view data) = 0;
  /// Hands every appended byte to the operating system, so readers of the file see them.
  virtual void flush() = 0;
  /// flush(), then asks the operating system to put the bytes on disk (fdatasync).
  virtual void sync() = 0;
  /// Finishes the stream (the compressed trailer, if any) and closes the file. Idempotent.
  virtual void close() = 0;
};

/// A sequential source of bytes.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Reads up to `n` bytes into `dst`; returns fewer only at the end of the stream.
  virtual size_t read(char* dst, size_t n) = 0;
  /// The most bytes one piece of the stream (a record) may take when decompressed: the
  /// decompression limit of the file's size (platform/limits.h); unbounded for plain files,
  /// whose records cannot outgrow the data actually read.
  virtual uint64_t output_limit() const { return UINT64_MAX; }
};

/// Opens `path` for writing (truncating it), compressed as `type` at zlib `level`.
std::unique_ptr<ByteSink> open_sink(const std::string& path, CompressionType type, int level);

/// Opens `path` for reading, decompressing `type`. Throws NotFoundError if it does not exist.
std::unique_ptr<ByteSource> open_source(const std::string& path, CompressionType type);

}  // namespace tfcc::io::internal
