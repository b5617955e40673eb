// TableBuilder: LevelDB's table layout, byte for byte as TensorFlow's builder lays it out
// (separator keys in the index, an empty metaindex block), so golden files can be compared.
#include <algorithm>

#include "tfcc/io/checkpoint/coding.h"
#include "tfcc/io/checkpoint/table.h"
#include "tfcc/platform/crc32c.h"
#include "tfcc/platform/errors.h"

namespace tfcc::checkpoint {
namespace {

// Shortens `start` to a key k with start <= k < limit, as LevelDB's bytewise comparator does, so
// index blocks hold short separators instead of whole keys.
void shortest_separator(std::string* start, std::string_view limit) {
  size_t min_len = std::min(start->size(), limit.size());
  size_t i = 0;
  while (i < min_len && (*start)[i] == limit[i]) ++i;
  if (i >= min_len) return;  // one is a prefix of the other
  uint8_t byte = static_cast<uint8_t>((*start)[i]);
  if (byte < 0xff && byte + 1 < static_cast<uint8_t>(limit[i])) {
    (*start)[i] = static_cast<char>(byte + 1);
    start->resize(i + 1);
  }
}

// Shortens `key` to a short k >= key (the last index entry only needs an upper bound).
void short_successor(std::string* key) {
  for (size_t i = 0; i < key->size(); ++i) {
    uint8_t byte = static_cast<uint8_t>((*key)[i]);
    if (byte != 0xff) {
      (*key)[i] = static_cast<char>(byte + 1);
      key->resize(i + 1);
      return;
    }
  }
}

}  // namespace

void TableBuilder::Block::add(std::string_view key, std::string_view value) {
  size_t shared = 0;
  if (counter_ < restart_interval_) {
    size_t n = std::min(last_key_.size(), key.size());
    while (shared < n && last_key_[shared] == key[shared]) ++shared;
  } else {
    restarts_.push_back(static_cast<uint32_t>(buffer_.size()));
    counter_ = 0;
  }
  put_varint(buffer_, shared);
  put_varint(buffer_, key.size() - shared);
  put_varint(buffer_, value.size());
  buffer_.append(key.substr(shared));
  buffer_.append(value);
  last_key_.assign(key);
  ++counter_;
}

std::string TableBuilder::Block::finish() {
  std::string out = std::move(buffer_);
  for (uint32_t r : restarts_) put_fixed32(out, r);
  put_fixed32(out, static_cast<uint32_t>(restarts_.size()));
  buffer_.clear();
  restarts_.assign(1, 0);
  counter_ = 0;
  last_key_.clear();
  return out;
}

TableBuilder::TableBuilder(TableOptions options)
    : options_(options), data_(options.block_restart_interval), index_(1) {
  TFCC_CHECK_ARG(options.block_restart_interval >= 1,
                 "TableBuilder: block_restart_interval must be >= 1, got ",
                 options.block_restart_interval);
}

void TableBuilder::add(std::string_view key, std::string_view value) {
  TFCC_REQUIRE(FailedPreconditionError, !finished_, "TableBuilder::add after finish()");
  TFCC_CHECK_ARG(!has_entries_ || key > std::string_view(last_key_), "TableBuilder: key '", key,
                 "' is not greater than the previous key '", last_key_, "'");
  if (pending_index_entry_) {
    shortest_separator(&last_key_, key);
    index_.add(last_key_, pending_handle_);
    pending_index_entry_ = false;
  }
  last_key_.assign(key);
  has_entries_ = true;
  data_.add(key, value);
  if (data_.size_estimate() >= options_.block_size) flush();
}

void TableBuilder::flush() {
  if (data_.empty()) return;
  pending_handle_ = write_block(data_);
  pending_index_entry_ = true;
}

std::string TableBuilder::write_block(Block& block) {
  std::string contents = block.finish();
  std::string handle;
  put_varint(handle, file_.size());
  put_varint(handle, contents.size());
  const char type = 0;  // kNoCompression
  uint32_t crc = crc32c::extend(crc32c::value(contents), &type, 1);
  file_.append(contents);
  file_.push_back(type);
  put_fixed32(file_, crc32c::mask(crc));
  return handle;
}

std::string TableBuilder::finish() {
  TFCC_REQUIRE(FailedPreconditionError, !finished_, "TableBuilder::finish called twice");
  flush();
  finished_ = true;
  Block metaindex(options_.block_restart_interval);
  std::string metaindex_handle = write_block(metaindex);
  if (pending_index_entry_) {
    short_successor(&last_key_);
    index_.add(last_key_, pending_handle_);
    pending_index_entry_ = false;
  }
  std::string index_handle = write_block(index_);
  std::string footer = metaindex_handle;
  footer.append(index_handle);
  footer.resize(kFooterSize - 8, '\0');
  put_fixed64(footer, kTableMagic);
  file_.append(footer);
  return std::move(file_);
}

}  // namespace tfcc::checkpoint
