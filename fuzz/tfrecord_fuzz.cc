// Fuzzes TFRecord reading through tfrecord_dataset (tfcc::io's reader underneath). The first byte
// picks the compression ("", "ZLIB", "GZIP"); the rest is the file. The reader takes a path, so
// each input is written to a per-process file in /dev/shm (memory, not disk).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "tfcc/data/tfrecord.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const std::string path = "/dev/shm/tfcc_tfrecord_fuzz_" + std::to_string(::getpid());
  const char* compression = data[0] % 3 == 0 ? "" : data[0] % 3 == 1 ? "ZLIB" : "GZIP";
  try {
    tfcc::write_file_atomic(path,
                            std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
    int n = 0;
    for (const auto& e : tfcc::data::tfrecord_dataset({path}, compression)) {
      if (++n > 10000 || e[0].nbytes() > (size_t{1} << 26)) break;
    }
  } catch (const tfcc::Error&) {
  }
  return 0;
}
