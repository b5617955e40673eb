// .npy encoding and decoding.
#include "tfcc/io/npy/npy.h"

#include <algorithm>
#include <cstring>

#include "tfcc/io/npy/npy_header.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::io {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
// NumPy pads the header so that it can grow in place: this many digits for the first axis.
constexpr size_t kGrowthAxisMaxDigits = 21;
// Headers beyond this size are refused (NumPy's own default limit is 10,000 bytes).
constexpr uint32_t kMaxHeaderBytes = 1u << 20;

std::string descr_of(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return "<f4";
    case DType::kFloat64:
      return "<f8";
    case DType::kInt32:
      return "<i4";
    case DType::kInt64:
      return "<i8";
    case DType::kUInt8:
      return "|u1";
    case DType::kBool:
      return "|b1";
    case DType::kBFloat16:
      break;
    case DType::kString:
      throw InvalidArgumentError(
          "npy files hold fixed-size elements: tfcc does not save string "
          "tensors as .npy");
  }
  throw InvalidArgumentError(
      "NumPy has no bfloat16 dtype: cast the tensor to float32 before saving it as .npy");
}

// Reverses the axis order of row-major `in` (dims `dims`) into `out`: the C-order copy of an
// array stored in Fortran order.
void fortran_to_c(const char* in, char* out, const std::vector<int64_t>& dims, size_t elem) {
  size_t rank = dims.size();
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    // `index` is the C-order position of element i; Fortran offset = sum index[k] * stride_k
    // with the first axis varying fastest.
    int64_t offset = 0, stride = 1;
    for (size_t k = 0; k < rank; ++k) {
      offset += index[k] * stride;
      stride *= dims[k];
    }
    std::memcpy(out + i * static_cast<int64_t>(elem), in + offset * static_cast<int64_t>(elem),
                elem);
    for (size_t k = rank; k-- > 0;) {
      if (++index[k] < dims[k]) break;
      index[k] = 0;
    }
  }
}

}  // namespace

std::string encode_npy(const Tensor& tensor) {
  TFCC_CHECK_ARG(tensor.defined() && !tensor.is_symbolic(), "save_npy needs a concrete tensor");
  const Shape& shape = tensor.shape();
  std::string header = "{'descr': '";
  header.append(descr_of(tensor.dtype())).append("', 'fortran_order': False, 'shape': (");
  for (int i = 0; i < shape.rank(); ++i) {
    if (i) header.append(", ");
    header.append(std::to_string(shape[i]));
  }
  if (shape.rank() == 1) header.push_back(',');
  header.append("), }");
  if (shape.rank() > 0) {
    header.append(
        kGrowthAxisMaxDigits - std::min(kGrowthAxisMaxDigits, std::to_string(shape[0]).size()),
        ' ');
  }
  // Pad with spaces and a final newline so the data starts on a 64-byte boundary.
  bool v2 = header.size() + 1 + 10 + 63 > 0xffff;
  size_t prefix = v2 ? 12 : 10;
  size_t total = prefix + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');

  std::string out(kMagic);
  out.push_back(static_cast<char>(v2 ? 2 : 1));
  out.push_back(0);
  uint32_t len = static_cast<uint32_t>(header.size());
  for (size_t i = 0; i < (v2 ? 4u : 2u); ++i)
    out.push_back(static_cast<char>((len >> (8 * i)) & 0xff));
  out.append(header);
  out.append(static_cast<const char*>(tensor.raw_data()), tensor.nbytes());
  return out;
}

Tensor decode_npy(std::string_view bytes, const std::string& source) {
  auto fail = [&](const std::string& what) -> DataLossError {
    return DataLossError(internal::str_cat("Invalid .npy file ", source, ": ", what));
  };
  if (bytes.size() < 10 || bytes.substr(0, 6) != kMagic) {
    throw fail("missing the \\x93NUMPY magic (not a .npy file, or truncated)");
  }
  uint8_t major = static_cast<uint8_t>(bytes[6]);
  if (major < 1 || major > 3) {
    throw fail(internal::str_cat("unsupported format version ", int{major}, ".",
                                 int{static_cast<uint8_t>(bytes[7])}));
  }
  size_t prefix = major == 1 ? 10 : 12;
  if (bytes.size() < prefix) throw fail("truncated header length");
  uint32_t header_len = 0;
  for (size_t i = prefix - 1; i >= 8; --i) {
    header_len = (header_len << 8) | static_cast<uint8_t>(bytes[i]);
  }
  if (header_len > kMaxHeaderBytes) {
    throw fail(internal::str_cat("header of ", header_len, " bytes exceeds the limit"));
  }
  if (bytes.size() - prefix < header_len) throw fail("truncated header");
  NpyHeader h = parse_npy_header(bytes.substr(prefix, header_len), source);
  std::string_view data = bytes.substr(prefix + header_len);

  int64_t n = 1;
  for (int64_t d : h.shape) {
    if (__builtin_mul_overflow(n, d, &n)) throw fail("element count overflows int64");
  }
  uint64_t need = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(n), h.item_size, &need)) {
    throw fail("data size overflows");
  }
  if (data.size() != need) {
    throw fail(internal::str_cat("shape ", Shape(h.shape).to_string(), " of ", h.descr, " needs ",
                                 need, " data bytes, the file has ", data.size(),
                                 data.size() < need ? " (truncated)" : ""));
  }
  std::string buf(data);
  if (h.big_endian && h.item_size > 1) {
    for (size_t i = 0; i < buf.size(); i += h.item_size) {
      std::reverse(buf.begin() + static_cast<std::ptrdiff_t>(i),
                   buf.begin() + static_cast<std::ptrdiff_t>(i + h.item_size));
    }
  }
  if (h.dtype == bool_) {
    for (char c : buf) {
      if (c != 0 && c != 1) throw fail("bool element is neither 0 nor 1");
    }
  }
  Tensor t = Tensor::empty(h.dtype, Shape(h.shape));
  if (need == 0) return t;
  if (h.fortran_order && h.shape.size() > 1) {
    fortran_to_c(buf.data(), static_cast<char*>(t.mutable_raw_data()), h.shape, h.item_size);
  } else {
    std::memcpy(t.mutable_raw_data(), buf.data(), buf.size());
  }
  return t;
}

void save_npy(const std::string& path, const Tensor& tensor) {
  write_file_atomic(path, encode_npy(tensor));
}

Tensor load_npy(const std::string& path) { return decode_npy(read_file(path), path); }

}  // namespace tfcc::io
