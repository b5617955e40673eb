// A reference-counted block of device memory holding a tensor's elements. Buffers are immutable
// once a tensor is published; reshape shares one, everything else writes a new one.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstddef>
#include <memory>
#include <vector>

#include "tfcc/core/allocator.h"

namespace tfcc {

/// Owns `bytes` bytes from an allocator and gives them back when the last holder lets go.
class Buffer {
 public:
  Buffer(Allocator& allocator, size_t bytes)
      : allocator_(&allocator), bytes_(bytes), data_(allocator.allocate(bytes)) {}
  ~Buffer() { allocator_->deallocate(data_, bytes_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }

  /// What a string tensor's elements (TString) point into: the storage blocks kept alive as long
  /// as this buffer. Set by whoever fills the buffer, before the tensor is published.
  const std::vector<std::shared_ptr<const void>>& owners() const { return owners_; }
  /// Adds `owner` unless already held.
  void add_owner(std::shared_ptr<const void> owner) {
    for (const auto& o : owners_)
      if (o == owner) return;
    owners_.push_back(std::move(owner));
  }
  /// Adds every owner of `other` (a kernel copied TString elements from it).
  void add_owners_of(const Buffer& other) {
    if (&other == this) return;
    for (const auto& o : other.owners_) add_owner(o);
  }

 private:
  Allocator* allocator_;
  size_t bytes_;
  void* data_;
  std::vector<std::shared_ptr<const void>> owners_;
};

}  // namespace tfcc
#pragma GCC visibility pop
