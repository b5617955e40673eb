// Fuzzes the .npy parser and the .npz (zip) reader in front of it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tfcc/io/npy/npy.h"
#include "tfcc/platform/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    if (bytes.substr(0, 2) == "PK") {
      for (const auto& [name, t] : tfcc::io::decode_npz(bytes, "fuzz.npz")) {
        (void)t.to_vector<double>();
      }
    } else {
      tfcc::Tensor t = tfcc::io::decode_npy(bytes, "fuzz.npy");
      (void)t.to_vector<double>();  // every element must be readable
    }
  } catch (const tfcc::Error&) {
  }
  return 0;
}
