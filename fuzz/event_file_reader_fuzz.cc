// Fuzzes the TensorBoard event file reader: TFRecord framing and checksums (plain, and gzip when
// the input starts with gzip's magic bytes), then the protobuf decoding of every Event and of its
// summary values. Also checks that serialize(parse(bytes)) parses back to the same bytes.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "tfcc/io/record/record_reader.h"
#include "tfcc/io/summary/event_file_reader.h"
#include "tfcc/platform/errors.h"

namespace {

const std::string& scratch_file() {
  static const std::string path = [] {
    const char* dir = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    return std::string(dir) + "/tfcc_event_fuzz_" + std::to_string(::getpid()) + ".tfevents";
  }();
  return path;
}

void exercise(const tfcc::summary::Event& event) {
  std::string bytes = event.serialize();
  if (tfcc::summary::Event::parse(bytes).serialize() != bytes) __builtin_trap();
  for (const auto& value : event.summary) {
    if (!value.tensor) continue;
    try {
      (void)value.tensor->to_doubles();
    } catch (const tfcc::Error&) {
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = scratch_file();
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return 0;
  if (size > 0) std::fwrite(data, 1, size, f);
  std::fclose(f);
  try {
    tfcc::summary::EventFileReader reader(path, size > 0 && (data[size - 1] & 1));
    tfcc::summary::Event event;
    while (reader.read_next(event)) exercise(event);
  } catch (const tfcc::Error&) {
  }
  if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
    try {
      tfcc::io::TFRecordReader reader(path, {.compression_type = "GZIP"});
      std::string record;
      while (reader.read_next(record)) exercise(tfcc::summary::Event::parse(record));
    } catch (const tfcc::Error&) {
    }
  }
  return 0;
}
