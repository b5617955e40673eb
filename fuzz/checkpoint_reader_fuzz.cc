// Fuzzes the checkpoint reader: the index table, the bundle protos, the object graph, string
// tensors and tensor reads (checksums), then the name-based reader's maps, through real files.
// Matching a decoded object graph to live objects and assigning their variables (which runs ops)
// is covered by the unit tests and the corruption test (tests/unit/io/checkpoint), not here: this
// target links only the platform, core and io readers so that it builds without the op kernels.
//
// Input: a 4-byte little-endian length n, n bytes of `.index`, the rest is the data file
// (fuzz/corpus/checkpoint_reader_fuzz holds a real checkpoint in this form).
//
// The readers take a path prefix, so an input whose index parses is written to per-process files
// in /dev/shm (memory, not disk); one whose index does not parse is rejected by the same table
// reader before any file is opened, so it only runs the in-memory half.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/checkpoint/checkpoint_reader.h"
#include "tfcc/io/checkpoint/object_graph.h"
#include "tfcc/io/checkpoint/table.h"
#include "tfcc/platform/errors.h"

namespace {

void put(const std::string& path, std::string_view bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Returns whether the index table parsed (the file-based half would reject it otherwise).
bool parse_in_memory(std::string_view index) {
  using namespace tfcc::checkpoint;
  std::vector<std::pair<std::string, std::string>> entries;
  try {
    entries = read_table(index, "fuzz.index");
  } catch (const tfcc::Error&) {
    return false;
  }
  for (const auto& [key, value] : entries) {
    try {
      if (key.empty()) {
        decode_header(value, "fuzz header");
      } else {
        decode_entry(value, "fuzz entry");
      }
    } catch (const tfcc::Error&) {
    }
  }
  return true;
}

void read_files(std::string_view index, std::string_view data) {
  static const std::string prefix =
      "/dev/shm/tfcc_checkpoint_reader_fuzz_" + std::to_string(::getpid());
  put(tfcc::checkpoint::index_filename(prefix), index);
  put(tfcc::checkpoint::data_filename(prefix, 0, 1), data);
  {
    tfcc::checkpoint::BundleReader reader(prefix);
    for (const std::string& key : reader.keys()) {
      try {
        if (reader.entry(key).dtype == tfcc::checkpoint::kDtString) {
          auto s = reader.read_strings(key);
          if (key == tfcc::checkpoint::kObjectGraphKey && s.size() == 1) {
            tfcc::checkpoint::decode_object_graph(s[0], "fuzz graph");
          }
        } else {
          reader.read_tensor(key);
        }
      } catch (const tfcc::Error&) {
      }
    }
  }
  // Name-based access (tf.train.load_checkpoint): the shape and dtype maps of every entry.
  tfcc::train::CheckpointReader names(prefix);
  (void)names.get_variable_to_shape_map();
  (void)names.get_variable_to_dtype_map();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (bytes.size() < 4) return 0;
  uint32_t n = 0;
  for (int i = 3; i >= 0; --i) n = (n << 8) | static_cast<uint8_t>(bytes[static_cast<size_t>(i)]);
  bytes.remove_prefix(4);
  if (n > bytes.size()) n = static_cast<uint32_t>(bytes.size());
  std::string_view index = bytes.substr(0, n), rest = bytes.substr(n);
  if (!parse_in_memory(index)) return 0;
  try {
    read_files(index, rest);
  } catch (const tfcc::Error&) {
  }
  return 0;
}
