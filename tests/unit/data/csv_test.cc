// csv_dataset and parse_csv: typed columns, header, defaults, quoting, errors.
#include "tfcc/data/csv.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tfcc/platform/file.h"

namespace tfcc::data {
namespace {

TEST(CsvTest, ParsesTypedColumnsWithDefaults) {
  std::vector<CsvColumn> cols = {csv_default(0.5f), csv_required(int64), csv_default(-1.0)};
  auto rows = parse_csv("1.25,7,3\n,8,\r\n  -2 ,9, 1e3\n\n", cols, {}, "mem");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0][0].dtype(), float32);
  EXPECT_EQ(rows[0][0].item<float>(), 1.25f);
  EXPECT_EQ(rows[0][1].item<int64_t>(), 7);
  EXPECT_EQ(rows[1][0].item<float>(), 0.5f);
  EXPECT_EQ(rows[1][2].item<double>(), -1.0);
  EXPECT_EQ(rows[2][0].item<float>(), -2.0f);
  EXPECT_EQ(rows[2][2].item<double>(), 1000.0);
}

TEST(CsvTest, QuotesHeaderSelectColsAndNaValue) {
  std::vector<CsvColumn> cols = {csv_default(int32_t{-5}), csv_default(int64_t{-9})};
  CsvOptions opt{.header = true, .field_delim = ';', .na_value = "NA", .select_cols = {1, 3}};
  std::string text =
      "a;b;c;d\n"
      "\"x;\"\"y\";\"4\";z;\"7\"\n"
      ";NA;q;\n"
      ";5;\"multi\nline\";6;extra\n";
  auto rows = parse_csv(text, cols, opt, "mem");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0][0].dtype(), int32);
  EXPECT_EQ(rows[0][0].item<int>(), 4);
  EXPECT_EQ(rows[0][1].item<int64_t>(), 7);
  EXPECT_EQ(rows[1][0].item<int>(), -5);
  EXPECT_EQ(rows[1][1].item<int64_t>(), -9);
  EXPECT_EQ(rows[2][0].item<int>(), 5);
  EXPECT_EQ(rows[2][1].item<int64_t>(), 6);
  // Without quoting, quotes are ordinary characters.
  CsvOptions plain{.use_quote_delim = false};
  EXPECT_THROW(parse_csv("\"1\"\n", {csv_required(int32)}, plain, "mem"), InvalidArgumentError);
  // A record shorter than the last selected column is an error.
  EXPECT_THROW(parse_csv("h\n1;2\n", cols, opt, "mem"), InvalidArgumentError);
}

TEST(CsvTest, ErrorsNameTheRecord) {
  std::vector<CsvColumn> cols = {csv_required(int32), csv_default(0.0f)};
  auto msg = [&](const std::string& text) {
    try {
      parse_csv(text, cols, {}, "f.csv");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(msg("1,2\nx,3\n").find("Field 0 in record 1 is not a valid int32: x"),
            std::string::npos);
  EXPECT_NE(msg("1,2\n,3\n").find("Field 0 is required but missing in record 1!"),
            std::string::npos);
  EXPECT_NE(msg("1,2,3\n").find("Expect 2 fields but have 3 in record 0"), std::string::npos);
  EXPECT_NE(msg("1,2\n3,4\"\n").find("Unquoted fields cannot have quotes inside"),
            std::string::npos);
  EXPECT_NE(msg("1,\"2\"x\n").find("Quote inside a string has to be escaped"), std::string::npos);
  EXPECT_NE(msg("99999999999,1\n").find("not a valid int32"), std::string::npos);
  EXPECT_THROW(parse_csv("1,\"2\n", cols, {}, "f.csv"), DataLossError);
  EXPECT_NE(msg("1,\"2\n").find("Reached end of file without closing quoted field in record 0"),
            std::string::npos);
  EXPECT_THROW(parse_csv("1\n", {{uint8, Tensor()}}, {}, "f"), InvalidArgumentError);
}

TEST(CsvTest, DatasetReadsFilesInOrderAndRestores) {
  auto dir = std::filesystem::temp_directory_path() / "tfcc_csv_test";
  std::filesystem::create_directories(dir);
  write_file_atomic((dir / "a.csv").string(), "x,y\n1,10\n2,20\n");
  write_file_atomic((dir / "b.csv").string(), "x,y\n3,30\n");
  Dataset d = csv_dataset({(dir / "a.csv").string(), (dir / "b.csv").string()},
                          {csv_required(int64), csv_required(float32)}, {.header = true});
  std::vector<int64_t> xs;
  for (const Element& e : d) xs.push_back(e[0].item<int64_t>());
  EXPECT_EQ(xs, (std::vector<int64_t>{1, 2, 3}));
  Iterator it = d.make_iterator();
  it.get_next();
  Iterator again = d.make_iterator();
  again.restore(it.save());
  EXPECT_EQ(again.get_next()[1].item<float>(), 20.0f);
  EXPECT_EQ(again.get_next()[1].item<float>(), 30.0f);
  EXPECT_FALSE(again.get_next_as_optional());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tfcc::data
