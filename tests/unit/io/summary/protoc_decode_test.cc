// Decodes what tfcc writes with protoc and the project's own minimal schema
// (testdata/tfcc_event.proto): an independent protobuf parser must read the same fields.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tests/unit/io/summary/summary_test_util.h"
#include "tfcc/io/record/record_reader.h"
#include "tfcc/io/summary/summary.h"

namespace tfcc::summary {
namespace {

class ProtocDecodeTest : public testing::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    if (std::system("protoc --version > /dev/null 2>&1") != 0) {
      GTEST_SKIP() << "protoc not found: the protoc decode check is SKIPPED (install Debian's "
                      "protobuf-compiler, scripts/install-deps.sh does)";
    }
  }

  // protoc's text form of one serialized Event.
  std::string decode(const std::string& payload) {
    std::string in = path("payload.bin"), out = path("decoded.txt"), err = path("protoc.err");
    std::ofstream(in, std::ios::binary) << payload;
    std::filesystem::path proto_dir = testing::source_dir() / "testdata";
    std::string cmd = "protoc --decode=tfcc.test.Event --proto_path='" + proto_dir.string() +
                      "' tfcc_event.proto < '" + in + "' > '" + out + "' 2> '" + err + "'";
    int rc = std::system(cmd.c_str());
    std::stringstream text, errors;
    text << std::ifstream(out).rdbuf();
    errors << std::ifstream(err).rdbuf();
    EXPECT_EQ(rc, 0) << cmd << "\n" << errors.str();
    return text.str();
  }
};

TEST_F(ProtocDecodeTest, EveryRecordDecodesToTheValuesWritten) {
  auto writer = create_file_writer(path("run"));
  {
    auto scope = writer.as_default();
    scalar("loss", 0.5, 42, "the loss");
    histogram("weights", Tensor::from_vector<double>({1, 2, 3, 4}), 43, 2);
    text("notes", "hello", 44);
  }
  writer.close();
  std::vector<std::string> records = io::read_tf_records(writer.path());
  ASSERT_EQ(records.size(), 4u);

  std::string first = decode(records[0]);
  EXPECT_NE(first.find("file_version: \"brain.Event:2\""), std::string::npos) << first;
  EXPECT_NE(first.find("wall_time: "), std::string::npos) << first;

  std::string s = decode(records[1]);
  for (const char* want : {"step: 42", "tag: \"loss\"", "dtype: 1", "tensor_shape {",
                           "tensor_content: \"\\000\\000\\000?\"", "plugin_name: \"scalars\"",
                           "summary_description: \"the loss\""}) {
    EXPECT_NE(s.find(want), std::string::npos) << "missing " << want << " in\n" << s;
  }
  std::string h = decode(records[2]);
  // [2, 3] float64: rows (1, 2.5, 2) and (2.5, 4, 2).
  for (const char* want :
       {"step: 43", "dtype: 2", "size: 2", "size: 3", "plugin_name: \"histograms\""}) {
    EXPECT_NE(h.find(want), std::string::npos) << "missing " << want << " in\n" << h;
  }
  std::string t = decode(records[3]);
  for (const char* want :
       {"step: 44", "dtype: 7", "string_val: \"hello\"", "plugin_name: \"text\""}) {
    EXPECT_NE(t.find(want), std::string::npos) << "missing " << want << " in\n" << t;
  }
}

TEST_F(ProtocDecodeTest, Tf1HistogramWithPackedBuckets) {
  Event e;
  e.step = 7;
  SummaryValue v;
  v.tag = "h";
  v.histo = HistogramProto{.min = -1,
                           .max = 3,
                           .num = 4,
                           .sum = 5,
                           .sum_squares = 11,
                           .bucket_limit = {0, 1.5, 3},
                           .bucket = {1, 2, 1}};
  e.summary.push_back(v);
  std::string text = decode(e.serialize());
  for (const char* want : {"min: -1", "max: 3", "num: 4", "sum_squares: 11", "bucket_limit: 0",
                           "bucket_limit: 1.5", "bucket_limit: 3", "bucket: 2"}) {
    EXPECT_NE(text.find(want), std::string::npos) << "missing " << want << " in\n" << text;
  }
}

}  // namespace
}  // namespace tfcc::summary
