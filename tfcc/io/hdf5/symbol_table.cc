#include "tfcc/io/hdf5/symbol_table.h"

#include <algorithm>
#include <set>

#include "tfcc/platform/limits.h"

namespace tfcc::io::hdf5::detail {
namespace {

// A local heap: "HEAP", version 0, reserved (3), data segment size, free list offset, address.
std::string_view local_heap(const Image& image, uint64_t address, const std::string& what) {
  if (address == kUndefinedAddress) image.fail(what, "the group has no local heap");
  Cursor c = image.cursor(address, 8 + 2 * image.length_size + image.offset_size, what);
  c.expect_signature("HEAP");
  if (const int version = c.u8(); version != 0) {
    c.fail(tfcc::internal::str_cat("local heap version ", version, " (0 expected)"));
  }
  c.skip(3);
  const uint64_t size = c.length();
  c.length();  // free list
  const uint64_t data = c.address();
  if (data == kUndefinedAddress) c.fail("the local heap has no data segment");
  return image.span(data, size, what);
}

// The null-terminated name at `offset` in the heap's data segment.
std::string heap_name(const Image& image, std::string_view heap, uint64_t offset,
                      const std::string& what) {
  if (offset >= heap.size()) {
    image.fail(what, tfcc::internal::str_cat("a member name at heap offset ", offset,
                                             " lies past the heap's ", heap.size(), " bytes"));
  }
  const size_t end = heap.find('\0', offset);
  if (end == std::string_view::npos) image.fail(what, "a member name is not terminated");
  std::string name(heap.substr(offset, end - offset));
  if (name.empty() || name.find('/') != std::string::npos) {
    image.fail(what, "a member name is empty or holds '/': " + quote_input(name));
  }
  return name;
}

struct Walk {
  const Image& image;
  std::string_view heap;
  const std::string& what;
  std::set<uint64_t> visited;
  std::vector<Member> members;

  // A symbol table node: "SNOD", version 1, reserved, count, then the entries (link name
  // offset, object header address, cache type (4), reserved (4), scratch pad (16)).
  void leaf(uint64_t address) {
    const uint64_t entry_size = 2 * static_cast<uint64_t>(image.offset_size) + 24;
    Cursor head = image.cursor(address, 8, what);
    head.expect_signature("SNOD");
    if (const int version = head.u8(); version != 1) {
      head.fail(tfcc::internal::str_cat("symbol table node version ", version, " (1 expected)"));
    }
    head.skip(1);
    const uint64_t count = head.u16();
    Cursor c = image.cursor(address + 8, count * entry_size, what);
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t name_offset = c.uint(image.offset_size);
      const uint64_t header = c.address();
      c.skip(24);
      if (header == kUndefinedAddress) c.fail("a member without an object header");
      if (members.size() >= kMaxGroupMembers) {
        c.fail(tfcc::internal::str_cat("more than ", kMaxGroupMembers, " members"));
      }
      members.push_back({heap_name(image, heap, name_offset, what), header});
    }
  }

  // A version 1 B-tree node of a group: "TREE", type 0, level, entries used, siblings (2
  // addresses), then keys (heap offsets, a length each) and children (addresses) alternating.
  void node(uint64_t address, int expected_level) {
    if (address == kUndefinedAddress) image.fail(what, "a B-tree node without an address");
    if (!visited.insert(address).second) {
      image.fail(what, "the group's B-tree reaches the node at " + hex(address) + " twice");
    }
    Cursor head = image.cursor(address, 8 + 2 * image.offset_size, what);
    head.expect_signature("TREE");
    if (const int type = head.u8(); type != 0) {
      head.fail(tfcc::internal::str_cat("B-tree node type ", type, " in a group (0 expected)"));
    }
    const int level = head.u8();
    if (level > kMaxBTreeLevel || (expected_level >= 0 && level != expected_level)) {
      head.fail(tfcc::internal::str_cat("B-tree node at level ", level, " (expected ",
                                        expected_level < 0 ? kMaxBTreeLevel : expected_level,
                                        expected_level < 0 ? " at most)" : ")"));
    }
    const uint64_t entries = head.u16();
    const uint64_t key = image.length_size;
    const uint64_t child = image.offset_size;
    Cursor c = image.cursor(head.end(), entries * (key + child) + key, what);
    for (uint64_t i = 0; i < entries; ++i) {
      c.skip(key);
      const uint64_t target = c.address();
      if (level == 0) {
        if (target == kUndefinedAddress) c.fail("a B-tree leaf entry without an address");
        if (!visited.insert(target).second) {
          c.fail("the group's B-tree lists the node at " + hex(target) + " twice");
        }
        leaf(target);
      } else {
        node(target, level - 1);
      }
    }
  }
};

}  // namespace

std::vector<Member> read_symbol_table(const Image& image, const Message& symbol_table,
                                      const std::string& what) {
  Cursor c = image.cursor(symbol_table.offset, symbol_table.size, what);
  const uint64_t btree = c.address();
  const uint64_t heap_address = c.address();
  Walk walk{image, local_heap(image, heap_address, what), what, {}, {}};
  walk.node(btree, -1);
  std::vector<Member>& members = walk.members;
  std::sort(members.begin(), members.end(),
            [](const Member& a, const Member& b) { return a.name < b.name; });
  for (size_t i = 1; i < members.size(); ++i) {
    if (members[i].name == members[i - 1].name) {
      image.fail(what, "two members are named " + quote_input(members[i].name));
    }
  }
  return members;
}

}  // namespace tfcc::io::hdf5::detail
