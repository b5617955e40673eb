// tfrecord_dataset: reads what TFRecordWriter wrote, golden framing bytes, corruption, restore.
#include "tfcc/data/tfrecord.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tfcc/io/record/record_writer.h"
#include "tfcc/platform/file.h"

namespace tfcc::data {
namespace {

std::vector<std::string> records(const Dataset& d) {
  std::vector<std::string> out;
  for (const Element& e : d) out.push_back(tensor_bytes(e[0]));
  return out;
}

class TFRecordTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string name = "tfcc_tfrecord_test_";
    name.append(std::to_string(::getpid()));
    dir_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const char* name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

TEST_F(TFRecordTest, ReadsRecordsOfEveryFileInOrder) {
  {
    io::TFRecordWriter a(path("a.tfrecord"));
    a.write("first");
    a.write(std::string("\0binary\xff", 8));
    io::TFRecordWriter b(path("b.tfrecord"));
    b.write("");
    b.write("last");
  }
  Dataset d = tfrecord_dataset({path("a.tfrecord"), path("b.tfrecord")});
  EXPECT_EQ(records(d),
            (std::vector<std::string>{"first", std::string("\0binary\xff", 8), "", "last"}));
  EXPECT_EQ(d.element_spec()[0].dtype, uint8);
  {
    io::TFRecordWriter g(path("c.tfrecord.gz"), "GZIP");
    g.write("zipped");
  }
  EXPECT_EQ(records(tfrecord_dataset({path("c.tfrecord.gz")}, "GZIP")),
            (std::vector<std::string>{"zipped"}));
  EXPECT_THROW(tfrecord_dataset({path("a.tfrecord")}, "LZ4"), InvalidArgumentError);
}

TEST_F(TFRecordTest, ReadsTheFramingSpecsGoldenBytes) {
  // A TensorBoard event file's first record (shared/research/formats.md 1.2): length 0x18,
  // masked CRCs a37f4b22 / ecedb8f9d as written by TensorFlow.
  const unsigned char golden[] = {0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xa3, 0x7f,
                                  0x4b, 0x22, 0x09, 0x00, 0x00, 0x00, 0x40, 0xfc, 0x54, 0xd9,
                                  0x41, 0x1a, 0x0d, 0x62, 0x72, 0x61, 0x69, 0x6e, 0x2e, 0x45,
                                  0x76, 0x65, 0x6e, 0x74, 0x3a, 0x32, 0xec, 0xed, 0x8f, 0x9d};
  std::string bytes(reinterpret_cast<const char*>(golden), sizeof(golden));
  write_file_atomic(path("golden.tfrecord"), bytes);
  auto recs = records(tfrecord_dataset({path("golden.tfrecord")}));
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0], bytes.substr(12, 24));
  EXPECT_NE(recs[0].find("brain.Event:2"), std::string::npos);
  // The writer used by the dataset's users produces the same bytes.
  {
    io::TFRecordWriter w(path("rewritten.tfrecord"));
    w.write(recs[0]);
  }
  EXPECT_EQ(read_file(path("rewritten.tfrecord")), bytes);
}

TEST_F(TFRecordTest, CorruptAndTruncatedRecordsAreDataLoss) {
  {
    io::TFRecordWriter w(path("x.tfrecord"));
    w.write("record zero");
    w.write("record one");
  }
  std::string bytes = read_file(path("x.tfrecord"));
  std::string corrupt = bytes;
  corrupt[bytes.size() - 8] ^= 0x01;  // inside the second payload
  write_file_atomic(path("corrupt.tfrecord"), corrupt);
  Iterator it = tfrecord_dataset({path("corrupt.tfrecord")}).make_iterator();
  EXPECT_EQ(tensor_bytes(it.get_next()[0]), "record zero");
  try {
    it.get_next();
    FAIL();
  } catch (const DataLossError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("corrupt.tfrecord"), std::string::npos) << m;
    EXPECT_NE(m.find("27"), std::string::npos) << m;  // the second record starts at offset 27
  }
  write_file_atomic(path("short.tfrecord"), bytes.substr(0, bytes.size() - 3));
  EXPECT_THROW(records(tfrecord_dataset({path("short.tfrecord")})), DataLossError);
  EXPECT_THROW(records(tfrecord_dataset({path("missing.tfrecord")})), NotFoundError);
}

TEST_F(TFRecordTest, RestoresThePosition) {
  {
    io::TFRecordWriter a(path("a.tfrecord"));
    for (int i = 0; i < 5; ++i) a.write(std::string(1, 'a').append(std::to_string(i)));
    io::TFRecordWriter b(path("b.tfrecord"));
    for (int i = 0; i < 3; ++i) b.write(std::string(1, 'b').append(std::to_string(i)));
  }
  Dataset d = tfrecord_dataset({path("a.tfrecord"), path("b.tfrecord")});
  for (int k : {0, 3, 5, 6, 8}) {
    Iterator it = d.make_iterator();
    for (int i = 0; i < k; ++i) it.get_next();
    Iterator again = d.make_iterator();
    again.restore(it.save());
    std::vector<std::string> rest, want;
    while (auto e = again.get_next_as_optional()) rest.push_back(tensor_bytes((*e)[0]));
    while (auto e = it.get_next_as_optional()) want.push_back(tensor_bytes((*e)[0]));
    EXPECT_EQ(rest, want) << k;
  }
}

}  // namespace
}  // namespace tfcc::data
