#include "tfcc/io/summary/event_file_reader.h"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/unit/io/summary/summary_test_util.h"
#include "tfcc/io/record/record_writer.h"
#include "tfcc/io/summary/summary.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::summary {
namespace {

using EventFileReaderTest = testing::TempDirTest;

std::string write_log(const std::string& dir) {
  auto writer = create_file_writer(dir);
  auto scope = writer.as_default();
  for (int i = 0; i < 3; ++i) scalar("loss", 1.0 / (i + 1), i);
  writer.close();
  return writer.path();
}

void overwrite(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST_F(EventFileReaderTest, ReadsBackEveryEvent) {
  std::string file = write_log(path("run"));
  EventFileReader reader(file);
  Event e;
  ASSERT_TRUE(reader.read_next(e));
  EXPECT_EQ(e.file_version, "brain.Event:2");
  std::vector<int64_t> steps;
  while (reader.read_next(e)) steps.push_back(e.step);
  EXPECT_EQ(steps, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(reader.offset(), read_file(file).size());
}

TEST_F(EventFileReaderTest, CorruptionNamesFileAndOffset) {
  std::string file = write_log(path("run"));
  std::string bytes = read_file(file);
  bytes[bytes.size() - 10] ^= 0x20;  // inside the last record's payload
  overwrite(file, bytes);
  try {
    read_events(file);
    FAIL() << "corruption went unnoticed";
  } catch (const DataLossError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find(file), std::string::npos) << msg;
    EXPECT_NE(msg.find("corrupted record at offset"), std::string::npos) << msg;
  }
}

TEST_F(EventFileReaderTest, MalformedEventWithValidChecksumIsDataLoss) {
  {
    io::TFRecordWriter w(path("events.out.tfevents.bad"));
    w.write(
        "\x0a\x05"
        "ab");  // a valid record whose payload is not an Event
  }
  try {
    read_events(path("events.out.tfevents.bad"));
    FAIL();
  } catch (const DataLossError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("record at offset 0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("malformed Event"), std::string::npos) << msg;
  }
}

TEST_F(EventFileReaderTest, LiveFileCutInsideARecordCanBeReadUpToThere) {
  std::string file = write_log(path("run"));
  std::string bytes = read_file(file);
  overwrite(file, bytes.substr(0, bytes.size() - 3));
  EXPECT_THROW(read_events(file), DataLossError);
  EventFileReader reader(file, /*stop_at_truncated_tail=*/true);
  Event e;
  int n = 0;
  while (reader.read_next(e)) ++n;
  EXPECT_EQ(n, 3);  // file_version + two of the three scalars
  EXPECT_TRUE(reader.truncated_tail());
}

TEST(IsEventFile, MatchesTensorBoardsRule) {
  EXPECT_TRUE(is_event_file("events.out.tfevents.1700000000.host.1.0.v2"));
  EXPECT_TRUE(is_event_file("x.tfevents"));
  EXPECT_FALSE(is_event_file("checkpoint"));
}

}  // namespace
}  // namespace tfcc::summary
