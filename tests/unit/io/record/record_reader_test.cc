#include "tfcc/io/record/record_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tfcc/io/record/record_writer.h"
#include "tfcc/platform/crc32c.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::io {
namespace {

class RecordReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("tfcc_record_reader_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Writes `records` and returns the file's bytes.
  std::string write(const std::string& name, const std::vector<std::string>& records,
                    const std::string& compression = "") {
    TFRecordWriter writer(path(name), compression);
    for (const auto& r : records) writer.write(r);
    writer.close();
    return read_file(path(name));
  }
  void overwrite(const std::string& name, const std::string& contents) {
    std::ofstream(path(name), std::ios::binary | std::ios::trunc) << contents;
  }

  std::filesystem::path dir_;
};

std::vector<std::string> sample_records() {
  std::string big(3 << 20, '\0');  // larger than the reader's 1 MiB chunk
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 131 % 251);
  return {"", "first", std::string("nul\0inside", 10), big, "last"};
}

TEST_F(RecordReaderTest, RoundTripsEveryCompression) {
  for (const std::string compression : {"", "ZLIB", "GZIP"}) {
    SCOPED_TRACE(compression);
    write("rt", sample_records(), compression);
    TFRecordReader reader(path("rt"), {.compression_type = compression});
    std::string record;
    std::vector<std::string> got;
    std::vector<uint64_t> offsets;
    while (reader.read_next(record)) {
      got.push_back(record);
      offsets.push_back(reader.offset());
    }
    EXPECT_EQ(got, sample_records());
    EXPECT_EQ(offsets.front(), 16u);  // the empty record: 12 + 0 + 4
    EXPECT_EQ(offsets[1], 16u + 12 + 5 + 4);
    EXPECT_FALSE(reader.read_next(record));  // stays at the end
    EXPECT_FALSE(reader.truncated_tail());
  }
}

TEST_F(RecordReaderTest, EmptyFileHasNoRecords) {
  overwrite("empty", "");
  EXPECT_TRUE(read_tf_records(path("empty")).empty());
}

TEST_F(RecordReaderTest, CorruptLengthNamesFileAndOffset) {
  std::string bytes = write("f", {"abc", "defg"});
  bytes[19 + 2] ^= 0x01;  // second record's length (first record is 12 + 3 + 4 = 19 bytes)
  overwrite("f", bytes);
  TFRecordReader reader(path("f"));
  std::string record;
  ASSERT_TRUE(reader.read_next(record));
  EXPECT_EQ(record, "abc");
  try {
    reader.read_next(record);
    FAIL() << "expected DataLossError";
  } catch (const DataLossError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find(path("f")), std::string::npos) << msg;
    EXPECT_NE(msg.find("corrupted record at offset 19"), std::string::npos) << msg;
    EXPECT_NE(msg.find("length checksum"), std::string::npos) << msg;
  }
  EXPECT_THROW(reader.read_next(record), DataLossError);  // no resynchronising on garbage
}

TEST_F(RecordReaderTest, CorruptPayloadOrChecksumIsDataLoss) {
  std::string good = write("f", {"abc", "defg"});
  for (size_t pos : {size_t{19 + 12}, size_t{19 + 12 + 3}, good.size() - 1}) {
    std::string bytes = good;
    bytes[pos] ^= 0x40;
    overwrite("f", bytes);
    TFRecordReader reader(path("f"));
    std::string record;
    ASSERT_TRUE(reader.read_next(record));
    try {
      reader.read_next(record);
      FAIL() << "flipping byte " << pos << " went unnoticed";
    } catch (const DataLossError& e) {
      EXPECT_NE(std::string(e.what()).find("corrupted record at offset 19"), std::string::npos)
          << e.what();
    }
  }
}

TEST_F(RecordReaderTest, TruncationAnywhereInsideARecordIsDataLoss) {
  std::string good = write("f", {"abc", "defgh"});
  for (size_t cut = 20; cut < good.size(); ++cut) {
    overwrite("f", good.substr(0, cut));
    TFRecordReader reader(path("f"));
    std::string record;
    ASSERT_TRUE(reader.read_next(record));
    try {
      reader.read_next(record);
      FAIL() << "a file cut at " << cut << " read as complete";
    } catch (const DataLossError& e) {
      EXPECT_NE(std::string(e.what()).find("truncated record at offset 19"), std::string::npos)
          << e.what();
    }
  }
}

TEST_F(RecordReaderTest, TruncatedTailCanBeTreatedAsTheEnd) {
  std::string good = write("f", {"abc", "defgh"});
  overwrite("f", good.substr(0, good.size() - 2));
  TFRecordReader reader(path("f"), {}, /*stop_at_truncated_tail=*/true);
  std::string record;
  ASSERT_TRUE(reader.read_next(record));
  EXPECT_FALSE(reader.read_next(record));
  EXPECT_TRUE(reader.truncated_tail());
  EXPECT_EQ(reader.offset(), 19u);
  // A corrupt checksum is still an error in this mode.
  std::string bad = good;
  bad[good.size() - 1] ^= 1;
  overwrite("g", bad);
  TFRecordReader strict(path("g"), {}, true);
  ASSERT_TRUE(strict.read_next(record));
  EXPECT_THROW(strict.read_next(record), DataLossError);
}

TEST_F(RecordReaderTest, HugeLengthWithValidChecksumDoesNotAllocateIt) {
  // A header announcing 2^60 bytes, with a correct length checksum, then 5 bytes of data.
  std::string header(12, '\0');
  header[7] = 0x10;
  std::string bytes;
  bytes.append(header.data(), 8);
  uint32_t crc = crc32c::mask(crc32c::value(header.data(), 8));
  for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
  bytes += "12345";
  overwrite("huge", bytes);
  EXPECT_THROW(read_tf_records(path("huge")), DataLossError);
}

TEST_F(RecordReaderTest, CorruptOrTruncatedCompressedStreamIsDataLoss) {
  std::string gz = write("f.gz", {std::string(5000, 'a'), "b"}, "GZIP");
  overwrite("cut.gz", gz.substr(0, gz.size() / 2));
  EXPECT_THROW(read_tf_records(path("cut.gz"), {.compression_type = "GZIP"}), DataLossError);
  std::string bad = gz;
  bad[gz.size() / 2] ^= 0x55;
  bad[gz.size() / 2 + 1] ^= 0x55;
  overwrite("bad.gz", bad);
  EXPECT_THROW(read_tf_records(path("bad.gz"), {.compression_type = "GZIP"}), DataLossError);
  // Reading a gzip file as uncompressed fails on the first frame, cleanly.
  EXPECT_THROW(read_tf_records(path("f.gz")), DataLossError);
  // And a zlib reader rejects the gzip header.
  EXPECT_THROW(read_tf_records(path("f.gz"), {.compression_type = "ZLIB"}), DataLossError);
}

TEST_F(RecordReaderTest, MissingFileAndBadOptions) {
  EXPECT_THROW(TFRecordReader(path("missing")), NotFoundError);
  EXPECT_THROW(TFRecordReader(dir_.string()), FailedPreconditionError);
  overwrite("f", "");
  EXPECT_THROW(TFRecordReader(path("f"), {.compression_type = "BZIP2"}), InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::io
