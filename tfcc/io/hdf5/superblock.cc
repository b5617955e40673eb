#include "tfcc/io/hdf5/superblock.h"

namespace tfcc::io::hdf5::detail {
namespace {

constexpr std::string_view kSignature("\x89HDF\r\n\x1a\n", 8);

// The superblock's position: HDF5 looks at 0 and then at every power of two from 512.
uint64_t find_signature(const Image& image) {
  for (uint64_t pos = 0; pos < image.size(); pos = pos == 0 ? 512 : pos * 2) {
    if (image.bytes().substr(pos, kSignature.size()) == kSignature) return pos;
  }
  image.fail("superblock", "no HDF5 signature at 0 or at any power of two from 512");
}

}  // namespace

uint64_t read_superblock(Image& image) {
  const uint64_t at = find_signature(image);
  constexpr std::string_view what = "superblock";
  Cursor c = image.cursor(at, image.size() - at, what);
  c.skip(kSignature.size());
  const int version = c.u8();
  if (version > 1) {
    c.unsupported(tfcc::internal::str_cat(
        "version ", version,
        " (written for HDF5's latest file format) is not read; tfcc reads versions 0 and 1, what "
        "h5py and libhdf5 write by default"));
  }
  c.skip(4);  // free-space, root symbol table and shared-header versions, reserved
  const int offset_size = c.u8();
  const int length_size = c.u8();
  for (int size : {offset_size, length_size}) {
    if (size != 2 && size != 4 && size != 8) {
      c.fail(tfcc::internal::str_cat("a field size of ", size, " bytes (2, 4 or 8 are valid)"));
    }
  }
  image.offset_size = offset_size;
  image.length_size = length_size;
  c.skip(1 + 2 + 2 + 4);        // reserved, group leaf / internal node K, consistency flags
  if (version == 1) c.skip(4);  // indexed storage K, reserved
  // Addresses in the base field and after it are relative to the base, which is absolute.
  const uint64_t base = c.uint(offset_size);
  if (base > image.size()) c.fail("the base address " + hex(base) + " lies past the file's end");
  image.base = base;
  c.skip(offset_size);  // free-space info
  const uint64_t eof = c.uint(offset_size);
  if (eof > image.size() - base) {
    c.fail(tfcc::internal::str_cat("the file should be ", base + eof, " bytes but has ",
                                   image.size(), " (truncated)"));
  }
  c.skip(offset_size);  // driver information block
  // The root group's symbol table entry: link name offset, object header address, cache.
  c.skip(offset_size);
  const uint64_t root = c.address();
  if (root == kUndefinedAddress) c.fail("the root group has no object header");
  return root;
}

}  // namespace tfcc::io::hdf5::detail
