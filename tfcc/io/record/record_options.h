// Options of TFRecord files: the compression applied around the record stream.
//
//   tfcc::io::TFRecordWriter w("data.tfrecord.gz", {.compression_type = "GZIP"});
//   tfcc::io::TFRecordReader r("data.tfrecord.gz", {.compression_type = "GZIP"});
//
// As in TensorFlow, compression wraps the whole file: the framed records (length, masked CRC32C of
// the length, payload, masked CRC32C of the payload) are written into one zlib or gzip stream.
#pragma once

#include <string>

namespace tfcc::io {

/// How a TFRecord file is compressed (TensorFlow's `tf.io.TFRecordCompressionType`).
enum class CompressionType { kNone, kZlib, kGzip };

/// Parses TensorFlow's spelling: "" or "NONE", "ZLIB", "GZIP". Throws InvalidArgumentError
/// otherwise.
CompressionType parse_compression_type(const std::string& name);

/// The name TensorFlow uses for `type` ("", "ZLIB" or "GZIP").
const char* compression_type_name(CompressionType type);

/// Options of TFRecordWriter and TFRecordReader (TensorFlow's `tf.io.TFRecordOptions`).
struct TFRecordOptions {
  /// "" (none), "ZLIB" or "GZIP".
  std::string compression_type;
  /// zlib level, 0 (store) to 9 (best); -1 is zlib's default (6). Used when writing only.
  int compression_level = -1;
};

}  // namespace tfcc::io
