#include "tfcc/data/idx.h"

#include <cstring>

#include "tfcc/data/gzip.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/limits.h"

namespace tfcc::data {
namespace {

uint32_t be32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

[[noreturn]] void bad(const std::string& source, size_t offset, const std::string& what) {
  throw DataLossError(
      tfcc::internal::str_cat("Invalid IDX file ", source, " at offset ", offset, ": ", what));
}

template <typename Out, typename Raw>
void decode_be(const unsigned char* in, Out* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    uint64_t v = 0;
    for (size_t b = 0; b < sizeof(Raw); ++b)
      v = (v << 8) | in[i * int64_t(sizeof(Raw)) + int64_t(b)];
    Raw r;
    std::memcpy(&r, &v, sizeof(Raw));  // little-endian host: the low bytes of v
    out[i] = static_cast<Out>(r);
  }
}

}  // namespace

Tensor parse_idx(std::string_view bytes, const std::string& source) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < 4) bad(source, 0, "shorter than the 4-byte magic number");
  if (p[0] != 0 || p[1] != 0) bad(source, 0, "the magic number must start with two zero bytes");
  unsigned type = p[2];
  size_t ndims = p[3];
  size_t elem = 0;
  DType dtype = uint8;
  switch (type) {
    case 0x08:
      elem = 1;
      dtype = uint8;
      break;
    case 0x09:
      elem = 1;
      dtype = int32;
      break;
    case 0x0B:
      elem = 2;
      dtype = int32;
      break;
    case 0x0C:
      elem = 4;
      dtype = int32;
      break;
    case 0x0D:
      elem = 4;
      dtype = float32;
      break;
    case 0x0E:
      elem = 8;
      dtype = float64;
      break;
    default:
      bad(source, 2, tfcc::internal::str_cat("unknown data type 0x", std::hex, type));
  }
  size_t header = 4 + 4 * ndims;
  if (bytes.size() < header) {
    bad(source, bytes.size(),
        tfcc::internal::str_cat("truncated header: ", ndims, " dimensions need ", header,
                                " bytes"));
  }
  std::vector<int64_t> dims(ndims);
  int64_t n = 1;
  for (size_t i = 0; i < ndims; ++i) {
    dims[i] = be32(p + 4 + 4 * i);
    if (__builtin_mul_overflow(n, dims[i], &n)) bad(source, 4 + 4 * i, "size overflows int64");
  }
  int64_t data_bytes;
  if (__builtin_mul_overflow(n, static_cast<int64_t>(elem), &data_bytes)) {
    bad(source, 4, "size overflows int64");
  }
  size_t have = bytes.size() - header;
  if (have < static_cast<uint64_t>(data_bytes)) {
    bad(source, bytes.size(),
        tfcc::internal::str_cat("truncated: the header announces ", data_bytes,
                                " data bytes, the file has ", have));
  }
  if (have > static_cast<uint64_t>(data_bytes)) {
    bad(source, header + static_cast<size_t>(data_bytes),
        tfcc::internal::str_cat(have - static_cast<size_t>(data_bytes),
                                " unexpected bytes after the data"));
  }
  Tensor t = Tensor::empty(dtype, Shape(dims));
  const unsigned char* d = p + header;
  switch (type) {
    case 0x08:
      if (n) std::memcpy(t.mutable_raw_data(), d, static_cast<size_t>(n));
      break;
    case 0x09:
      decode_be<int32_t, int8_t>(d, t.mutable_data<int32_t>(), n);
      break;
    case 0x0B:
      decode_be<int32_t, int16_t>(d, t.mutable_data<int32_t>(), n);
      break;
    case 0x0C:
      decode_be<int32_t, int32_t>(d, t.mutable_data<int32_t>(), n);
      break;
    case 0x0D:
      decode_be<float, float>(d, t.mutable_data<float>(), n);
      break;
    case 0x0E:
      decode_be<double, double>(d, t.mutable_data<double>(), n);
      break;
  }
  return t;
}

Tensor read_idx(const std::string& path) {
  std::string bytes = read_file(path);
  if (!is_gzip(bytes)) return parse_idx(bytes, path);
  // The header says how large the data is: checked against the decompression limit before
  // anything of that size is allocated (a few compressed megabytes can declare gigabytes).
  std::string head = gunzip_head(bytes, path, 4 + 4 * 255);
  uint64_t size = head.size();
  if (head.size() >= 4) {
    const auto* p = reinterpret_cast<const unsigned char*>(head.data());
    size_t ndims = p[3];
    uint64_t elem = p[2] == 0x0B ? 2 : p[2] == 0x0C || p[2] == 0x0D ? 4 : p[2] == 0x0E ? 8 : 1;
    uint64_t n = elem;
    bool overflow = false;
    for (size_t i = 0; i < ndims && 8 + 4 * i <= head.size(); ++i) {
      overflow |= __builtin_mul_overflow(n, uint64_t{be32(p + 4 + 4 * i)}, &n);
    }
    if (overflow) bad(path, 4, "size overflows int64");
    if (__builtin_add_overflow(n, 4 + 4 * ndims, &size)) bad(path, 4, "size overflows int64");
  }
  check_decompressed_size(size, bytes.size(), path);
  std::string data = gunzip(bytes, path, static_cast<size_t>(size) + 1);
  bytes = std::string();
  return tfcc::internal::guard_parse(path, [&] { return parse_idx(data, path); });
}

Dataset idx_dataset(const std::vector<std::string>& paths) {
  TFCC_CHECK_ARG(!paths.empty(), "idx_dataset needs at least one file");
  Element components;
  for (const std::string& p : paths) {
    Tensor t = read_idx(p);
    TFCC_CHECK_ARG(t.rank() >= 1, "IDX file ", p, " holds a scalar; it has no rows to iterate");
    components.push_back(t);
  }
  return Dataset::from_tensor_slices(std::move(components));
}

}  // namespace tfcc::data
