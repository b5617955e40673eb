// A reference-counted block of device memory holding a tensor's elements. Buffers are immutable
// once a tensor is published; reshape shares one, everything else writes a new one.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstddef>
#include <memory>

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

 private:
  Allocator* allocator_;
  size_t bytes_;
  void* data_;
};

}  // namespace tfcc
#pragma GCC visibility pop
