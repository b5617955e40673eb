// Fuzzes the PNG decoder (libpng with TensorFlow's conversions) at every channel count and both
// output widths.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tfcc/io/image/image.h"
#include "tfcc/platform/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (int channels : {0, 1, 3, 4}) {
    try {
      tfcc::io::decode_png(bytes, channels, channels == 3 ? tfcc::int32 : tfcc::uint8, "fuzz");
    } catch (const tfcc::Error&) {
    }
  }
  return 0;
}
