// Tensor bundle: golden bytes derived from the format (LevelDB table + TensorFlow's protos),
// round trips for every dtype, and the errors a damaged bundle must raise.
#include "tfcc/io/checkpoint/bundle.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tfcc/io/checkpoint/coding.h"
#include "tfcc/io/checkpoint/table.h"
#include "tfcc/platform/crc32c.h"
#include "tfcc/platform/file.h"

namespace tfcc::checkpoint {
namespace {

std::string temp_prefix(const std::string& name) {
  std::string dir = internal::str_cat(testing::TempDir(), "tfcc_bundle_test_", ::getpid());
  make_dirs(dir);
  return internal::str_cat(dir, "/", name);
}

// header {num_shards: 1, version {producer: 1}} and "x" -> float32 [1, 2], computed with an
// independent Python implementation of the table format and CRC32C.
const unsigned char kGoldenIndex[] = {
    // data block: entry "" (shared 0, non-shared 0, value 6 bytes) = header
    0x00, 0x00, 0x06, 0x08, 0x01, 0x1a, 0x02, 0x08, 0x01,
    // entry "x" (value 15 bytes): dtype 1, shape {dim {size 2}}, size 8, crc32c (masked)
    0x00, 0x01, 0x0f, 0x78, 0x08, 0x01, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02, 0x28, 0x08, 0x35, 0x59,
    0x3c, 0xe5, 0x35,
    // restart array [0], 1 restart; trailer: no compression + masked CRC32C
    0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x91, 0x36, 0x42, 0x33,
    // metaindex block (empty) + trailer
    0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0xc0, 0xf2, 0xa1, 0xb0,
    // index block: "y" (successor of "x") -> handle {0, 36}; restarts; trailer
    0x00, 0x01, 0x02, 0x79, 0x00, 0x24, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x08,
    0x12, 0x10, 0x17,
    // footer: metaindex {41, 8}, index {54, 14}, 36 zero bytes of padding to 40, magic
    0x29, 0x08, 0x36, 0x0e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb};

TEST(BundleTest, GoldenBytes) {
  std::string prefix = temp_prefix("golden");
  BundleWriter w(prefix);
  w.add("x", Tensor::from_vector<float>({1.0f, 2.0f}));
  w.finish();
  std::string index = read_file(index_filename(prefix));
  EXPECT_EQ(index, std::string(reinterpret_cast<const char*>(kGoldenIndex), sizeof kGoldenIndex));
  std::string data = read_file(data_filename(prefix, 0, 1));
  EXPECT_EQ(data, std::string("\x00\x00\x80\x3f\x00\x00\x00\x40", 8));
}

TEST(BundleTest, CompressedBlocksAreRefusedClearly) {
  std::string index(reinterpret_cast<const char*>(kGoldenIndex), sizeof kGoldenIndex);
  EXPECT_EQ(read_table(index, "golden").size(), 2u);
  // The data block (36 bytes) marked Snappy-compressed, with a checksum that matches.
  auto with_type = [&](char type) {
    std::string t = index;
    t[36] = type;
    std::string crc;
    put_fixed32(crc, crc32c::mask(crc32c::value(t.data(), 37)));
    t.replace(37, 4, crc);
    return t;
  };
  EXPECT_THROW(read_table(with_type(1), "snappy"), UnimplementedError);
  EXPECT_THROW(read_table(with_type(7), "unknown"), DataLossError);
}

TEST(BundleTest, FileNames) {
  EXPECT_EQ(index_filename("a/ckpt-3"), "a/ckpt-3.index");
  EXPECT_EQ(data_filename("a/ckpt-3", 0, 1), "a/ckpt-3.data-00000-of-00001");
  EXPECT_EQ(data_filename("p", 12, 345), "p.data-00012-of-00345");
}

TEST(BundleTest, RoundTripEveryDType) {
  std::string prefix = temp_prefix("dtypes");
  std::vector<Tensor> tensors = {
      Tensor::from_vector<float>({1.5f, -2.0f, 3.25f, 0.0f, 7.0f, -1e30f}, Shape{2, 3}),
      Tensor::from_vector<double>({3.141592653589793, -0.5}),
      Tensor::from_vector<int32_t>({-7, 0, 2147483647}),
      Tensor::from_vector<int64_t>({-9000000000LL, 42}),
      Tensor::from_vector<uint8_t>({0, 1, 255}, Shape{3, 1}),
      Tensor::from_vector<bool>({true, false, true, true}, Shape{2, 2}),
      Tensor::from_vector<BFloat16>({BFloat16(1.0f), BFloat16(-3.5f)}),
      Tensor::scalar<float>(9.0f),
      Tensor::from_vector<float>({}, Shape{0, 4}),
  };
  BundleWriter w(prefix);
  for (size_t i = 0; i < tensors.size(); ++i) w.add(internal::str_cat("t", i), tensors[i]);
  w.add_strings("s", Shape{3}, {"", "hello", std::string("a\0b", 3)});
  w.finish();

  BundleReader r(prefix);
  EXPECT_EQ(r.keys().size(), tensors.size() + 1);
  for (size_t i = 0; i < tensors.size(); ++i) {
    Tensor back = r.read_tensor(internal::str_cat("t", i));
    EXPECT_EQ(back.dtype(), tensors[i].dtype()) << i;
    EXPECT_EQ(back.shape(), tensors[i].shape()) << i;
    ASSERT_EQ(back.nbytes(), tensors[i].nbytes());
    if (back.nbytes()) {
      EXPECT_EQ(0, std::memcmp(back.raw_data(), tensors[i].raw_data(), back.nbytes())) << i;
    }
  }
  EXPECT_EQ(r.read_strings("s"), (std::vector<std::string>{"", "hello", std::string("a\0b", 3)}));
  EXPECT_EQ(r.entry("s").dtype, kDtString);
}

TEST(BundleTest, ManyKeysSpanSeveralBlocks) {
  std::string prefix = temp_prefix("many");
  BundleWriter w(prefix);
  for (int i = 0; i < 3000; ++i) {
    w.add(internal::str_cat("layer_", i / 10, "/var_", i % 10, "/.ATTRIBUTES/VARIABLE_VALUE"),
          Tensor::scalar<int32_t>(i));
  }
  w.finish();
  BundleReader r(prefix);
  ASSERT_EQ(r.keys().size(), 3000u);
  EXPECT_EQ(r.read_tensor("layer_123/var_4/.ATTRIBUTES/VARIABLE_VALUE").item<int32_t>(), 1234);
}

TEST(BundleTest, TableSplitsBlocksAndReadsThemBack) {
  TableBuilder b(TableOptions{.block_size = 64, .block_restart_interval = 3});
  std::vector<std::pair<std::string, std::string>> want;
  for (int i = 0; i < 200; ++i) {
    want.emplace_back(internal::str_cat("key", 1000 + i),
                      std::string(static_cast<size_t>(i % 7), 'v'));
    b.add(want.back().first, want.back().second);
  }
  std::string file = b.finish();
  EXPECT_EQ(read_table(file, "mem"), want);
}

TEST(BundleTest, WriterRejectsBadKeys) {
  BundleWriter w(temp_prefix("badkeys"));
  EXPECT_THROW(w.add("", Tensor::scalar<float>(1)), InvalidArgumentError);
  w.add("a", Tensor::scalar<float>(1));
  EXPECT_THROW(w.add("a", Tensor::scalar<float>(2)), InvalidArgumentError);
  TableBuilder t;
  t.add("b", "");
  EXPECT_THROW(t.add("a", ""), InvalidArgumentError);
}

TEST(BundleTest, MissingAndDamagedFiles) {
  EXPECT_THROW(BundleReader(temp_prefix("nothing_here")), NotFoundError);
  std::string prefix = temp_prefix("damaged");
  BundleWriter w(prefix);
  w.add("x", Tensor::from_vector<float>({1, 2, 3}));
  w.finish();
  std::string data = read_file(data_filename(prefix, 0, 1));
  write_file_atomic(data_filename(prefix, 0, 1), data.substr(0, 8));
  EXPECT_THROW(BundleReader{prefix}, DataLossError);
  data[5] ^= 1;
  write_file_atomic(data_filename(prefix, 0, 1), data);
  BundleReader r(prefix);
  try {
    r.read_tensor("x");
    FAIL() << "corrupt tensor accepted";
  } catch (const DataLossError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'x'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
  }
  EXPECT_THROW(r.read_tensor("y"), NotFoundError);
  EXPECT_THROW(r.read_strings("x"), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::checkpoint
