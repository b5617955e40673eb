// The fuzz targets' seed corpora (fuzz/corpus/<target>/) must stay valid inputs of today's
// readers, or a short fuzz run stops at the first check and never reaches the code behind it;
// and every regression file (regress_*, an input that once crashed a parser) must be rejected
// with a tfcc::Error. Each seed is read here the way its fuzz target reads it (fuzz/*_fuzz.cc),
// but an error is a failure rather than an expected outcome.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "tfcc/data/gzip.h"
#include "tfcc/data/idx.h"
#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/checkpoint/checkpoint_reader.h"
#include "tfcc/io/hdf5/reader.h"
#include "tfcc/io/image/image.h"
#include "tfcc/io/npy/npy.h"
#include "tfcc/io/npy/zip.h"
#include "tfcc/io/record/record_reader.h"
#include "tfcc/io/saved_model/model_file.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/io/summary/event_file_reader.h"
#include "tfcc/platform/errors.h"

namespace tfcc {
namespace {

namespace fs = std::filesystem;

// fuzz/corpus of this checkout. __FILE__ may be relative to the folder the binary is built in
// (ccache's base_dir rewriting).
fs::path corpus_dir() {
  fs::path file(__FILE__);
  if (!file.is_absolute()) file = fs::read_symlink("/proc/self/exe").parent_path() / file;
  return fs::weakly_canonical(file).parent_path() / "../../../fuzz/corpus";
}

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::string scratch(const std::string& name) {
  return (fs::temp_directory_path() /
          ("tfcc_fuzz_corpus_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

void put(const std::string& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Reads every file of fuzz/corpus/<target>/ with `read`: seeds must read without an error,
// regress_* files must raise a tfcc::Error.
void check_corpus(const std::string& target, const std::function<void(const std::string&)>& read) {
  const fs::path dir = corpus_dir() / target;
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  int seeds = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    const std::string bytes = read_file(e.path());
    if (name.starts_with("regress_")) {
      EXPECT_THROW(read(bytes), Error) << target << "/" << name;
      continue;
    }
    ++seeds;
    try {
      read(bytes);
    } catch (const Error& err) {
      ADD_FAILURE() << target << "/" << name << " is no longer a valid input: " << err.what();
    }
  }
  EXPECT_GT(seeds, 0) << target << " has no valid seed";
}

int read_records(const std::string& file, const std::string& compression) {
  const std::string path = scratch("records");
  put(path, file);
  io::TFRecordReader reader(path, {.compression_type = compression});
  std::string record;
  int n = 0;
  while (reader.read_next(record)) ++n;
  fs::remove(path);
  return n;
}

TEST(FuzzCorpusTest, TFRecordSeedsRead) {
  check_corpus("tfrecord_fuzz", [](const std::string& bytes) {
    ASSERT_FALSE(bytes.empty());
    const uint8_t mode = static_cast<uint8_t>(bytes[0]);
    const char* compression = mode % 3 == 0 ? "" : mode % 3 == 1 ? "ZLIB" : "GZIP";
    EXPECT_GT(read_records(bytes.substr(1), compression), 0);
  });
}

TEST(FuzzCorpusTest, EventFileSeedsRead) {
  check_corpus("event_file_reader_fuzz", [](const std::string& bytes) {
    if (bytes.size() >= 2 && bytes[0] == '\x1f' && bytes[1] == '\x8b') {
      EXPECT_GT(read_records(bytes, "GZIP"), 0);
      return;
    }
    const std::string path = scratch("events");
    put(path, bytes);
    std::vector<summary::Event> events;
    try {
      events = summary::read_events(path);
      for (const auto& ev : events) {
        for (const auto& v : ev.summary) {
          // Text summaries hold strings; every numeric tensor must decode.
          if (v.tensor && v.tensor->dtype != summary::kDtString) (void)v.tensor->to_doubles();
        }
      }
    } catch (...) {
      fs::remove(path);
      throw;
    }
    fs::remove(path);
    EXPECT_FALSE(events.empty());
  });
}

TEST(FuzzCorpusTest, CheckpointSeedsRead) {
  check_corpus("checkpoint_reader_fuzz", [](const std::string& bytes) {
    ASSERT_GE(bytes.size(), 4u);
    uint32_t n = 0;
    for (int i = 3; i >= 0; --i) n = (n << 8) | static_cast<uint8_t>(bytes[static_cast<size_t>(i)]);
    ASSERT_LE(n, bytes.size() - 4);
    const std::string prefix = scratch("ckpt");
    put(checkpoint::index_filename(prefix), std::string_view(bytes).substr(4, n));
    put(checkpoint::data_filename(prefix, 0, 1), std::string_view(bytes).substr(4 + n));
    size_t keys = 0;
    {
      checkpoint::BundleReader reader(prefix);
      for (const std::string& key : reader.keys()) {
        if (reader.entry(key).dtype == checkpoint::kDtString) {
          (void)reader.read_strings(key);
        } else {
          (void)reader.read_tensor(key);
        }
        ++keys;
      }
    }
    train::CheckpointReader names(prefix);
    EXPECT_FALSE(names.get_variable_to_shape_map().empty());
    fs::remove(checkpoint::index_filename(prefix));
    fs::remove(checkpoint::data_filename(prefix, 0, 1));
    EXPECT_GT(keys, 0u);
  });
}

TEST(FuzzCorpusTest, NpySeedsRead) {
  check_corpus("npy_fuzz", [](const std::string& bytes) {
    if (bytes.starts_with("PK")) {
      EXPECT_FALSE(io::decode_npz(bytes, "seed.npz").empty());
    } else {
      EXPECT_GT(io::decode_npy(bytes, "seed.npy").num_elements(), 0);
    }
  });
}

TEST(FuzzCorpusTest, IdxSeedsRead) {
  check_corpus("idx_fuzz", [](const std::string& bytes) {
    const std::string raw =
        data::is_gzip(bytes) ? data::gunzip(bytes, "seed", size_t{1} << 24) : bytes;
    EXPECT_GT(data::parse_idx(raw, "seed").num_elements(), 0);
  });
}

// A payload seed (first byte even) must also assemble into a model, as the target goes on to do.
void assemble(std::string_view payload) {
  namespace sm = saved_model;
  const sm::ModelFile m = sm::decode_model_payload(payload, "seed");
  sm::LoadOptions options{.max_tensor_bytes = 1 << 20, .max_nodes = 4096, .max_nesting_depth = 16};
  int64_t budget = options.max_tensor_bytes;
  std::vector<std::shared_ptr<VariableState>> states;
  for (const sm::VariableDef& v : m.variables) {
    const int64_t bytes =
        checked_mul(v.shape.num_elements(), static_cast<int64_t>(dtype_size(v.dtype)));
    ASSERT_LE(bytes, budget) << "seed variable " << v.name << " exceeds the target's budget";
    budget -= bytes;
    Variable var(Tensor::from_bytes(v.dtype, v.shape, std::string(bytes, '\0').data(),
                                    static_cast<size_t>(bytes)),
                 {.name = v.name, .trainable = v.trainable});
    states.push_back(var.state_ptr());
  }
  sm::LoadedModel out;
  sm::internal::assemble_model(m, states, budget, options, "seed", out);
  EXPECT_FALSE(out.functions.empty());
}

TEST(FuzzCorpusTest, SavedModelSeedsLoad) {
  check_corpus("saved_model_loader_fuzz", [](const std::string& bytes) {
    ASSERT_FALSE(bytes.empty());
    const std::string_view rest = std::string_view(bytes).substr(1);
    if (static_cast<uint8_t>(bytes[0]) % 2 == 0) {
      assemble(rest);
    } else {
      EXPECT_FALSE(saved_model::decode_model_file(rest, "seed.tfcc").functions.empty());
    }
  });
}

// keras_file_fuzz's HDF5 stage (tfcc's own reader): every group walked, every dataset read, in
// bare .h5 seeds and in the model.weights.h5 of .keras seeds. The JSON stage is the Keras
// layer's (tests/unit/keras/saving).
void walk_hdf5(const io::hdf5::ReadGroup& group) {
  for (const std::string& name : group.children()) {
    if (group.has_group(name)) walk_hdf5(group.group(name));
    if (group.has_dataset(name)) (void)group.read(name);
  }
}

TEST(FuzzCorpusTest, KerasFileHdf5SeedsRead) {
  check_corpus("keras_file_fuzz", [](const std::string& bytes) {
    if (!bytes.empty() && bytes[0] == '{') return;  // config.json seeds
    if (bytes.starts_with("\x89HDF")) {
      walk_hdf5(io::hdf5::Reader::open_image(bytes, "seed.weights.h5").root());
      return;
    }
    for (const auto& [name, member] : io::zip::read(bytes, "seed.keras")) {
      if (name == "model.weights.h5") {
        walk_hdf5(io::hdf5::Reader::open_image(member, "seed.keras/model.weights.h5").root());
      }
    }
  });
}

// The image decoders' seeds (PNG and JPEG written by tfcc's encoders; GIF and BMP by
// tests/unit/io/image/testdata/make_image_fixture.py, tfcc has no GIF or BMP writer).
TEST(FuzzCorpusTest, ImageSeedsDecode) {
  check_corpus("image_png_fuzz", [](const std::string& bytes) {
    for (int channels : {0, 1, 3, 4}) {
      io::decode_png(bytes, channels, channels == 3 ? int32 : uint8, "seed");
    }
  });
  check_corpus("image_jpeg_fuzz", [](const std::string& bytes) {
    io::decode_jpeg(bytes, {}, "seed");
    io::decode_jpeg(bytes, {.channels = 1, .ratio = 2, .dct_method = "INTEGER_ACCURATE"}, "seed");
  });
  check_corpus("image_gif_fuzz", [](const std::string& bytes) { io::decode_gif(bytes, "seed"); });
  check_corpus("image_bmp_fuzz", [](const std::string& bytes) {
    io::decode_bmp(bytes, 0, "seed");
    io::decode_bmp(bytes, 4, "seed");
  });
}

}  // namespace
}  // namespace tfcc
