// text_dataset_from_directory: labels from sub-folders, label modes, class_names, batching,
// seeded shuffle, validation split, max_length, and its errors.
#include "tfcc/keras/utils/text_dataset.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace tfcc::keras::utils {
namespace {

namespace fs = std::filesystem;

class TextDatasetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tfcc_text_ds_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    for (const char* c : {"neg", "pos"}) fs::create_directories(dir_ / c);
    fs::create_directories(dir_ / "pos" / "more");
    write("neg/a.txt", "bad movie");
    write("neg/b.txt", "awful");
    write("neg/c.txt", "boring plot");
    write("pos/a.txt", "great film");
    write("pos/more/d.txt", "loved it");
    write("pos/e.md", "not a text file");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& rel, const std::string& text) { std::ofstream(dir_ / rel) << text; }
  std::vector<std::pair<std::string, int32_t>> all(const data::Dataset& ds) {
    std::vector<std::pair<std::string, int32_t>> out;
    for (const data::Element& b : ds) {
      std::vector<std::string> t = b[0].to_vector<std::string>();
      std::vector<int32_t> l = b[1].to_vector<int32_t>();
      for (size_t i = 0; i < t.size(); ++i) out.emplace_back(t[i], l[i]);
    }
    return out;
  }
  fs::path dir_;
};

TEST_F(TextDatasetTest, LabelsFromSubfolders) {
  TextDataset d = text_dataset_from_directory(dir_.string(), {.batch_size = 2, .shuffle = false});
  EXPECT_EQ(d.class_names, (std::vector<std::string>{"neg", "pos"}));
  auto items = all(d.dataset);
  ASSERT_EQ(items.size(), 5u);
  EXPECT_EQ(items[0], (std::pair<std::string, int32_t>{"bad movie", 0}));
  EXPECT_EQ(items[3], (std::pair<std::string, int32_t>{"great film", 1}));
  EXPECT_EQ(items[4], (std::pair<std::string, int32_t>{"loved it", 1}));
  int batches = 0;
  for (const data::Element& b : d.dataset) {
    EXPECT_EQ(b[0].dtype(), string);
    ++batches;
  }
  EXPECT_EQ(batches, 3);
}

TEST_F(TextDatasetTest, LabelModesAndMaxLength) {
  TextDataset c = text_dataset_from_directory(
      dir_.string(),
      {.label_mode = "categorical", .batch_size = 8, .max_length = 3, .shuffle = false});
  for (const data::Element& b : c.dataset) {
    EXPECT_EQ(b[1].shape(), (Shape{5, 2}));
    EXPECT_EQ(b[1].dtype(), float32);
    EXPECT_EQ(b[0].to_vector<std::string>()[0], "bad");
  }
  TextDataset bin = text_dataset_from_directory(
      dir_.string(), {.label_mode = "binary", .batch_size = std::nullopt, .shuffle = false});
  int n = 0;
  for (const data::Element& e : bin.dataset) {
    EXPECT_EQ(e[1].shape(), (Shape{1}));
    ++n;
  }
  EXPECT_EQ(n, 5);
  TextDataset none = text_dataset_from_directory(dir_.string(), {.labels = "", .shuffle = false});
  for (const data::Element& b : none.dataset) EXPECT_EQ(b.size(), 1u);
}

TEST_F(TextDatasetTest, SeededSplitIsDisjointAndComplete) {
  TextDatasetOptions o{.batch_size = 2, .seed = 3, .validation_split = 0.4, .subset = "training"};
  auto train = all(text_dataset_from_directory(dir_.string(), o).dataset);
  o.subset = "validation";
  auto val = all(text_dataset_from_directory(dir_.string(), o).dataset);
  EXPECT_EQ(train.size(), 3u);
  EXPECT_EQ(val.size(), 2u);
  std::set<std::string> seen;
  for (auto& [t, l] : train) seen.insert(t);
  for (auto& [t, l] : val) EXPECT_TRUE(seen.insert(t).second) << t;
  EXPECT_EQ(seen.size(), 5u);
  o.subset = "both";
  auto [tr, va] = text_dataset_from_directory_both(dir_.string(), o);
  EXPECT_EQ(all(va.dataset).size(), 2u);
}

TEST_F(TextDatasetTest, Errors) {
  EXPECT_THROW(text_dataset_from_directory((dir_ / "missing").string()), NotFoundError);
  EXPECT_THROW(text_dataset_from_directory(dir_.string(), {.label_mode = "sparse"}),
               InvalidArgumentError);
  EXPECT_THROW(text_dataset_from_directory(dir_.string(), {.validation_split = 0.5}),
               InvalidArgumentError);
  EXPECT_THROW(text_dataset_from_directory(dir_.string(), {.class_names = {"neg"}}),
               InvalidArgumentError);
  fs::create_directories(dir_ / "x");
  EXPECT_THROW(text_dataset_from_directory(dir_.string(), {.label_mode = "binary"}),
               InvalidArgumentError);
}

}  // namespace
}  // namespace tfcc::keras::utils
