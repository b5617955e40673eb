// Fuzzes the GIF decoder (giflib's record API, TensorFlow's frame compositing).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tfcc/io/image/image.h"
#include "tfcc/platform/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    tfcc::io::decode_gif(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
  } catch (const tfcc::Error&) {
  }
  return 0;
}
