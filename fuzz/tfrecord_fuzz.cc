// Fuzzes TFRecord reading through tfrecord_dataset (tfcc::io's reader underneath). The first byte
// picks the compression ("", "ZLIB", "GZIP"); the rest is the file. The reader takes a path, so
// each input is written to a per-process file in /dev/shm (memory, not disk).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "tfcc/data/tfrecord.h"
#include "tfcc/platform/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const std::string path = "/dev/shm/tfcc_tfrecord_fuzz_" + std::to_string(::getpid());
  const char* compression = data[0] % 3 == 0 ? "" : data[0] % 3 == 1 ? "ZLIB" : "GZIP";
  try {
    // A plain write: write_file_atomic's fsync would make each execution cost milliseconds.
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data + 1, 1, size - 1, f);
    std::fclose(f);
    int n = 0;
    for (const auto& e : tfcc::data::tfrecord_dataset({path}, compression)) {
      if (++n > 10000 || e[0].nbytes() > (size_t{1} << 26)) break;
    }
  } catch (const tfcc::Error&) {
  }
  return 0;
}
