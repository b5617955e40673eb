#include "tfcc/io/checkpoint/string_tensor.h"

#include "tfcc/io/checkpoint/coding.h"
#include "tfcc/platform/crc32c.h"
#include "tfcc/platform/errors.h"

namespace tfcc::checkpoint {
namespace {

// TensorFlow checksums each length as 4 little-endian bytes while it fits (for compatibility
// with older files), 8 beyond.
uint32_t extend_with_length(uint32_t crc, uint64_t len) {
  std::string bytes;
  if (len <= 0xffffffffu) {
    put_fixed32(bytes, static_cast<uint32_t>(len));
  } else {
    put_fixed64(bytes, len);
  }
  return crc32c::extend(crc, bytes.data(), bytes.size());
}

}  // namespace

uint32_t append_string_tensor(std::string& out, const std::vector<std::string>& values) {
  uint32_t crc = 0;
  for (const std::string& v : values) {
    put_varint(out, v.size());
    crc = extend_with_length(crc, v.size());
  }
  std::string length_crc;
  put_fixed32(length_crc, crc32c::mask(crc));
  out.append(length_crc);
  crc = crc32c::extend(crc, length_crc.data(), 4);
  for (const std::string& v : values) {
    out.append(v);
    crc = crc32c::extend(crc, v.data(), v.size());
  }
  return crc;
}

std::vector<std::string> decode_string_tensor(std::string_view bytes, uint64_t count,
                                              uint32_t masked_crc, const std::string& context) {
  auto fail = [&](const std::string& what) {
    std::string msg = context;
    msg.append(": ").append(what);
    throw DataLossError(msg);
  };
  if (count > bytes.size()) {
    fail(internal::str_cat(count, " strings cannot fit in ", bytes.size(), " bytes"));
  }
  std::vector<uint64_t> lengths(static_cast<size_t>(count));
  uint32_t crc = 0;
  size_t pos = 0;
  uint64_t total = 0;
  for (uint64_t& len : lengths) {
    auto v = get_varint(bytes, &pos);
    if (!v) fail("truncated string lengths");
    len = *v;
    crc = extend_with_length(crc, len);
    if (len > bytes.size() || __builtin_add_overflow(total, len, &total)) {
      fail("string length larger than the tensor");
    }
  }
  if (bytes.size() - pos < 4) fail("truncated string length checksum");
  uint32_t stored = load_fixed32(bytes.data() + pos);
  if (crc32c::unmask(stored) != crc) fail("string length checksum mismatch");
  crc = crc32c::extend(crc, bytes.data() + pos, 4);
  pos += 4;
  if (total != bytes.size() - pos) {
    fail(internal::str_cat("string lengths add up to ", total, " bytes but ", bytes.size() - pos,
                           " are stored"));
  }
  crc = crc32c::extend(crc, bytes.data() + pos, bytes.size() - pos);
  if (crc != crc32c::unmask(masked_crc)) fail("checksum mismatch");
  std::vector<std::string> out;
  out.reserve(lengths.size());
  for (uint64_t len : lengths) {
    out.emplace_back(bytes.substr(pos, static_cast<size_t>(len)));
    pos += static_cast<size_t>(len);
  }
  return out;
}

}  // namespace tfcc::checkpoint
