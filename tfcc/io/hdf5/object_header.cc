#include "tfcc/io/hdf5/object_header.h"

#include <set>

namespace tfcc::io::hdf5::detail {
namespace {

// Version 1 messages in one block: type (2), body size (2), flags (1), reserved (3), body.
// Continuation messages add further blocks to `pending`.
void read_block(const Image& image, uint64_t pos, uint64_t length, const std::string& what,
                std::vector<Message>& out, std::vector<std::pair<uint64_t, uint64_t>>& pending) {
  Cursor c = image.cursor(pos, length, what);
  while (c.remaining() >= 8) {
    Message m;
    m.type = c.u16();
    m.size = c.u16();
    m.flags = c.u8();
    c.skip(3);
    m.offset = c.pos();
    c.skip(m.size);
    if (out.size() >= kMaxHeaderMessages) {
      c.fail(tfcc::internal::str_cat("more than ", kMaxHeaderMessages, " header messages"));
    }
    if (m.type == kContinuationMessage) {
      Cursor body = image.cursor(m.offset, m.size, what);
      const uint64_t at = body.address();
      const uint64_t size = body.length();
      if (at == kUndefinedAddress) c.fail("a continuation block without an address");
      (void)image.span(at, size, what);
      pending.emplace_back(at, size);
    }
    out.push_back(m);
  }
}

}  // namespace

std::vector<Message> read_object_header(const Image& image, uint64_t address,
                                        const std::string& what) {
  Cursor c = image.cursor(address, 16, what);
  if (image.span(address, 4, what) == "OHDR") {
    c.unsupported(
        "a version 2 object header (HDF5's latest file format) is not read; tfcc reads "
        "version 1, what h5py and libhdf5 write by default");
  }
  const int version = c.u8();
  if (version != 1) {
    c.fail(tfcc::internal::str_cat("object header at ", hex(address), " has version ", version,
                                   " (1 expected)"));
  }
  c.skip(1 + 2 + 4);  // reserved, message count (counted as read), reference count
  const uint64_t size = c.u32();
  c.skip(4);  // the prefix is padded to 16 bytes
  std::vector<Message> out;
  std::vector<std::pair<uint64_t, uint64_t>> pending{{address + 16, size}};
  std::set<uint64_t> seen;  // a continuation may not lead back to a block already read
  for (size_t i = 0; i < pending.size(); ++i) {
    if (static_cast<int>(i) >= kMaxHeaderBlocks) {
      c.fail(tfcc::internal::str_cat("more than ", kMaxHeaderBlocks, " continuation blocks"));
    }
    const auto [at, length] = pending[i];
    if (!seen.insert(at).second) c.fail("a continuation block at " + hex(at) + " is read twice");
    read_block(image, at, length, what, out, pending);
  }
  return out;
}

const Message* find_message(const std::vector<Message>& messages, uint16_t type) {
  for (const Message& m : messages) {
    if (m.type == type) return &m;
  }
  return nullptr;
}

}  // namespace tfcc::io::hdf5::detail
