#include "tfcc/io/checkpoint/bundle_proto.h"

#include <limits>

#include "tfcc/io/checkpoint/proto_wire.h"
#include "tfcc/platform/errors.h"

namespace tfcc::checkpoint {
namespace {

// proto3 int32 fields arrive as 64-bit varints (negatives sign-extended).
int64_t as_int64(uint64_t v) { return static_cast<int64_t>(v); }

int32_t as_int32(const ProtoReader& r, const ProtoField& f, const char* name) {
  r.expect(f, WireType::kVarint);
  int64_t v = as_int64(f.value);
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    r.fail(internal::str_cat(name, " ", v, " does not fit in int32"));
  }
  return static_cast<int32_t>(v);
}

}  // namespace

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

std::string encode_shape(const std::vector<int64_t>& dims) {
  ProtoWriter w;
  for (int64_t d : dims) {
    ProtoWriter dim;
    if (d != 0) dim.varint_field(1, static_cast<uint64_t>(d));
    w.bytes_field(2, dim.str());
  }
  return w.str();
}

std::vector<int64_t> decode_shape(std::string_view bytes, const std::string& context) {
  ProtoReader r(bytes, context + " (shape)");
  std::vector<int64_t> dims;
  while (auto f = r.next()) {
    if (f->number == 2) {
      r.expect(*f, WireType::kLen);
      ProtoReader dr(f->bytes, r.context());
      int64_t size = 0;
      while (auto g = dr.next()) {
        if (g->number == 1) {
          dr.expect(*g, WireType::kVarint);
          size = as_int64(g->value);
        }
      }
      if (size < 0) r.fail(internal::str_cat("unknown or negative dimension ", size));
      dims.push_back(size);
    } else if (f->number == 3) {
      if (f->value != 0) r.fail("unknown rank in a stored tensor");
    }
  }
  int64_t n = 1;
  for (int64_t d : dims) {
    if (__builtin_mul_overflow(n, d, &n)) r.fail("element count overflows int64");
  }
  return dims;
}

std::string encode_header(const BundleHeader& header) {
  ProtoWriter version;
  if (header.producer != 0) version.varint_field(1, static_cast<uint64_t>(header.producer));
  if (header.min_consumer != 0) {
    version.varint_field(2, static_cast<uint64_t>(header.min_consumer));
  }
  for (int32_t b : header.bad_consumers) version.varint_field(3, static_cast<uint64_t>(b));
  ProtoWriter w;
  if (header.num_shards != 0) w.varint_field(1, static_cast<uint64_t>(header.num_shards));
  if (header.endianness != 0) w.varint_field(2, static_cast<uint64_t>(header.endianness));
  w.bytes_field(3, version.str());
  return w.str();
}

BundleHeader decode_header(std::string_view bytes, const std::string& context) {
  ProtoReader r(bytes, context);
  BundleHeader h;
  h.num_shards = 0;
  h.producer = 0;
  while (auto f = r.next()) {
    if (f->number == 1) {
      h.num_shards = as_int32(r, *f, "num_shards");
    } else if (f->number == 2) {
      h.endianness = as_int32(r, *f, "endianness");
    } else if (f->number == 3) {
      r.expect(*f, WireType::kLen);
      ProtoReader vr(f->bytes, context + " (version)");
      while (auto g = vr.next()) {
        if (g->number == 1) h.producer = as_int32(vr, *g, "producer");
        if (g->number == 2) h.min_consumer = as_int32(vr, *g, "min_consumer");
        if (g->number == 3) h.bad_consumers.push_back(as_int32(vr, *g, "bad_consumers"));
      }
    }
  }
  return h;
}

std::string encode_entry(const BundleEntry& e) {
  ProtoWriter w;
  if (e.dtype != 0) w.varint_field(1, static_cast<uint64_t>(e.dtype));
  w.bytes_field(2, encode_shape(e.shape));
  if (e.shard_id != 0) w.varint_field(3, static_cast<uint64_t>(e.shard_id));
  if (e.offset != 0) w.varint_field(4, static_cast<uint64_t>(e.offset));
  if (e.size != 0) w.varint_field(5, static_cast<uint64_t>(e.size));
  if (e.crc32c != 0) w.fixed32_field(6, e.crc32c);
  return w.str();
}

BundleEntry decode_entry(std::string_view bytes, const std::string& context) {
  ProtoReader r(bytes, context);
  BundleEntry e;
  while (auto f = r.next()) {
    switch (f->number) {
      case 1:
        e.dtype = as_int32(r, *f, "dtype");
        break;
      case 2:
        r.expect(*f, WireType::kLen);
        e.shape = decode_shape(f->bytes, context);
        break;
      case 3:
        e.shard_id = as_int32(r, *f, "shard_id");
        break;
      case 4:
        r.expect(*f, WireType::kVarint);
        e.offset = as_int64(f->value);
        break;
      case 5:
        r.expect(*f, WireType::kVarint);
        e.size = as_int64(f->value);
        break;
      case 6:
        r.expect(*f, WireType::kFixed32);
        e.crc32c = static_cast<uint32_t>(f->value);
        break;
      case 7:
        e.has_slices = true;
        break;
      default:
        break;  // unknown fields are skipped, as protobuf does
    }
  }
  if (e.offset < 0 || e.size < 0) {
    r.fail(internal::str_cat("negative offset ", e.offset, " or size ", e.size));
  }
  if (e.shard_id < 0) r.fail(internal::str_cat("negative shard_id ", e.shard_id));
  return e;
}

}  // namespace tfcc::checkpoint
