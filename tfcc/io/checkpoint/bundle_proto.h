// The messages of a tensor bundle's `.index` table: BundleHeaderProto (under the empty key) and
// one BundleEntryProto per tensor, encoded by the classes generated from
// tfcc/io/proto/tensor_bundle.proto.
//
//   BundleEntry e{.dtype = tf_datatype(tfcc::float32), .shape = {2, 3}, .size = 24};
//   std::string bytes = encode_entry(e);
//   BundleEntry back = decode_entry(bytes, "entry 'w' of /tmp/ck.index");
//
// Decoding validates field types and value ranges and raises DataLossError naming the context.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/core/dtype.h"

namespace tfcc::checkpoint {

/// TensorFlow's DataType enum values used by checkpoints (types.proto).
enum TfDataType : int {
  kDtInvalid = 0,
  kDtFloat = 1,
  kDtDouble = 2,
  kDtInt32 = 3,
  kDtUInt8 = 4,
  kDtInt16 = 5,
  kDtInt8 = 6,
  kDtString = 7,
  kDtComplex64 = 8,
  kDtInt64 = 9,
  kDtBool = 10,
  kDtBFloat16 = 14,
  kDtUInt16 = 17,
  kDtComplex128 = 18,
  kDtHalf = 19,
  kDtUInt32 = 22,
  kDtUInt64 = 23,
};

/// The DataType of a tfcc dtype.
int tf_datatype(DType dtype);
/// The tfcc dtype of a DataType, or nullopt for types tfcc does not hold (string, float16, ...).
std::optional<DType> dtype_from_tf(int datatype);
/// Python's name of a DataType ("float32", "string", "float16"), or "DataType(<n>)".
std::string tf_dtype_name(int datatype);
/// Bytes per element of a fixed-width DataType; 0 for strings and unknown types.
size_t tf_dtype_size(int datatype);

/// BundleHeaderProto: how many data shards, the byte order, the format version.
struct BundleHeader {
  int32_t num_shards = 1;
  int32_t endianness = 0;  ///< 0 = little, 1 = big
  int32_t producer = 1;    ///< VersionDef.producer
  int32_t min_consumer = 0;
  std::vector<int32_t> bad_consumers;
};

/// BundleEntryProto: where one tensor lives and its checksum.
struct BundleEntry {
  int dtype = kDtInvalid;
  std::vector<int64_t> shape;
  int32_t shard_id = 0;
  int64_t offset = 0;
  int64_t size = 0;
  uint32_t crc32c = 0;      ///< masked CRC32C of the stored bytes
  bool has_slices = false;  ///< a partitioned variable's slice list (tfcc does not read those)
};

/// The bundle format version tfcc writes and understands.
inline constexpr int32_t kBundleVersion = 1;

std::string encode_header(const BundleHeader& header);
BundleHeader decode_header(std::string_view bytes, const std::string& context);
std::string encode_entry(const BundleEntry& entry);
BundleEntry decode_entry(std::string_view bytes, const std::string& context);

}  // namespace tfcc::checkpoint
#pragma GCC visibility pop
