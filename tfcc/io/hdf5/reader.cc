#include "tfcc/io/hdf5/reader.h"

#include <algorithm>

#include "tfcc/io/hdf5/dataset.h"
#include "tfcc/io/hdf5/image.h"
#include "tfcc/io/hdf5/object_header.h"
#include "tfcc/io/hdf5/superblock.h"
#include "tfcc/io/hdf5/symbol_table.h"
#include "tfcc/platform/file.h"

namespace tfcc::io::hdf5 {

using detail::Message;

namespace {

enum class Kind { kAbsent, kGroup, kDataset, kOther };

Kind kind_of(const detail::Image& image, const std::vector<Message>& messages,
             const std::string& what) {
  if (detail::find_message(messages, detail::kSymbolTableMessage)) return Kind::kGroup;
  if (detail::find_message(messages, detail::kLayoutMessage)) return Kind::kDataset;
  if (detail::find_message(messages, detail::kLinkInfoMessage) ||
      detail::find_message(messages, detail::kLinkMessage)) {
    image.unsupported(what,
                      "a group stored as link messages (HDF5's latest file format) is not "
                      "read; tfcc reads symbol-table groups, what h5py writes by default");
  }
  return Kind::kOther;  // e.g. a committed datatype
}

}  // namespace

// A member found by a relative path: its kind, header messages, and the group holding it.
struct ReadGroup::Object {
  Kind kind = Kind::kAbsent;
  std::vector<Message> messages;
  uint64_t address = 0;
  std::string path;
  std::vector<uint64_t> lineage;  // of the object, when it is a group
};

ReadGroup::ReadGroup(std::shared_ptr<const detail::Image> image, uint64_t address, std::string path,
                     std::vector<uint64_t> lineage)
    : image_(std::move(image)), path_(std::move(path)), lineage_(std::move(lineage)) {
  const detail::Image& img = *image_;
  if (std::find(lineage_.begin(), lineage_.end(), address) != lineage_.end()) {
    img.fail(path_, "the group contains itself (a cycle of groups)");
  }
  if (static_cast<int>(lineage_.size()) >= detail::kMaxGroupDepth) {
    img.fail(path_,
             tfcc::internal::str_cat("groups nest more than ", detail::kMaxGroupDepth, " deep"));
  }
  lineage_.push_back(address);
  const std::vector<Message> messages = detail::read_object_header(img, address, path_);
  const Message* table = detail::find_message(messages, detail::kSymbolTableMessage);
  if (!table) {
    (void)kind_of(img, messages, path_);  // explains a new-style group
    img.fail(path_, "not a group (no symbol table message)");
  }
  for (auto& m : detail::read_symbol_table(img, *table, path_)) {
    members_.emplace_back(std::move(m.name), m.address);
  }
}

const std::string& ReadGroup::source() const { return image_->source(); }

std::string ReadGroup::child_path(const std::string& name) const {
  return path_ == "/" ? "/" + name : path_ + "/" + name;
}

std::vector<std::string> ReadGroup::children() const {
  std::vector<std::string> out;
  out.reserve(members_.size());
  for (const auto& [name, address] : members_) out.push_back(name);
  return out;
}

ReadGroup::Object ReadGroup::find(const std::string& name) const {
  Object out;
  if (name.empty()) return out;
  const size_t slash = name.find('/');
  const std::string first = name.substr(0, slash);
  auto it = std::lower_bound(members_.begin(), members_.end(), first,
                             [](const auto& m, const std::string& n) { return m.first < n; });
  if (it == members_.end() || it->first != first) return out;
  if (slash != std::string::npos) {  // a path: descend through a subgroup
    const std::vector<Message> messages =
        detail::read_object_header(*image_, it->second, child_path(first));
    if (kind_of(*image_, messages, child_path(first)) != Kind::kGroup) return out;
    return ReadGroup(image_, it->second, child_path(first), lineage_).find(name.substr(slash + 1));
  }
  out.path = child_path(first);
  out.address = it->second;
  out.messages = detail::read_object_header(*image_, out.address, out.path);
  out.kind = kind_of(*image_, out.messages, out.path);
  out.lineage = lineage_;
  return out;
}

bool ReadGroup::has_group(const std::string& name) const { return find(name).kind == Kind::kGroup; }

bool ReadGroup::has_dataset(const std::string& name) const {
  return find(name).kind == Kind::kDataset;
}

ReadGroup ReadGroup::group(const std::string& name) const {
  Object o = find(name);
  if (o.kind != Kind::kGroup) {
    throw DataLossError(tfcc::internal::str_cat(source(), ": no group ", child_path(name)));
  }
  return ReadGroup(image_, o.address, o.path, std::move(o.lineage));
}

Tensor ReadGroup::read(const std::string& name) const {
  const Object o = find(name);
  if (o.kind != Kind::kDataset) {
    throw DataLossError(tfcc::internal::str_cat(source(), ": no dataset ", child_path(name)));
  }
  return detail::read_dataset(*image_, detail::read_dataset_info(*image_, o.messages, o.path));
}

Reader Reader::open_image(std::string bytes, const std::string& source) {
  auto image = std::make_shared<detail::Image>(std::move(bytes), source);
  const uint64_t root = detail::read_superblock(*image);
  return Reader(ReadGroup(std::move(image), root, "/", {}));
}

Reader Reader::open(const std::string& path) { return open_image(read_file(path), path); }

}  // namespace tfcc::io::hdf5
