// Zip archives for .npz: a writer of stored members and a validating reader.
#include "tfcc/io/npy/zip.h"

#include <zlib.h>

#include <limits>
#include <set>

#include "tfcc/platform/errors.h"
#include "tfcc/platform/limits.h"

namespace tfcc::io::zip {
namespace {

constexpr uint32_t kLocalSig = 0x04034b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint32_t kEnd64Sig = 0x06064b50;
constexpr uint32_t kEnd64LocatorSig = 0x07064b50;
constexpr uint16_t kDosDate1980 = (0 << 9) | (1 << 5) | 1;  // 1980-01-01
// Deflate cannot expand data by more than about 1032:1; a larger claim is a damaged header.
constexpr uint64_t kMaxDeflateRatio = 1032;

void put16(std::string& out, uint16_t v) {
  out.push_back(static_cast<char>(v & 0xff));
  out.push_back(static_cast<char>(v >> 8));
}
void put32(std::string& out, uint32_t v) {
  put16(out, static_cast<uint16_t>(v & 0xffff));
  put16(out, static_cast<uint16_t>(v >> 16));
}

uint32_t crc32_of(std::string_view s) {
  uLong crc = ::crc32(0L, Z_NULL, 0);
  while (!s.empty()) {
    uInt n = static_cast<uInt>(std::min<size_t>(s.size(), std::numeric_limits<uInt>::max()));
    crc = ::crc32(crc, reinterpret_cast<const Bytef*>(s.data()), n);
    s.remove_prefix(n);
  }
  return static_cast<uint32_t>(crc);
}

class Reader {
 public:
  Reader(std::string_view a, const std::string& source) : a_(a), source_(source) {}

  [[noreturn]] void fail(uint64_t at, const std::string& what) const {
    throw DataLossError(
        internal::str_cat("Corrupt zip archive ", source_, " at byte ", at, ": ", what));
  }
  void need(uint64_t at, uint64_t n, uint64_t limit, const char* what) const {
    if (at > limit || n > limit - at) fail(at, internal::str_cat(what, " runs past its bounds"));
  }
  uint64_t le(uint64_t at, int bytes) const {
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) {
      v = (v << 8) | static_cast<uint8_t>(a_[static_cast<size_t>(at) + static_cast<size_t>(i)]);
    }
    return v;
  }

  Members read();

 private:
  std::string inflate(std::string_view in, uint64_t size, uint64_t at) const;

  std::string_view a_;
  const std::string& source_;
};

std::string Reader::inflate(std::string_view in, uint64_t size, uint64_t at) const {
  if (size / kMaxDeflateRatio > in.size() + 1) fail(at, "implausible uncompressed size");
  check_decompressed_size(size, in.size(), internal::str_cat(source_, " member at offset ", at));
  std::string out(static_cast<size_t>(size), '\0');
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw InternalError("zlib inflateInit2 failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int rc = ::inflate(&z, Z_FINISH);
  bool ok = rc == Z_STREAM_END && z.avail_out == 0 && z.avail_in == 0;
  inflateEnd(&z);
  if (!ok) fail(at, "deflate stream is damaged or does not match the recorded sizes");
  return out;
}

Members Reader::read() {
  const uint64_t n = a_.size();
  if (n < 22) fail(0, "shorter than an end-of-central-directory record (truncated)");
  // The end record sits before a comment of up to 64 KiB; its comment length must reach the end.
  uint64_t end = n;
  for (uint64_t p = n - 22 + 1; p-- > 0 && n - p <= 22 + 0xffff;) {
    if (le(p, 4) == kEndSig && le(p + 20, 2) == n - p - 22) {
      end = p;
      break;
    }
  }
  if (end == n) fail(n, "no end-of-central-directory record (not a zip file, or truncated)");
  uint64_t disk = le(end + 4, 2), cd_disk = le(end + 6, 2);
  uint64_t count = le(end + 10, 2), cd_size = le(end + 12, 4), cd_offset = le(end + 16, 4);
  uint64_t cd_limit = end;
  if (count == 0xffff || cd_size == 0xffffffff || cd_offset == 0xffffffff) {
    if (end < 20 || le(end - 20, 4) != kEnd64LocatorSig) fail(end, "missing zip64 locator");
    uint64_t rec = le(end - 20 + 8, 8);
    need(rec, 56, end - 20, "zip64 end record");
    if (le(rec, 4) != kEnd64Sig) fail(rec, "bad zip64 end record signature");
    disk = le(rec + 16, 4);
    cd_disk = le(rec + 20, 4);
    count = le(rec + 32, 8);
    cd_size = le(rec + 40, 8);
    cd_offset = le(rec + 48, 8);
    cd_limit = rec;
  }
  if (disk != 0 || cd_disk != 0) {
    throw UnimplementedError(internal::str_cat("Zip archive ", source_, " spans several disks"));
  }
  need(cd_offset, cd_size, cd_limit, "central directory");
  if (count > cd_size / 46) fail(end, "more entries than the central directory can hold");

  Members out;
  std::set<std::string> names;
  uint64_t inflated = 0;
  uint64_t p = cd_offset;
  const uint64_t cd_end = cd_offset + cd_size;
  for (uint64_t i = 0; i < count; ++i) {
    need(p, 46, cd_end, "central directory entry");
    if (le(p, 4) != kCentralSig) fail(p, "bad central directory signature");
    uint64_t flags = le(p + 8, 2), method = le(p + 10, 2), crc = le(p + 16, 4);
    uint64_t csize = le(p + 20, 4), usize = le(p + 24, 4), local = le(p + 42, 4);
    uint64_t name_len = le(p + 28, 2), extra_len = le(p + 30, 2), comment_len = le(p + 32, 2);
    need(p + 46, name_len + extra_len + comment_len, cd_end, "central directory entry");
    std::string name(a_.substr(static_cast<size_t>(p + 46), static_cast<size_t>(name_len)));
    // zip64 extra field: the 64-bit values of whichever fields hold 0xffffffff, in this order.
    for (uint64_t e = p + 46 + name_len, e_end = e + extra_len; e + 4 <= e_end;) {
      uint64_t id = le(e, 2), len = le(e + 2, 2);
      need(e + 4, len, e_end, "extra field");
      uint64_t f = e + 4, f_end = f + len;
      if (id == 1) {
        for (uint64_t* v : {&usize, &csize, &local}) {
          if (*v != 0xffffffff) continue;
          need(f, 8, f_end, "zip64 extra field");
          *v = le(f, 8);
          f += 8;
        }
      }
      e = f_end;
    }
    if (flags & 1)
      throw UnimplementedError(
          internal::str_cat("Zip member '", name, "' in ", source_, " is encrypted"));
    if (method != 0 && method != 8) {
      throw UnimplementedError(internal::str_cat("Zip member '", name, "' in ", source_,
                                                 " uses compression method ", method,
                                                 "; tfcc reads stored and deflated members"));
    }
    need(local, 30, cd_offset, "local header");
    if (le(local, 4) != kLocalSig) fail(local, "bad local header signature");
    uint64_t l_name = le(local + 26, 2), l_extra = le(local + 28, 2);
    need(local + 30, l_name + l_extra, cd_offset, "local header");
    if (le(local + 8, 2) != method ||
        a_.substr(static_cast<size_t>(local + 30), static_cast<size_t>(l_name)) != name) {
      fail(local, "local header does not match the central directory");
    }
    uint64_t data = local + 30 + l_name + l_extra;
    need(data, csize, cd_offset, "member data");
    std::string_view raw = a_.substr(static_cast<size_t>(data), static_cast<size_t>(csize));
    std::string bytes;
    if (method == 0) {
      if (csize != usize) fail(p, "stored member with different sizes");
      bytes.assign(raw);
    } else {
      // Each member is bounded by its own size, all of them together by the archive's.
      if (__builtin_add_overflow(inflated, usize, &inflated)) inflated = UINT64_MAX;
      check_decompressed_size(inflated, n, source_);
      bytes = inflate(raw, usize, data);
    }
    if (crc32_of(bytes) != crc)
      fail(data, internal::str_cat("CRC-32 mismatch in '", quote_input(name), "'"));
    if (!names.insert(name).second)
      fail(p, internal::str_cat("duplicate member '", quote_input(name), "'"));
    out.emplace_back(std::move(name), std::move(bytes));
    p += 46 + name_len + extra_len + comment_len;
  }
  return out;
}

}  // namespace

std::string write(const Members& members) {
  std::string out, cd;
  for (const auto& [name, data] : members) {
    TFCC_CHECK_ARG(name.size() <= 0xffff, "zip member name too long: ", name.size(), " bytes");
    if (data.size() >= 0xffffffffu || out.size() >= 0xffffffffu) {
      throw UnimplementedError("tfcc writes .npz archives up to 4 GiB");
    }
    uint32_t crc = crc32_of(data);
    uint32_t offset = static_cast<uint32_t>(out.size());
    put32(out, kLocalSig);
    put16(out, 20);  // version needed: 2.0
    put16(out, 0);   // flags
    put16(out, 0);   // stored
    put16(out, 0);   // time
    put16(out, kDosDate1980);
    put32(out, crc);
    put32(out, static_cast<uint32_t>(data.size()));
    put32(out, static_cast<uint32_t>(data.size()));
    put16(out, static_cast<uint16_t>(name.size()));
    put16(out, 0);
    out.append(name).append(data);

    put32(cd, kCentralSig);
    put16(cd, 20);  // made by: 2.0, MS-DOS attributes
    put16(cd, 20);
    put16(cd, 0);
    put16(cd, 0);
    put16(cd, 0);
    put16(cd, kDosDate1980);
    put32(cd, crc);
    put32(cd, static_cast<uint32_t>(data.size()));
    put32(cd, static_cast<uint32_t>(data.size()));
    put16(cd, static_cast<uint16_t>(name.size()));
    put16(cd, 0);  // extra
    put16(cd, 0);  // comment
    put16(cd, 0);  // disk
    put16(cd, 0);  // internal attributes
    put32(cd, 0);  // external attributes
    put32(cd, offset);
    cd.append(name);
  }
  TFCC_CHECK_ARG(members.size() < 0xffff, "too many .npz members: ", members.size());
  if (out.size() + cd.size() >= 0xffffffffu) {
    throw UnimplementedError("tfcc writes .npz archives up to 4 GiB");
  }
  uint32_t cd_offset = static_cast<uint32_t>(out.size());
  out.append(cd);
  put32(out, kEndSig);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<uint16_t>(members.size()));
  put16(out, static_cast<uint16_t>(members.size()));
  put32(out, static_cast<uint32_t>(cd.size()));
  put32(out, cd_offset);
  put16(out, 0);
  return out;
}

Members read(std::string_view archive, const std::string& source) {
  return Reader(archive, source).read();
}

}  // namespace tfcc::io::zip
