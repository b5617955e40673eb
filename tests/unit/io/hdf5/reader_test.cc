// tfcc's own HDF5 reader (io/hdf5/reader.h): every group and dataset it reads equals libhdf5's
// reading of the same file, for files written by tfcc (through libhdf5) and by TensorFlow 2.21's
// Keras (h5py; the seeds in fuzz/corpus/keras_file_fuzz/), and every damaged version of those
// files (each truncation, each byte flipped) ends in a DataLossError or UnimplementedError.
#include "tfcc/io/hdf5/reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tests/unit/io/hdf5/hdf5_compare.h"
#include "tfcc/io/hdf5/hdf5.h"
#include "tfcc/io/hdf5/image.h"
#include "tfcc/io/hdf5/object_header.h"
#include "tfcc/io/hdf5/superblock.h"
#include "tfcc/io/hdf5/symbol_table.h"
#include "tfcc/io/npy/zip.h"
#include "tfcc/tfcc.h"

namespace tfcc::io::hdf5 {
namespace {

namespace fs = std::filesystem;

// fuzz/corpus/keras_file_fuzz of this checkout (__FILE__ may be relative to the build folder).
fs::path corpus_dir() {
  fs::path file(__FILE__);
  if (!file.is_absolute()) file = fs::read_symlink("/proc/self/exe").parent_path() / file;
  return fs::weakly_canonical(file).parent_path() / "../../../../fuzz/corpus/keras_file_fuzz";
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// The HDF5 files written by TensorFlow's Keras among the seeds (bare .weights.h5 files and the
// model.weights.h5 member of each .keras archive), and h5py_dtypes.h5, written by h5py 3.14
// (float16, int8, int16, uint8, float64 scalar, a compact float32 dataset).
std::vector<std::pair<std::string, std::string>> tensorflow_files() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : fs::directory_iterator(corpus_dir())) {
    const std::string name = e.path().filename().string();
    // tfcc_* seeds are tfcc's, regress_* damaged.
    if (!name.starts_with("keras_") && !name.starts_with("h5py_")) continue;
    if (name.ends_with(".h5")) out.emplace_back(name, slurp(e.path()));
    if (name.ends_with(".keras")) {
      for (auto& [member, bytes] : zip::read(slurp(e.path()), name)) {
        if (member == "model.weights.h5") out.emplace_back(name + "/" + member, bytes);
      }
    }
  }
  return out;
}

// A file written by tfcc through libhdf5: every dtype the writer has, a scalar, an empty
// dataset, nested groups, and with `many` a group of 300 members (a B-tree of two levels).
std::string tfcc_file(bool many = false) {
  File f = File::create("tfcc.h5");
  Group vars = f.root().create_group("layers").create_group("dense").create_group("vars");
  vars.set_string_attribute("name", "dense_3");
  vars.write("0", Tensor::from_vector<float>({1, -2, 3.5f, 4, 5, 6}, Shape{2, 3}));
  vars.write("1", Tensor::scalar<int64_t>(-7));
  vars.write("2", Tensor::from_vector<int32_t>({}, Shape{0, 4}));
  vars.write("3", Tensor::from_vector<double>({1e300, -0.25}, Shape{2}));
  vars.write("4", Tensor::from_vector<int32_t>({-5, 7, 1 << 30}, Shape{3, 1}));
  vars.write("5", Tensor::from_vector<uint8_t>({0, 255, 9}, Shape{3}));
  if (many) {
    Group g = f.root().create_group("many");
    for (int i = 0; i < 300; ++i)
      g.write(tfcc::internal::str_cat("w", i), Tensor::scalar(float(i)));
  }
  return f.image();
}

int expect_same(const Group& lib, const ReadGroup& own) { return test::expect_same_hdf5(lib, own); }

// Reads everything the way load_weights can: every group walked, every dataset read.
void walk(const ReadGroup& group) {
  for (const std::string& name : group.children()) {
    if (group.has_group(name)) walk(group.group(name));
    if (group.has_dataset(name)) (void)group.read(name);
  }
}

TEST(Hdf5ReaderTest, ReadsTfccFilesAsLibhdf5Does) {
  const std::string image = tfcc_file(true);
  const int n = expect_same(File::open_image(image, "tfcc.h5").root(),
                            Reader::open_image(image, "tfcc.h5").root());
  EXPECT_EQ(n, 306);
  const Reader r = Reader::open_image(image, "tfcc.h5");
  EXPECT_EQ(r.root().group("layers/dense/vars").read("3").to_vector<double>(),
            (std::vector<double>{1e300, -0.25}));
  EXPECT_EQ(r.root().group("many").read("w299").item<float>(), 299.0f);
}

TEST(Hdf5ReaderTest, ReadsTensorFlowKerasFilesAsLibhdf5Does) {
  const auto files = tensorflow_files();
  ASSERT_GE(files.size(), 3u) << corpus_dir();
  for (const auto& [name, bytes] : files) {
    SCOPED_TRACE(name);
    const int n =
        expect_same(File::open_image(bytes, name).root(), Reader::open_image(bytes, name).root());
    EXPECT_GT(n, 0);
  }
}

TEST(Hdf5ReaderTest, WidensAsLibhdf5Does) {
  const Reader r = Reader::open((corpus_dir() / "h5py_dtypes.h5").string());
  const ReadGroup vars = r.root().group("vars");
  const std::vector<float> f16 = vars.read("f16").to_vector<float>();
  ASSERT_EQ(f16.size(), 7u);
  EXPECT_EQ(f16[0], 1.5f);
  EXPECT_EQ(f16[1], -2.25f);
  EXPECT_EQ(f16[2], 65504.0f);
  EXPECT_EQ(f16[3], std::ldexp(1.0f, -24));  // the smallest subnormal
  EXPECT_TRUE(std::signbit(f16[5]));
  EXPECT_TRUE(std::isinf(f16[6]));
  EXPECT_EQ(vars.read("i8").to_vector<int32_t>(), (std::vector<int32_t>{-128, 127, 3}));
  EXPECT_EQ(vars.read("i16").to_vector<int32_t>(), (std::vector<int32_t>{-32768, 32767, 5, -6}));
  EXPECT_EQ(vars.read("u8").dtype(), uint8);
  EXPECT_EQ(vars.read("f64").item<double>(), 3.25);
  EXPECT_EQ(vars.read("compact").to_vector<float>(), (std::vector<float>{0, 1, 2, 3, 4, 5}));
}

TEST(Hdf5ReaderTest, PathsAndMissingObjects) {
  const Reader r = Reader::open_image(tfcc_file(), "w.weights.h5");
  EXPECT_TRUE(r.root().has_group("layers/dense/vars"));
  EXPECT_TRUE(r.root().has_dataset("layers/dense/vars/0"));
  EXPECT_FALSE(r.root().has_group("layers/dense/vars/0"));
  EXPECT_FALSE(r.root().has_group("layers//dense"));
  EXPECT_FALSE(r.root().has_group("layers/conv2d"));
  EXPECT_FALSE(r.root().has_dataset(""));
  EXPECT_EQ(r.root().group("layers").group("dense").path(), "/layers/dense");
  try {
    r.root().group("layers/lstm/vars");
    FAIL() << "expected DataLossError";
  } catch (const DataLossError& e) {
    EXPECT_NE(std::string(e.what()).find("w.weights.h5: no group /layers/lstm/vars"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(r.root().group("layers/dense/vars").read("9"), DataLossError);
  EXPECT_THROW(r.root().group("layers/dense/vars/0"), DataLossError);
}

TEST(Hdf5ReaderTest, NotHdf5IsDataLossError) {
  EXPECT_THROW(Reader::open_image("", "empty.h5"), DataLossError);
  EXPECT_THROW(Reader::open_image("PK\x03\x04 not hdf5", "zip.h5"), DataLossError);
}

// A group whose member is the root itself: refused, not walked forever.
TEST(Hdf5ReaderTest, GroupCycleIsDataLossError) {
  std::string image = tfcc_file();
  detail::Image parsed(image, "x");
  const uint64_t root = detail::read_superblock(parsed);
  const auto messages = detail::read_object_header(parsed, root, "/");
  const auto members = detail::read_symbol_table(
      parsed, *detail::find_message(messages, detail::kSymbolTableMessage), "/");
  ASSERT_EQ(members.front().name, "layers");
  char from[8], to[8];
  std::memcpy(from, &members.front().address, 8);
  std::memcpy(to, &root, 8);
  const size_t at = image.find(std::string_view(from, 8));
  ASSERT_NE(at, std::string::npos);
  image.replace(at, 8, std::string_view(to, 8));
  const Reader r = Reader::open_image(image, "cycle.h5");
  try {
    walk(r.root());
    FAIL() << "expected DataLossError";
  } catch (const DataLossError& e) {
    EXPECT_NE(std::string(e.what()).find("cycle.h5: /layers: the group contains itself"),
              std::string::npos)
        << e.what();
  }
}

// Each file cut at every length and with every byte inverted: each read ends normally or in a
// DataLossError / UnimplementedError naming the file (any other outcome fails the test, and a
// crash or out-of-bounds read ends it; the ASan parser run, scripts/run-asan-parsers.sh, checks
// the latter).
// Every `stride`-th cut and byte (1: all of them).
void expect_damage_handled(const std::string& image, const std::string& name, size_t stride = 1) {
  int errors = 0;
  auto attempt = [&](const std::string& bytes) {
    try {
      walk(Reader::open_image(bytes, name).root());
    } catch (const DataLossError& e) {
      ++errors;
      ASSERT_EQ(std::string(e.what()).rfind(name + ": ", 0), 0u) << e.what();
    } catch (const UnimplementedError& e) {
      ++errors;
      ASSERT_EQ(std::string(e.what()).rfind(name + ": ", 0), 0u) << e.what();
    }
  };
  int cuts = 0;
  for (size_t n = 0; n < image.size(); n += stride, ++cuts) attempt(image.substr(0, n));
  EXPECT_EQ(errors, cuts) << name << ": a truncated file read whole";
  for (size_t i = 0; i < image.size(); i += stride) {
    std::string bad = image;
    bad[i] = static_cast<char>(~bad[i]);
    attempt(bad);
  }
  EXPECT_GT(errors, cuts) << name;
}

TEST(Hdf5ReaderTest, DamagedTfccFilesEndInTypedErrors) {
  expect_damage_handled(tfcc_file(), "tfcc.h5");
}

TEST(Hdf5ReaderTest, DamagedTensorFlowFilesEndInTypedErrors) {
  // Every byte of one bare file and of one archive's member, every 7th of the others.
  for (const auto& [name, bytes] : tensorflow_files()) {
    const bool whole =
        name == "keras_dense.weights.h5" || name == "keras_embedding_lstm.keras/model.weights.h5";
    expect_damage_handled(bytes, name, whole ? 1 : 7);
  }
}

}  // namespace
}  // namespace tfcc::io::hdf5
