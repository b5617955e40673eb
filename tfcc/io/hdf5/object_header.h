// Object headers of an HDF5 file (tfcc's own reader, reader.h): the list of messages that says
// what an object (group or dataset) is. Internal to tfcc/io/hdf5.
//
//   std::vector<Message> msgs = read_object_header(image, address, "/layers/dense/vars/0");
//   if (const Message* m = find_message(msgs, kSymbolTableMessage)) { ... m->data ... }
//
// Version 1 headers are read (what superblock 0 files hold), continuation blocks included,
// at most kMaxHeaderBlocks of them and kMaxHeaderMessages messages. A version 2 header ("OHDR",
// written for the latest file format) is an UnimplementedError.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/io/hdf5/image.h"

namespace tfcc::io::hdf5::detail {

// Message types (HDF5 file format specification, section IV.A.2).
inline constexpr uint16_t kDataspaceMessage = 0x0001;
inline constexpr uint16_t kLinkInfoMessage = 0x0002;
inline constexpr uint16_t kDatatypeMessage = 0x0003;
inline constexpr uint16_t kExternalFilesMessage = 0x0007;
inline constexpr uint16_t kLayoutMessage = 0x0008;
inline constexpr uint16_t kLinkMessage = 0x0006;
inline constexpr uint16_t kFilterPipelineMessage = 0x000B;
inline constexpr uint16_t kContinuationMessage = 0x0010;
inline constexpr uint16_t kSymbolTableMessage = 0x0011;

/// One message of an object header: its type, flags and body (a view into the Image).
struct Message {
  uint16_t type = 0;
  uint8_t flags = 0;
  uint64_t offset = 0;  // of the body in the file
  uint64_t size = 0;
};

/// The messages of the object header at `address` (absolute); `what` names the object in errors.
std::vector<Message> read_object_header(const Image& image, uint64_t address,
                                        const std::string& what);

/// The first message of `type`, or nullptr.
const Message* find_message(const std::vector<Message>& messages, uint16_t type);

}  // namespace tfcc::io::hdf5::detail
