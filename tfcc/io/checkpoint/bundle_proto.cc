#include "tfcc/io/checkpoint/bundle_proto.h"

#include "tfcc/io/proto/message_io.h"
#include "tfcc/io/proto/tensor_bundle.pb.h"
#include "tfcc/platform/errors.h"

namespace tfcc::checkpoint {
int tf_datatype(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return kDtFloat;
    case DType::kFloat64:
      return kDtDouble;
    case DType::kInt32:
      return kDtInt32;
    case DType::kInt64:
      return kDtInt64;
    case DType::kUInt8:
      return kDtUInt8;
    case DType::kBool:
      return kDtBool;
    case DType::kBFloat16:
      return kDtBFloat16;
    case DType::kString:
      return kDtString;
  }
  return kDtInvalid;
}

std::optional<DType> dtype_from_tf(int datatype) {
  switch (datatype) {
    case kDtFloat:
      return float32;
    case kDtDouble:
      return float64;
    case kDtInt32:
      return int32;
    case kDtInt64:
      return int64;
    case kDtUInt8:
      return uint8;
    case kDtBool:
      return bool_;
    case kDtBFloat16:
      return bfloat16;
    default:
      return std::nullopt;
  }
}

std::string tf_dtype_name(int datatype) {
  switch (datatype) {
    case kDtInt16:
      return "int16";
    case kDtInt8:
      return "int8";
    case kDtString:
      return "string";
    case kDtComplex64:
      return "complex64";
    case kDtUInt16:
      return "uint16";
    case kDtComplex128:
      return "complex128";
    case kDtHalf:
      return "float16";
    case kDtUInt32:
      return "uint32";
    case kDtUInt64:
      return "uint64";
    default:
      if (auto d = dtype_from_tf(datatype)) return std::string(dtype_name(*d));
      return internal::str_cat("DataType(", datatype, ")");
  }
}

size_t tf_dtype_size(int datatype) {
  if (auto d = dtype_from_tf(datatype)) return dtype_size(*d);
  switch (datatype) {
    case kDtInt8:
      return 1;
    case kDtInt16:
    case kDtUInt16:
    case kDtHalf:
      return 2;
    case kDtUInt32:
      return 4;
    case kDtComplex64:
    case kDtUInt64:
      return 8;
    case kDtComplex128:
      return 16;
    default:
      return 0;
  }
}

namespace {

void to_proto(const std::vector<int64_t>& dims, tensorflow::TensorShapeProto& shape) {
  for (int64_t d : dims) shape.add_dim()->set_size(d);
}

std::vector<int64_t> from_proto(const tensorflow::TensorShapeProto& shape,
                                const std::string& context) {
  auto fail = [&](const std::string& what) {
    throw DataLossError(internal::str_cat(context, " (shape): ", what));
  };
  if (shape.unknown_rank()) fail("unknown rank in a stored tensor");
  std::vector<int64_t> dims;
  int64_t n = 1;
  for (const auto& dim : shape.dim()) {
    if (dim.size() < 0) fail(internal::str_cat("unknown or negative dimension ", dim.size()));
    if (__builtin_mul_overflow(n, dim.size(), &n)) fail("element count overflows int64");
    dims.push_back(dim.size());
  }
  return dims;
}

}  // namespace

std::string encode_header(const BundleHeader& header) {
  tensorflow::BundleHeaderProto p;
  p.set_num_shards(header.num_shards);
  p.set_endianness(static_cast<tensorflow::BundleHeaderProto::Endianness>(header.endianness));
  tensorflow::VersionDef* version = p.mutable_version();
  version->set_producer(header.producer);
  version->set_min_consumer(header.min_consumer);
  version->mutable_bad_consumers()->Add(header.bad_consumers.begin(), header.bad_consumers.end());
  return io::proto::serialize(p);
}

BundleHeader decode_header(std::string_view bytes, const std::string& context) {
  tensorflow::BundleHeaderProto p;
  io::proto::parse(p, bytes, context);
  const tensorflow::VersionDef& v = p.version();
  return {.num_shards = p.num_shards(),
          .endianness = p.endianness(),
          .producer = v.producer(),
          .min_consumer = v.min_consumer(),
          .bad_consumers = {v.bad_consumers().begin(), v.bad_consumers().end()}};
}

std::string encode_entry(const BundleEntry& e) {
  tensorflow::BundleEntryProto p;
  p.set_dtype(static_cast<tensorflow::DataType>(e.dtype));
  to_proto(e.shape, *p.mutable_shape());
  p.set_shard_id(e.shard_id);
  p.set_offset(e.offset);
  p.set_size(e.size);
  p.set_crc32c(e.crc32c);
  return io::proto::serialize(p);
}

BundleEntry decode_entry(std::string_view bytes, const std::string& context) {
  tensorflow::BundleEntryProto p;
  io::proto::parse(p, bytes, context);
  if (p.offset() < 0 || p.size() < 0) {
    throw DataLossError(
        internal::str_cat(context, ": negative offset ", p.offset(), " or size ", p.size()));
  }
  if (p.shard_id() < 0) {
    throw DataLossError(internal::str_cat(context, ": negative shard_id ", p.shard_id()));
  }
  return {.dtype = p.dtype(),
          .shape = from_proto(p.shape(), context),
          .shard_id = p.shard_id(),
          .offset = p.offset(),
          .size = p.size(),
          .crc32c = p.crc32c(),
          .has_slices = p.slices_size() > 0};
}

}  // namespace tfcc::checkpoint
