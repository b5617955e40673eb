#include "tfcc/io/record/record_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>

#include "tfcc/io/record/record_reader.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::io {
namespace {

class RecordWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("tfcc_record_writer_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;
};

std::string bytes(std::initializer_list<int> values) {
  std::string s;
  for (int v : values) s.push_back(static_cast<char>(v));
  return s;
}

// formats.md §1.10: the first record of a TensorBoard event file, checked against protoc and an
// independent CRC32C implementation.
TEST_F(RecordWriterTest, GoldenBytesOfTheFirstEventRecord) {
  std::string payload = bytes({0x09, 0x00, 0x00, 0x00, 0x40, 0xfc, 0x54, 0xd9, 0x41, 0x1a, 0x0d});
  payload += "brain.Event:2";
  {
    TFRecordWriter writer(path("golden.tfrecord"));
    writer.write(payload);
    EXPECT_EQ(writer.num_records(), 1u);
  }
  std::string expected = bytes({0x18, 0, 0, 0, 0, 0, 0, 0, 0xa3, 0x7f, 0x4b, 0x22});
  expected += payload;
  expected += bytes({0xec, 0xed, 0x8f, 0x9d});
  EXPECT_EQ(read_file(path("golden.tfrecord")), expected);
}

TEST_F(RecordWriterTest, EmptyRecordIsFramedToo) {
  {
    TFRecordWriter writer(path("empty.tfrecord"));
    writer.write("");
  }
  std::string file = read_file(path("empty.tfrecord"));
  ASSERT_EQ(file.size(), 16u);
  EXPECT_EQ(file.substr(0, 8), std::string(8, '\0'));
  // The masked CRC32C of no bytes is mask(0) = 0xa282ead8.
  EXPECT_EQ(file.substr(12), bytes({0xd8, 0xea, 0x82, 0xa2}));
}

TEST_F(RecordWriterTest, FlushMakesRecordsVisibleBeforeClose) {
  TFRecordWriter writer(path("live.tfrecord"));
  writer.write("one");
  writer.write("two");
  writer.flush();
  EXPECT_EQ(read_tf_records(path("live.tfrecord")), (std::vector<std::string>{"one", "two"}));
  writer.write("three");
  writer.sync();
  EXPECT_EQ(read_tf_records(path("live.tfrecord")).size(), 3u);
  writer.close();
  writer.close();  // idempotent
  EXPECT_THROW(writer.write("four"), FailedPreconditionError);
  EXPECT_THROW(writer.flush(), FailedPreconditionError);
}

TEST_F(RecordWriterTest, GzipFileIsAStandardGzipStream) {
  std::vector<std::string> records = {"alpha", std::string(100000, 'x'), std::string("a\0b", 3)};
  {
    TFRecordWriter writer(path("data.tfrecord.gz"), "GZIP");
    for (const auto& r : records) writer.write(r);
  }
  // zlib's own gzip reader (an independent path) sees exactly the uncompressed framing.
  std::string expected;
  {
    TFRecordWriter plain(path("data.tfrecord"));
    for (const auto& r : records) plain.write(r);
  }
  expected = read_file(path("data.tfrecord"));
  gzFile gz = gzopen(path("data.tfrecord.gz").c_str(), "rb");
  ASSERT_NE(gz, nullptr);
  std::string inflated(expected.size() + 10, '\0');
  int n = gzread(gz, inflated.data(), static_cast<unsigned>(inflated.size()));
  gzclose(gz);
  ASSERT_EQ(n, static_cast<int>(expected.size()));
  inflated.resize(static_cast<size_t>(n));
  EXPECT_EQ(inflated, expected);
  EXPECT_LT(read_file(path("data.tfrecord.gz")).size(), expected.size() / 10);
}

TEST_F(RecordWriterTest, ZlibFileIsAStandardZlibStream) {
  {
    TFRecordWriter writer(path("data.zlib"),
                          TFRecordOptions{.compression_type = "ZLIB", .compression_level = 9});
    writer.write("hello");
    writer.flush();  // a sync flush point in the middle of the stream is legal
    writer.write("world");
  }
  {
    TFRecordWriter plain(path("plain"));
    plain.write("hello");
    plain.write("world");
  }
  std::string compressed = read_file(path("data.zlib"));
  std::string expected = read_file(path("plain"));
  std::string out(expected.size(), '\0');
  uLongf out_size = static_cast<uLongf>(out.size());
  ASSERT_EQ(uncompress(reinterpret_cast<Bytef*>(out.data()), &out_size,
                       reinterpret_cast<const Bytef*>(compressed.data()), compressed.size()),
            Z_OK);
  EXPECT_EQ(out, expected);
}

TEST_F(RecordWriterTest, BadArgumentsAreTypedErrors) {
  EXPECT_THROW(TFRecordWriter(path("x"), "LZ4"), InvalidArgumentError);
  EXPECT_THROW(TFRecordWriter(path("x"),
                              TFRecordOptions{.compression_type = "GZIP", .compression_level = 12}),
               InvalidArgumentError);
  EXPECT_THROW(TFRecordWriter(path("no/such/dir/x")), NotFoundError);
  EXPECT_THROW(TFRecordWriter(""), InvalidArgumentError);
}

TEST_F(RecordWriterTest, MoveKeepsOneOpenFile) {
  TFRecordWriter a(path("moved"));
  a.write("1");
  TFRecordWriter b(std::move(a));
  b.write("2");
  TFRecordWriter c(path("other"));
  c = std::move(b);  // closes "other", takes over "moved"
  c.write("3");
  c.close();
  EXPECT_EQ(read_tf_records(path("moved")), (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_TRUE(read_tf_records(path("other")).empty());
}

}  // namespace
}  // namespace tfcc::io
