// Fuzzes the TFRecord reader (tfcc::io::TFRecordReader, what tfrecord_dataset and the TensorBoard
// event readers read with). The first byte picks the compression ("", "ZLIB", "GZIP") and whether
// a truncated tail stops the read (as for live event files) or raises; the rest is the file. The
// reader takes a path, so each input is written to a per-process file in /dev/shm (memory).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "tfcc/io/record/record_reader.h"
#include "tfcc/platform/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const std::string path = "/dev/shm/tfcc_tfrecord_fuzz_" + std::to_string(::getpid());
  const char* compression = data[0] % 3 == 0 ? "" : data[0] % 3 == 1 ? "ZLIB" : "GZIP";
  const bool stop_at_truncated_tail = (data[0] & 0x80) != 0;
  try {
    // A plain write: write_file_atomic's fsync would make each execution cost milliseconds.
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return 0;
    std::fwrite(data + 1, 1, size - 1, f);
    std::fclose(f);
    tfcc::io::TFRecordReader reader(path, {.compression_type = compression},
                                    stop_at_truncated_tail);
    std::string record;
    for (int n = 0; n < 10000 && reader.read_next(record); ++n) {
    }
    (void)reader.truncated_tail();
  } catch (const tfcc::Error&) {
  }
  return 0;
}
