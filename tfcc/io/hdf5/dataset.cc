#include "tfcc/io/hdf5/dataset.h"

#include <bit>
#include <cmath>
#include <cstring>

static_assert(std::endian::native == std::endian::little,
              "the HDF5 reader copies little-endian data as it is");

namespace tfcc::io::hdf5::detail {
namespace {

using tfcc::internal::str_cat;

const Message& required(const Image& image, const std::vector<Message>& messages, uint16_t type,
                        const char* name, const std::string& what) {
  const Message* m = find_message(messages, type);
  if (!m) image.fail(what, str_cat("a dataset without a ", name, " message"));
  // Flag bit 1: the body is a reference to a shared message elsewhere.
  if (m->flags & 0x02) image.unsupported(what, str_cat("a shared (committed) ", name));
  return *m;
}

// Dataspace version 1: rank, flags, 5 reserved bytes; version 2: rank, flags, type. Then the
// dimensions (and maximum dimensions, which reading does not need).
void read_dataspace(const Image& image, const Message& m, DatasetInfo& info) {
  Cursor c = image.cursor(m.offset, m.size, info.what);
  const int version = c.u8();
  const int rank = c.u8();
  c.u8();  // flags
  bool has_data = true;
  if (version == 1) {
    c.skip(5);
  } else if (version == 2) {
    const int type = c.u8();
    if (type > 2) c.fail(str_cat("dataspace type ", type, " (0, 1 or 2 expected)"));
    has_data = type != 2;
    if (type == 0 && rank != 0) c.fail(str_cat("a scalar dataspace of rank ", rank));
  } else {
    c.fail(str_cat("dataspace version ", version, " (1 or 2 expected)"));
  }
  if (!has_data) c.fail("a null dataspace (the dataset holds no data)");
  if (rank > kMaxRank) c.fail(str_cat("rank ", rank, " (HDF5 allows ", kMaxRank, ")"));
  bool empty = false;
  uint64_t elements = 1;
  for (int i = 0; i < rank; ++i) {
    const uint64_t d = c.length();
    if (d > (uint64_t{1} << 31)) c.fail(str_cat("dimension ", i, " is ", d, " (more than 2^31)"));
    info.dims.push_back(static_cast<int64_t>(d));
    empty = empty || d == 0;
    // Non-empty data is read from the file, so more elements than file bytes cannot be valid.
    if (!empty) elements *= d;
    if (!empty && elements > image.size()) {
      c.fail(str_cat("more elements than the ", image.size(), "-byte file can hold"));
    }
  }
  info.elements = empty ? 0 : elements;
}

// The bit layout of a float: precision, exponent location and size, mantissa location and size,
// exponent bias, sign bit.
struct FloatLayout {
  uint64_t precision, exp_loc, exp_size, mant_loc, mant_size, bias, sign;
  bool operator==(const FloatLayout&) const = default;
};

bool is_ieee(uint64_t size, const FloatLayout& got) {
  switch (size) {
    case 2:
      return got == FloatLayout{16, 10, 5, 0, 10, 15, 15};
    case 4:
      return got == FloatLayout{32, 23, 8, 0, 23, 127, 31};
    case 8:
      return got == FloatLayout{64, 52, 11, 0, 52, 1023, 63};
    default:
      return false;
  }
}

// Datatype: class and version (1), class bit fields (3), size (4), properties.
void read_datatype(const Image& image, const Message& m, DatasetInfo& info) {
  Cursor c = image.cursor(m.offset, m.size, info.what);
  const int class_and_version = c.u8();
  const int cls = class_and_version & 0x0F;
  const int version = class_and_version >> 4;
  const uint8_t bits0 = c.u8();
  const uint8_t bits1 = c.u8();
  c.u8();
  const uint64_t size = c.u32();
  if (version < 1 || version > 5) c.fail(str_cat("datatype version ", version));
  if (cls == 0) {  // fixed-point: byte order (bit 0), signed (bit 3); bit offset, precision
    const uint64_t offset = c.u16();
    const uint64_t precision = c.u16();
    if (bits0 & 0x01) c.unsupported("big-endian integers are not read");
    if (size != 1 && size != 2 && size != 4 && size != 8) {
      c.fail(str_cat("an integer of ", size, " bytes"));
    }
    if (offset != 0 || precision != 8 * size) {
      c.unsupported(
          str_cat("an integer of ", precision, " bits at bit ", offset, " in ", size, " bytes"));
    }
    info.element_size = static_cast<int>(size);
    if (bits0 & 0x08) {
      info.kind = DatasetInfo::Kind::kSigned;
      info.dtype = size == 8 ? int64 : int32;
    } else {
      if (size != 1) {
        c.unsupported(str_cat("unsigned integers of ", size,
                              " bytes (uint8 and signed "
                              "integers are read)"));
      }
      info.kind = DatasetInfo::Kind::kUnsigned;
      info.dtype = uint8;
    }
    return;
  }
  if (cls == 1) {  // floating point: byte order (bits 0 and 6), sign location; field layout
    if (bits0 & 0x41) c.unsupported("big-endian or VAX floats are not read");
    const uint64_t offset = c.u16();
    FloatLayout got{};
    got.precision = c.u16();
    got.exp_loc = c.u8();
    got.exp_size = c.u8();
    got.mant_loc = c.u8();
    got.mant_size = c.u8();
    got.bias = c.u32();
    got.sign = bits1;
    // Mantissa normalization (bits 4-5) 2: the leading 1 is implied, as in IEEE 754.
    if (offset != 0 || ((bits0 >> 4) & 0x3) != 2 || !is_ieee(size, got)) {
      c.unsupported(str_cat("a float of ", size, " bytes that is not IEEE 754 binary16/32/64"));
    }
    info.kind = DatasetInfo::Kind::kFloat;
    info.element_size = static_cast<int>(size);
    info.dtype = size == 8 ? float64 : float32;
    return;
  }
  static const char* const kClasses[] = {"integer",     "float",           "time",     "string",
                                         "bit field",   "opaque",          "compound", "reference",
                                         "enum (bool)", "variable-length", "array"};
  if (cls > 10) c.fail(str_cat("datatype class ", cls));
  c.unsupported(str_cat("a dataset of ", kClasses[cls],
                        " type (floats, signed integers and "
                        "uint8 are read)"));
}

// Layout version 3: class (1); compact: size (2), data; contiguous: address, size.
void read_layout(const Image& image, const Message& m, DatasetInfo& info) {
  Cursor c = image.cursor(m.offset, m.size, info.what);
  const int version = c.u8();
  if (version < 1 || version > 4) c.fail(str_cat("layout message version ", version));
  if (version != 3) {
    c.unsupported(str_cat("layout message version ", version,
                          " is not read (tfcc reads version "
                          "3, what h5py and libhdf5 write by default)"));
  }
  const int cls = c.u8();
  const uint64_t needed = info.elements * static_cast<uint64_t>(info.element_size);
  uint64_t stored = 0;
  if (cls == 0) {
    stored = c.u16();
    info.data = c.pos();
    (void)c.bytes(stored);
  } else if (cls == 1) {
    info.data = c.address();
    stored = c.length();
  } else if (cls == 2) {
    c.unsupported("chunked storage is not read (Keras writes contiguous datasets)");
  } else {
    c.fail(str_cat("layout class ", cls));
  }
  if (needed == 0) return;
  if (info.data == kUndefinedAddress) c.fail("the dataset's data was never written");
  if (stored < needed) {
    c.fail(str_cat(info.elements, " elements need ", needed, " bytes but ", stored, " are stored"));
  }
  (void)image.span(info.data, needed, info.what);
}

float half_to_float(uint16_t h) {
  const int sign = h >> 15;
  const int exponent = (h >> 10) & 0x1F;
  const int mantissa = h & 0x3FF;
  float value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    value = mantissa ? std::nanf("") : INFINITY;
  } else {
    value = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  }
  return sign ? -value : value;
}

}  // namespace

DatasetInfo read_dataset_info(const Image& image, const std::vector<Message>& messages,
                              const std::string& what) {
  DatasetInfo info;
  info.what = what;
  if (find_message(messages, kFilterPipelineMessage)) {
    image.unsupported(what, "filtered (compressed) datasets are not read");
  }
  if (find_message(messages, kExternalFilesMessage)) {
    image.unsupported(what, "datasets stored in external files are not read");
  }
  read_dataspace(image, required(image, messages, kDataspaceMessage, "dataspace", what), info);
  read_datatype(image, required(image, messages, kDatatypeMessage, "datatype", what), info);
  read_layout(image, required(image, messages, kLayoutMessage, "layout", what), info);
  return info;
}

Tensor read_dataset(const Image& image, const DatasetInfo& info) {
  Tensor out = Tensor::empty(info.dtype, Shape(info.dims));
  if (info.elements == 0) return out;
  const size_t n = info.elements;
  const std::string_view src =
      image.span(info.data, n * static_cast<uint64_t>(info.element_size), info.what);
  const auto* in = reinterpret_cast<const unsigned char*>(src.data());
  void* dst = out.mutable_raw_data();
  if (info.kind == DatasetInfo::Kind::kFloat && info.element_size == 2) {
    auto* f = static_cast<float*>(dst);
    for (size_t i = 0; i < n; ++i)
      f[i] = half_to_float(static_cast<uint16_t>(in[2 * i] | in[2 * i + 1] << 8));
  } else if (info.kind == DatasetInfo::Kind::kSigned && info.element_size < 4) {
    auto* v = static_cast<int32_t*>(dst);
    for (size_t i = 0; i < n; ++i) {
      v[i] = info.element_size == 1
                 ? static_cast<int8_t>(in[i])
                 : static_cast<int16_t>(static_cast<uint16_t>(in[2 * i] | in[2 * i + 1] << 8));
    }
  } else {
    std::memcpy(dst, in, src.size());  // same width and layout: float32/64, int32/64, uint8
  }
  return out;
}

}  // namespace tfcc::io::hdf5::detail
