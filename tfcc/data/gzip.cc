#include "tfcc/data/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <limits>

#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/limits.h"

namespace tfcc::data {

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

namespace {

// Inflates into `out`; stops once it holds `stop_at` bytes (then the stream need not end).
std::string inflate_gzip(std::string_view bytes, const std::string& source, size_t max_output,
                         size_t stop_at) {
  z_stream zs{};
  // 16 + MAX_WBITS: expect a gzip header and trailer (CRC32 and length are checked by zlib).
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
    throw InternalError("zlib inflateInit2 failed");
  }
  std::string out;
  if (bytes.size() >= 18) {
    // The trailer's ISIZE (uncompressed size mod 2^32) is a good first guess for one member.
    const auto* t = reinterpret_cast<const unsigned char*>(bytes.data() + bytes.size() - 4);
    size_t isize = t[0] | (size_t{t[1]} << 8) | (size_t{t[2]} << 16) | (size_t{t[3]} << 24);
    out.reserve(std::min(isize, std::min(max_output, bytes.size() * 1032)));
  }
  size_t consumed = 0;
  int rc = Z_OK;
  char buf[1 << 16];
  while (consumed < bytes.size()) {
    size_t chunk = std::min<size_t>(bytes.size() - consumed, UINT_MAX);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + consumed));
    zs.avail_in = static_cast<uInt>(chunk);
    do {
      zs.next_out = reinterpret_cast<Bytef*>(buf);
      zs.avail_out = sizeof(buf);
      rc = inflate(&zs, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
        size_t at = consumed + (chunk - zs.avail_in);
        std::string msg = zs.msg ? zs.msg : "corrupt data";
        inflateEnd(&zs);
        throw DataLossError(tfcc::internal::str_cat("Corrupt gzip data in ", source,
                                                    " near compressed offset ", at, ": ", msg));
      }
      size_t produced = sizeof(buf) - zs.avail_out;
      if (out.size() + produced >= stop_at) {
        out.append(buf, stop_at - out.size());
        inflateEnd(&zs);
        return out;
      }
      if (out.size() + produced > max_output) {
        inflateEnd(&zs);
        throw ResourceExhaustedError(tfcc::internal::str_cat(
            "Decompressing ", source, " (", bytes.size(), " bytes) produces more than ", max_output,
            " bytes (see tfcc::set_decompression_limits)"));
      }
      out.append(buf, produced);
    } while (zs.avail_out == 0 && rc != Z_STREAM_END);
    consumed += chunk - zs.avail_in;
    if (rc == Z_STREAM_END) {
      // Concatenated gzip members are one stream (as gzip -d treats them).
      if (consumed < bytes.size() && is_gzip(bytes.substr(consumed))) {
        inflateReset(&zs);
        continue;
      }
      break;
    }
    if (rc == Z_BUF_ERROR && zs.avail_in == 0 && consumed >= bytes.size()) break;
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END) {
    throw DataLossError(tfcc::internal::str_cat("Truncated gzip data in ", source, ": the stream ",
                                                "ends at compressed offset ", bytes.size(),
                                                " before its trailer"));
  }
  return out;
}

}  // namespace

std::string gunzip(std::string_view bytes, const std::string& source, size_t max_output) {
  if (max_output == 0) max_output = max_decompressed_size(bytes.size());
  return tfcc::internal::guard_parse(source, [&] {
    return inflate_gzip(bytes, source, max_output, std::numeric_limits<size_t>::max());
  });
}

std::string gunzip_head(std::string_view bytes, const std::string& source, size_t n) {
  return inflate_gzip(bytes, source, std::numeric_limits<size_t>::max(), n);
}

std::string read_file_maybe_gzip(const std::string& path) {
  std::string bytes = read_file(path);
  if (!is_gzip(bytes)) return bytes;
  return gunzip(bytes, path);
}

}  // namespace tfcc::data
