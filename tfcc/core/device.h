// Devices: where tensors live and kernels run. Only the CPU exists today; the interface keeps
// op definitions free of device details so another device can be added beside it.
//
//   tfcc::Device& cpu = tfcc::cpu_device();
//   cpu.name();          // "/job:localhost/replica:0/task:0/device:CPU:0"
//   cpu.allocator();     // the caching CPU allocator
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <string>

#include "tfcc/core/allocator.h"

namespace tfcc {

/// The kind of a device; kernels are registered per kind.
enum class DeviceType { kCPU = 0 };
inline constexpr int kNumDeviceTypes = 1;

/// A place to allocate tensors and run kernels.
class Device {
 public:
  virtual ~Device() = default;
  virtual DeviceType type() const = 0;
  /// TensorFlow's full device name.
  virtual std::string name() const = 0;
  virtual Allocator& allocator() = 0;
};

/// The host CPU.
Device& cpu_device();

}  // namespace tfcc
#pragma GCC visibility pop
