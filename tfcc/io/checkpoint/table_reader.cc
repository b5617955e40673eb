// read_table(): validates a whole LevelDB-format table before trusting any of it.
#include <algorithm>

#include "tfcc/io/checkpoint/coding.h"
#include "tfcc/io/checkpoint/table.h"
#include "tfcc/platform/crc32c.h"
#include "tfcc/platform/errors.h"

namespace tfcc::checkpoint {
namespace {

struct Handle {
  uint64_t offset = 0;
  uint64_t size = 0;
};

class TableParser {
 public:
  TableParser(std::string_view file, const std::string& filename)
      : file_(file), filename_(filename) {}

  std::vector<std::pair<std::string, std::string>> parse();

 private:
  [[noreturn]] void fail(uint64_t offset, const std::string& what) const {
    std::string msg =
        internal::str_cat("Corrupt checkpoint index ", filename_, " at byte ", offset, ": ", what);
    throw DataLossError(msg);
  }
  Handle decode_handle(std::string_view bytes, size_t* pos, uint64_t where) const;
  std::string_view read_block(const Handle& h, const char* what);
  std::vector<std::pair<std::string, std::string>> parse_block(std::string_view block,
                                                               uint64_t where) const;

  std::string_view file_;
  const std::string& filename_;
  std::vector<Handle> blocks_;  // every block seen, to check that they tile the file
};

Handle TableParser::decode_handle(std::string_view bytes, size_t* pos, uint64_t where) const {
  auto offset = get_varint(bytes, pos);
  auto size = offset ? get_varint(bytes, pos) : std::nullopt;
  if (!size) fail(where, "malformed block handle");
  return {*offset, *size};
}

std::string_view TableParser::read_block(const Handle& h, const char* what) {
  uint64_t limit = file_.size() - kFooterSize;
  if (h.offset > limit || h.size > limit - h.offset ||
      kBlockTrailerSize > limit - h.offset - h.size) {
    fail(h.offset, internal::str_cat(what, " block (", h.size, " bytes at ", h.offset,
                                     ") runs past the end of the table (", file_.size(),
                                     " bytes): truncated or corrupt"));
  }
  const char* p = file_.data() + h.offset;
  size_t n = static_cast<size_t>(h.size);
  uint32_t stored = crc32c::unmask(load_fixed32(p + n + 1));
  uint32_t actual = crc32c::value(p, n + 1);
  if (stored != actual) fail(h.offset, internal::str_cat(what, " block checksum mismatch"));
  uint8_t type = static_cast<uint8_t>(p[n]);
  if (type == 1) {
    throw UnimplementedError(
        internal::str_cat("Checkpoint index ", filename_, ": ", what, " block at byte ", h.offset,
                          " is Snappy-compressed; tfcc reads only uncompressed tables"));
  }
  if (type != 0) fail(h.offset + n, internal::str_cat("unknown block compression type ", type));
  blocks_.push_back(h);
  return std::string_view(p, n);
}

std::vector<std::pair<std::string, std::string>> TableParser::parse_block(std::string_view block,
                                                                          uint64_t where) const {
  if (block.size() < 4) fail(where, "block shorter than its restart count");
  uint32_t num_restarts = load_fixed32(block.data() + block.size() - 4);
  if (num_restarts == 0 || num_restarts > (block.size() - 4) / 4) {
    fail(where, internal::str_cat("bad restart count ", num_restarts));
  }
  size_t entries_end = block.size() - 4 - 4 * static_cast<size_t>(num_restarts);
  std::string_view entries = block.substr(0, entries_end);
  std::vector<uint32_t> restarts(num_restarts);
  for (uint32_t i = 0; i < num_restarts; ++i) {
    restarts[i] = load_fixed32(block.data() + entries_end + 4 * static_cast<size_t>(i));
  }

  std::vector<std::pair<std::string, std::string>> out;
  std::string key;
  size_t pos = 0;
  size_t next_restart = 0;
  while (pos < entries.size()) {
    uint64_t at = where + pos;
    bool is_restart = next_restart < restarts.size() && restarts[next_restart] == pos;
    if (is_restart) ++next_restart;
    auto shared = get_varint(entries, &pos);
    auto non_shared = shared ? get_varint(entries, &pos) : std::nullopt;
    auto value_len = non_shared ? get_varint(entries, &pos) : std::nullopt;
    if (!value_len) fail(at, "truncated entry header");
    if (*shared > key.size() || (is_restart && *shared != 0)) {
      fail(at, internal::str_cat("entry shares ", *shared, " bytes with a ", key.size(),
                                 "-byte previous key"));
    }
    if (*non_shared > entries.size() - pos || *value_len > entries.size() - pos - *non_shared) {
      fail(at, "entry runs past the end of its block");
    }
    key.resize(static_cast<size_t>(*shared));
    key.append(entries.substr(pos, static_cast<size_t>(*non_shared)));
    pos += static_cast<size_t>(*non_shared);
    std::string value(entries.substr(pos, static_cast<size_t>(*value_len)));
    pos += static_cast<size_t>(*value_len);
    if (!out.empty() && key <= out.back().first) fail(at, "keys out of order");
    out.emplace_back(key, std::move(value));
  }
  bool restarts_ok = entries.empty() ? (num_restarts == 1 && restarts[0] == 0)
                                     : (next_restart == restarts.size() && restarts[0] == 0);
  if (!restarts_ok) {
    fail(where + entries_end, "restart points do not match the entries");
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> TableParser::parse() {
  if (file_.size() < kFooterSize) {
    fail(0, internal::str_cat("file is ", file_.size(), " bytes, shorter than the ", kFooterSize,
                              "-byte table footer: truncated"));
  }
  size_t footer_at = file_.size() - kFooterSize;
  std::string_view footer = file_.substr(footer_at);
  if (load_fixed64(footer.data() + 40) != kTableMagic) {
    fail(footer_at + 40, "bad table magic number: not a checkpoint index, or truncated");
  }
  size_t pos = 0;
  Handle metaindex = decode_handle(footer.substr(0, 40), &pos, footer_at);
  Handle index = decode_handle(footer.substr(0, 40), &pos, footer_at);
  // The footer has no checksum: accept only the canonical encoding a writer produces (an
  // overlong varint there would otherwise go unnoticed).
  std::string canonical;
  put_varint(canonical, metaindex.offset);
  put_varint(canonical, metaindex.size);
  put_varint(canonical, index.offset);
  put_varint(canonical, index.size);
  if (footer.substr(0, pos) != canonical) fail(footer_at, "non-canonical block handles in footer");
  for (size_t i = pos; i < 40; ++i) {
    if (footer[i] != 0) fail(footer_at + i, "non-zero footer padding");
  }

  // The metaindex lists optional meta blocks (filters); TensorFlow writes none, but any listed
  // block is checked too.
  for (auto& [name, value] : parse_block(read_block(metaindex, "metaindex"), metaindex.offset)) {
    size_t p = 0;
    Handle h = decode_handle(value, &p, metaindex.offset);
    read_block(h, "meta");
  }

  std::vector<std::pair<std::string, std::string>> out;
  std::string previous_index_key;
  bool first_block = true;
  for (auto& [index_key, value] : parse_block(read_block(index, "index"), index.offset)) {
    size_t p = 0;
    Handle h = decode_handle(value, &p, index.offset);
    if (p != value.size()) fail(index.offset, "index entry holds more than a block handle");
    auto entries = parse_block(read_block(h, "data"), h.offset);
    if (entries.empty()) fail(h.offset, "empty data block");
    if (entries.back().first > index_key ||
        (!first_block && entries.front().first <= previous_index_key) ||
        (!out.empty() && entries.front().first <= out.back().first)) {
      fail(h.offset, "data block keys do not match the index");
    }
    previous_index_key = index_key;
    first_block = false;
    for (auto& e : entries) out.push_back(std::move(e));
  }

  // A well-formed table is blocks back to back, then the footer: nothing unaccounted for.
  std::sort(blocks_.begin(), blocks_.end(),
            [](const Handle& a, const Handle& b) { return a.offset < b.offset; });
  uint64_t expected = 0;
  for (const Handle& h : blocks_) {
    if (h.offset != expected) fail(h.offset, "blocks overlap or leave a gap");
    expected = h.offset + h.size + kBlockTrailerSize;
  }
  if (expected != footer_at) fail(expected, "bytes between the last block and the footer");
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> read_table(std::string_view file,
                                                            const std::string& filename) {
  return TableParser(file, filename).parse();
}

}  // namespace tfcc::checkpoint
