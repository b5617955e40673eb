// Fuzzes the BMP decoder as stored and widened to RGBA.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tfcc/io/image/image.h"
#include "tfcc/platform/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (int channels : {0, 4}) {
    try {
      tfcc::io::decode_bmp(bytes, channels, "fuzz");
    } catch (const tfcc::Error&) {
    }
  }
  return 0;
}
