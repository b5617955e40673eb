// IDX parsing (plain and gzip) and tfcc::datasets::load.
#include "tfcc/data/idx.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>

#include "tfcc/data/datasets/load.h"
#include "tfcc/data/gzip.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/limits.h"

namespace tfcc::data {
namespace {

std::string idx_bytes(uint8_t type, const std::vector<uint32_t>& dims, const std::string& data) {
  std::string s{'\0', '\0', static_cast<char>(type), static_cast<char>(dims.size())};
  for (uint32_t d : dims) {
    for (int b = 3; b >= 0; --b) s.push_back(static_cast<char>((d >> (8 * b)) & 0xff));
  }
  return s + data;
}

std::string gzip(const std::string& in) {
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, in.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

TEST(IdxTest, ParsesEveryType) {
  Tensor u8 = parse_idx(idx_bytes(0x08, {2, 3}, "\x01\x02\x03\x04\x05\xff"), "mem");
  EXPECT_EQ(u8.dtype(), uint8);
  EXPECT_EQ(u8.shape(), (Shape{2, 3}));
  EXPECT_EQ(u8.to_vector<int>(), (std::vector<int>{1, 2, 3, 4, 5, 255}));
  Tensor i8 = parse_idx(idx_bytes(0x09, {2}, "\xff\x05"), "mem");
  EXPECT_EQ(i8.to_vector<int>(), (std::vector<int>{-1, 5}));
  Tensor i16 = parse_idx(idx_bytes(0x0B, {1}, std::string("\xfe\x00", 2)), "mem");
  EXPECT_EQ(i16.to_vector<int>(), (std::vector<int>{-512}));
  Tensor i32 = parse_idx(idx_bytes(0x0C, {1}, std::string("\x00\x01\x00\x02", 4)), "mem");
  EXPECT_EQ(i32.to_vector<int>(), (std::vector<int>{65538}));
  Tensor f32 = parse_idx(idx_bytes(0x0D, {1}, std::string("\x3f\xc0\x00\x00", 4)), "mem");
  EXPECT_EQ(f32.to_vector<float>(), (std::vector<float>{1.5f}));
  Tensor f64 =
      parse_idx(idx_bytes(0x0E, {1}, std::string("\xc0\x04\x00\x00\x00\x00\x00\x00", 8)), "mem");
  EXPECT_EQ(f64.to_vector<double>(), (std::vector<double>{-2.5}));
}

TEST(IdxTest, MalformedDataRaisesDataLossWithOffset) {
  auto msg = [](const std::string& bytes) {
    try {
      parse_idx(bytes, "f.idx");
    } catch (const DataLossError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(msg("\x00\x00"),
            "Invalid IDX file f.idx at offset 0: shorter than the 4-byte magic number");
  EXPECT_NE(msg(idx_bytes(0x07, {1}, "x")).find("at offset 2: unknown data type 0x7"),
            std::string::npos);
  EXPECT_NE(msg(idx_bytes(0x08, {2, 3}, "abc"))
                .find("at offset 15: truncated: the header announces 6 data bytes, the file has 3"),
            std::string::npos);
  EXPECT_NE(msg(idx_bytes(0x08, {2}, "abc")).find("at offset 10: 1 unexpected bytes"),
            std::string::npos);
  EXPECT_NE(msg(std::string("\x00\x00\x08\x03\x00\x00", 6)).find("truncated header"),
            std::string::npos);
  EXPECT_NE(msg(idx_bytes(0x08, {0xffffffff, 0xffffffff, 0xffffffff}, "")).find("overflows"),
            std::string::npos);
}

TEST(IdxTest, ReadsGzipFilesAndRejectsTruncatedOnes) {
  auto dir = std::filesystem::temp_directory_path() / "tfcc_idx_test";
  std::filesystem::create_directories(dir);
  std::string path = (dir / "x-idx1-ubyte.gz").string();
  std::string raw = idx_bytes(0x08, {4}, std::string("\x09\x00\x00\x03", 4));
  write_file_atomic(path, gzip(raw));
  EXPECT_EQ(read_idx(path).to_vector<int>(), (std::vector<int>{9, 0, 0, 3}));
  std::string gz = gzip(raw);
  write_file_atomic(path, gz.substr(0, gz.size() - 6));
  EXPECT_THROW(read_idx(path), DataLossError);
  EXPECT_THROW(gunzip(gz, "mem", 10), ResourceExhaustedError);
  std::string corrupt = gz;
  corrupt[12] ^= 0x7f;
  EXPECT_THROW(gunzip(corrupt, "mem"), Error);
  std::filesystem::remove_all(dir);
}

// A gzip IDX whose header declares 4 GiB is refused from the header, before anything of that
// size is allocated; one that really expands 1000:1 is refused by the decompression limit.
TEST(IdxTest, DecompressionBombsAreResourceExhaustedBeforeAllocating) {
  auto dir = std::filesystem::temp_directory_path() / "tfcc_idx_bomb_test";
  std::filesystem::create_directories(dir);
  std::string path = (dir / "bomb-idx2-ubyte.gz").string();
  write_file_atomic(path, gzip(idx_bytes(0x08, {65536, 65536}, std::string(1 << 16, '\0'))));
  try {
    read_idx(path);
    FAIL() << "no error";
  } catch (const ResourceExhaustedError& e) {
    EXPECT_NE(std::string(e.what()).find("4294967308 bytes"), std::string::npos) << e.what();
  }
  DecompressionLimits saved = decompression_limits();
  set_decompression_limits({.max_ratio = 10, .min_bytes = 1 << 10, .max_bytes = 1 << 30});
  std::string zeros = gzip(idx_bytes(0x08, {1 << 20}, std::string(1 << 20, '\0')));
  write_file_atomic(path, zeros);
  EXPECT_THROW(read_idx(path), ResourceExhaustedError);
  EXPECT_THROW(read_file_maybe_gzip(path), ResourceExhaustedError);
  set_decompression_limits({.max_ratio = 2000, .min_bytes = 1 << 10, .max_bytes = 1 << 30});
  EXPECT_EQ(read_idx(path).num_elements(), 1 << 20);
  set_decompression_limits(saved);
  std::filesystem::remove_all(dir);
}

// Writes a tiny MNIST-style dataset (n train, m test examples) into dir.
void write_tiny_mnist(const std::filesystem::path& dir, uint32_t n, uint32_t m) {
  std::filesystem::create_directories(dir);
  auto images = [](uint32_t k) {
    return idx_bytes(0x08, {k, 28, 28}, std::string(k * 784, '\x07'));
  };
  auto labels = [](uint32_t k) {
    std::string l;
    for (uint32_t i = 0; i < k; ++i) l.push_back(static_cast<char>(i % 10));
    return idx_bytes(0x08, {k}, l);
  };
  write_file_atomic((dir / "train-images-idx3-ubyte.gz").string(), gzip(images(n)));
  write_file_atomic((dir / "train-labels-idx1-ubyte").string(), labels(n));
  write_file_atomic((dir / "t10k-images-idx3-ubyte").string(), images(m));
  write_file_atomic((dir / "t10k-labels-idx1-ubyte.gz").string(), gzip(labels(m)));
}

TEST(LoadTest, ReadsFromTfccDatasetsDir) {
  auto root = std::filesystem::temp_directory_path() / "tfcc_load_test";
  std::filesystem::remove_all(root);
  write_tiny_mnist(root / "mnist", 12, 5);
  setenv("TFCC_DATASETS_DIR", root.c_str(), 1);
  auto [splits, info] = datasets::load_with_info("mnist");
  auto [train, test] = splits;
  EXPECT_EQ(train.cardinality(), 12);
  EXPECT_EQ(splits["test"].cardinality(), 5);
  EXPECT_EQ(info.splits.at("train"), 12);
  EXPECT_EQ(info.num_classes, 10);
  EXPECT_EQ(info.data_dir, (root / "mnist").string());
  ElementSpec spec = train.element_spec();
  EXPECT_EQ(spec_string(spec),
            "(TensorSpec(shape=(28, 28), dtype=uint8), TensorSpec(shape=(), dtype=int64))");
  Element e = test.skip(3).take_one();
  EXPECT_EQ(e[1].item<int64_t>(), 3);
  EXPECT_EQ(e[0].to_vector<int>()[100], 7);
  EXPECT_THROW(splits["validation"], NotFoundError);
  unsetenv("TFCC_DATASETS_DIR");
  std::filesystem::remove_all(root);
}

TEST(LoadTest, MissingDatasetNamesThePlacesAndThePackage) {
  setenv("TFCC_DATASETS_DIR", "/nonexistent/tfcc", 1);
  try {
    datasets::load("fashion_mnist", {.data_dir = "/nonexistent/first"});
    // Debian's package may be installed: then the last place was found.
    EXPECT_TRUE(file_exists("/usr/share/datasets/fashion-mnist"));
  } catch (const NotFoundError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("/nonexistent/first"), std::string::npos) << m;
    EXPECT_NE(m.find("/nonexistent/tfcc/fashion_mnist"), std::string::npos) << m;
    EXPECT_NE(m.find("/usr/share/datasets/fashion-mnist"), std::string::npos) << m;
    EXPECT_NE(m.find("apt-get install dataset-fashion-mnist"), std::string::npos) << m;
  }
  try {
    datasets::load("mnist");
    FAIL();
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("No Debian package ships the MNIST digits"),
              std::string::npos);
  }
  EXPECT_THROW(datasets::load("imagenet"), NotFoundError);
  unsetenv("TFCC_DATASETS_DIR");
}

TEST(LoadTest, BadLabelsAreDataLoss) {
  auto root = std::filesystem::temp_directory_path() / "tfcc_load_bad";
  write_tiny_mnist(root, 3, 2);
  write_file_atomic((root / "train-labels-idx1-ubyte").string(),
                    idx_bytes(0x08, {3}, "\x01\x0c\x02"));
  EXPECT_THROW(datasets::load("mnist", {.data_dir = root.string()}), DataLossError);
  std::filesystem::remove_all(root);
}

TEST(LoadTest, FashionMnistFromDebian) {
  if (!file_exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz")) {
    GTEST_SKIP() << "dataset-fashion-mnist is not installed";
  }
  unsetenv("TFCC_DATASETS_DIR");
  auto [splits, info] = datasets::load_with_info("fashion_mnist");
  EXPECT_EQ(info.splits.at("train"), 60000);
  EXPECT_EQ(info.splits.at("test"), 10000);
  EXPECT_EQ(info.class_names[9], "Ankle boot");
  std::vector<int64_t> first;
  for (const Element& e : splits.train.take(10)) first.push_back(e[1].item<int64_t>());
  EXPECT_EQ(first, (std::vector<int64_t>{9, 0, 0, 3, 0, 2, 7, 2, 5, 5}));
  std::vector<int64_t> test_first;
  for (const Element& e : splits.test.take(8)) test_first.push_back(e[1].item<int64_t>());
  EXPECT_EQ(test_first, (std::vector<int64_t>{9, 2, 1, 1, 6, 1, 4, 6}));
  EXPECT_NE(info.to_string().find("'train': 60000"), std::string::npos);
}

}  // namespace
}  // namespace tfcc::data
