// The sorted string table ("SSTable") that a TensorFlow checkpoint's `.index` file is: LevelDB's
// table format, as TensorFlow's table builder writes it.
//
//   tfcc::checkpoint::TableBuilder b;
//   b.add("", header_bytes);            // keys strictly increasing (bytewise)
//   b.add("dense/kernel", entry_bytes);
//   std::string file = b.finish();
//
//   auto entries = tfcc::checkpoint::read_table(file, "/tmp/ck.index");  // sorted (key, value)
//
// Layout: data blocks, an (empty) metaindex block, an index block, then a 48-byte footer holding
// the two block handles, zero padding and the magic 0xdb4775248b80fb57. Every block carries a
// prefix-compressed run of entries, a restart array, and a trailer of one compression byte and a
// masked CRC32C of the block plus that byte. Blocks are written uncompressed.
//
// read_table() treats the file as untrusted: it checks the footer, that the blocks tile the file,
// every checksum, every length and the key order, and raises DataLossError naming the file and the
// byte offset of the first problem. Snappy-compressed blocks (which TensorFlow can read but does
// not write for checkpoints) raise UnimplementedError.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tfcc::checkpoint {

/// The magic number at the end of every table.
inline constexpr uint64_t kTableMagic = 0xdb4775248b80fb57ull;
/// Footer: two block handles (at most 20 bytes each), padded to 40 bytes, plus the magic.
inline constexpr size_t kFooterSize = 48;
/// Block trailer: compression type byte plus masked CRC32C.
inline constexpr size_t kBlockTrailerSize = 5;

/// Options of TableBuilder, TensorFlow's defaults.
struct TableOptions {
  /// A data block is closed once its estimated size reaches this many bytes.
  size_t block_size = 262144;
  /// Keys are stored whole (not prefix-compressed) every this many entries.
  int block_restart_interval = 16;
};

/// Builds a table in memory; add() keys in strictly increasing bytewise order.
class TableBuilder {
 public:
  explicit TableBuilder(TableOptions options = {});

  /// Appends one entry. InvalidArgumentError if `key` is not greater than the previous key.
  void add(std::string_view key, std::string_view value);
  /// Closes the table and returns the whole file's bytes. The builder is spent afterwards.
  std::string finish();

 private:
  class Block {
   public:
    explicit Block(int restart_interval) : restart_interval_(restart_interval) {}
    void add(std::string_view key, std::string_view value);
    size_t size_estimate() const { return buffer_.size() + 4 * restarts_.size() + 4; }
    bool empty() const { return buffer_.empty(); }
    std::string finish();

   private:
    int restart_interval_;
    std::string buffer_;
    std::vector<uint32_t> restarts_{0};
    int counter_ = 0;
    std::string last_key_;
  };

  void flush();
  std::string write_block(Block& block);  // appends block + trailer, returns its handle

  TableOptions options_;
  Block data_;
  Block index_;
  std::string file_;
  std::string last_key_;
  bool has_entries_ = false;
  bool pending_index_entry_ = false;
  std::string pending_handle_;
  bool finished_ = false;
};

/// Parses and validates a whole table file; returns its entries in key order. `filename` names
/// the file in errors.
std::vector<std::pair<std::string, std::string>> read_table(std::string_view file,
                                                            const std::string& filename);

}  // namespace tfcc::checkpoint
