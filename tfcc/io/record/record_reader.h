// TFRecordReader: reads TFRecord files back, validating every checksum.
//
//   tfcc::io::TFRecordReader reader("/tmp/data.tfrecord");
//   std::string record;
//   while (reader.read_next(record)) use(record);
//
//   auto all = tfcc::io::read_tf_records("/tmp/data.tfrecord.gz", {.compression_type = "GZIP"});
//
// A record whose length or payload checksum does not match, or a file that ends inside a record,
// raises DataLossError naming the file and the offset of the record ("corrupted record at 24").
// For compressed files the offset counts bytes of the uncompressed stream. A file that is still
// being written (a live TensorBoard event file) may end inside its last record: readers that
// follow such files pass `stop_at_truncated_tail = true` and check truncated_tail().
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tfcc/io/record/record_options.h"

namespace tfcc::io {

namespace internal {
class ByteSource;
}

/// Reads the records of a TFRecord file in order.
class TFRecordReader {
 public:
  /// Opens `path`. Throws NotFoundError if it does not exist. With `stop_at_truncated_tail`, a
  /// file ending inside a record reads as ending before it (see truncated_tail()) instead of
  /// raising DataLossError; corrupted checksums still raise.
  explicit TFRecordReader(const std::string& path, const TFRecordOptions& options = {},
                          bool stop_at_truncated_tail = false);
  ~TFRecordReader();
  TFRecordReader(TFRecordReader&&) noexcept;
  TFRecordReader& operator=(TFRecordReader&&) noexcept;

  /// Reads the next record into `record`. Returns false at the end of the file. Throws
  /// DataLossError on a corrupted or truncated record; after that every call throws again.
  bool read_next(std::string& record);

  /// Offset of the next record in the (uncompressed) stream; after the end, the stream's length.
  uint64_t offset() const { return offset_; }
  /// True if the last read_next() returned false because the file ends inside a record (only
  /// with stop_at_truncated_tail).
  bool truncated_tail() const { return truncated_tail_; }
  /// The file being read.
  const std::string& path() const { return path_; }

 private:
  bool read_next_unchecked(std::string& record);
  [[noreturn]] void fail(const std::string& message);

  std::string path_;
  std::unique_ptr<internal::ByteSource> source_;
  uint64_t offset_ = 0;
  bool stop_at_truncated_tail_ = false;
  bool truncated_tail_ = false;
  bool done_ = false;
  std::string error_;
};

/// Reads every record of `path` (tf.compat.v1.io.tf_record_iterator, collected).
std::vector<std::string> read_tf_records(const std::string& path,
                                         const TFRecordOptions& options = {});

}  // namespace tfcc::io
