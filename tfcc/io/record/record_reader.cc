#include "tfcc/io/record/record_reader.h"

#include <algorithm>

#include "tfcc/io/record/byte_stream.h"
#include "tfcc/io/record/record_format.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/limits.h"

namespace tfcc::io {
namespace {

// The payload grows by at most this much per read, so a corrupt length that still passes its
// checksum cannot make the reader allocate more than the file actually holds.
constexpr uint64_t kMaxChunk = 1 << 20;

std::string hex32(uint32_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s = "0x00000000";
  for (int i = 0; i < 8; ++i) s[9 - i] = digits[(v >> (4 * i)) & 0xf];
  return s;
}

}  // namespace

TFRecordReader::TFRecordReader(const std::string& path, const TFRecordOptions& options,
                               bool stop_at_truncated_tail)
    : path_(path), stop_at_truncated_tail_(stop_at_truncated_tail) {
  source_ = internal::open_source(path, parse_compression_type(options.compression_type));
}

TFRecordReader::~TFRecordReader() = default;
TFRecordReader::TFRecordReader(TFRecordReader&&) noexcept = default;
TFRecordReader& TFRecordReader::operator=(TFRecordReader&&) noexcept = default;

void TFRecordReader::fail(const std::string& message) {
  error_ = tfcc::internal::str_cat(path_, ": ", message);
  throw DataLossError(error_);
}

bool TFRecordReader::read_next(std::string& record) {
  if (!error_.empty()) throw DataLossError(error_);
  if (done_) return false;
  try {
    return tfcc::internal::guard_parse(path_, [&] { return read_next_unchecked(record); });
  } catch (const DataLossError& e) {  // e.g. corrupt compressed data: later calls fail too
    if (error_.empty()) error_ = e.what();
    throw;
  }
}

bool TFRecordReader::read_next_unchecked(std::string& record) {
  truncated_tail_ = false;
  auto truncated = [&](const char* where) {
    done_ = true;
    if (!stop_at_truncated_tail_) {
      fail(tfcc::internal::str_cat("truncated record at offset ", offset_,
                                   " (the file ends inside its ", where, ")"));
    }
    truncated_tail_ = true;
    return false;
  };

  char header[internal::kRecordHeaderSize];
  size_t got = source_->read(header, sizeof header);
  if (got == 0) {
    done_ = true;
    return false;
  }
  if (got < sizeof header) return truncated("header");
  uint64_t length = internal::get_le64(header);
  uint32_t stored = internal::get_le32(header + 8);
  uint32_t computed = crc32c::mask(crc32c::value(header, 8));
  if (stored != computed) {
    fail(tfcc::internal::str_cat("corrupted record at offset ", offset_,
                                 ": the length checksum does not match (stored ", hex32(stored),
                                 ", computed ", hex32(computed), ")"));
  }

  if (length > source_->output_limit()) {
    done_ = true;
    error_ = tfcc::internal::str_cat(path_, ": the record at offset ", offset_, " declares ",
                                     length, " bytes, more than the decompression limit of ",
                                     source_->output_limit(),
                                     " for this file (see tfcc::set_decompression_limits)");
    throw ResourceExhaustedError(error_);
  }
  record.clear();
  uint64_t left = length;
  while (left > 0) {
    size_t chunk = static_cast<size_t>(std::min(left, kMaxChunk));
    size_t old = record.size();
    record.resize(old + chunk);
    size_t n = source_->read(record.data() + old, chunk);
    record.resize(old + n);
    if (n < chunk) return truncated("payload");
    left -= chunk;
  }
  char footer[internal::kRecordFooterSize];
  if (source_->read(footer, sizeof footer) < sizeof footer) return truncated("payload checksum");
  stored = internal::get_le32(footer);
  computed = crc32c::mask(crc32c::value(record));
  if (stored != computed) {
    fail(tfcc::internal::str_cat("corrupted record at offset ", offset_, ": the payload of ",
                                 length, " bytes does not match its checksum (stored ",
                                 hex32(stored), ", computed ", hex32(computed), ")"));
  }
  offset_ += internal::kRecordHeaderSize + length + internal::kRecordFooterSize;
  return true;
}

std::vector<std::string> read_tf_records(const std::string& path, const TFRecordOptions& options) {
  TFRecordReader reader(path, options);
  std::vector<std::string> records;
  std::string record;
  while (reader.read_next(record)) records.push_back(std::move(record));
  return records;
}

}  // namespace tfcc::io
