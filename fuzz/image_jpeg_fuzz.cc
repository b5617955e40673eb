// Fuzzes the JPEG decoder (libjpeg-turbo): as stored, gray at half size with the accurate IDCT,
// and RGB recovering truncated data.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tfcc/io/image/image.h"
#include "tfcc/platform/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const tfcc::io::DecodeJpegOptions options[] = {
      {},
      {.channels = 1, .ratio = 2, .dct_method = "INTEGER_ACCURATE"},
      {.channels = 3,
       .fancy_upscaling = false,
       .try_recover_truncated = true,
       .acceptable_fraction = 0.5f},
  };
  for (const auto& o : options) {
    try {
      tfcc::io::decode_jpeg(bytes, o, "fuzz");
    } catch (const tfcc::Error&) {
    }
  }
  return 0;
}
