#include "tfcc/core/device.h"

namespace tfcc {
namespace {

class CpuDevice final : public Device {
 public:
  DeviceType type() const override { return DeviceType::kCPU; }
  std::string name() const override { return "/job:localhost/replica:0/task:0/device:CPU:0"; }
  Allocator& allocator() override { return cpu_allocator(); }
};

}  // namespace

Device& cpu_device() {
  static auto* d = new CpuDevice();
  return *d;
}

}  // namespace tfcc
