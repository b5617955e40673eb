// Fuzzes the IDX parser, and the gzip reader in front of it when the input is gzip data.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tfcc/data/gzip.h"
#include "tfcc/data/idx.h"
#include "tfcc/platform/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    if (tfcc::data::is_gzip(bytes)) {
      std::string raw = tfcc::data::gunzip(bytes, "fuzz", size_t{1} << 24);
      tfcc::data::parse_idx(raw, "fuzz");
    } else {
      tfcc::Tensor t = tfcc::data::parse_idx(bytes, "fuzz");
      if (t.rank() >= 1 && t.shape().dim(0) > 0 && t.num_elements() < 4096) {
        // Slicing what was parsed must stay in bounds too.
        for (const auto& e : tfcc::data::Dataset::from_tensor_slices({t}).take(4)) (void)e;
      }
    }
  } catch (const tfcc::Error&) {
  }
  return 0;
}
