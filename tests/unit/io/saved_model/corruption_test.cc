// A damaged export is never loaded: 64 truncations and 1,000 random bit flips of the files of a
// real export (model file, checkpoint index and data) must each raise DataLossError (or
// InvalidArgumentError for a well-formed but invalid structure); none may load or crash. Run
// under ASan/UBSan too. A small model keeps it quick.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "tests/unit/io/saved_model/test_models.h"
#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/saved_model/saved_model.h"

namespace tfcc::saved_model {
namespace {

using namespace testing_models;

void put(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Loads and runs: any corruption must be caught before (or while) loading.
void load_and_run(const std::string& dir) {
  LoadedModel m = load(dir);
  m.signatures.at("serving_default")({Tensor::from_vector<float>({1, 2})});
}

struct Counts {
  int data_loss = 0, invalid = 0;
};

void expect_rejected(const std::string& dir, const std::string& what, Counts& counts) {
  try {
    load_and_run(dir);
    ADD_FAILURE() << what << ": the damaged export was accepted";
  } catch (const DataLossError&) {
    ++counts.data_loss;
  } catch (const InvalidArgumentError&) {
    ++counts.invalid;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": unexpected error type: " << e.what();
  }
}

TEST(SavedModelCorruptionTest, TruncationsAndBitFlipsAreRejected) {
  Looper looper;  // cond + while + a variable: every part of the format is present
  std::string dir = temp_dir("corruption") + "/export";
  save(looper, dir, looper.serving(), {.format = Format::kTfccLegacy});
  ASSERT_NO_THROW(load_and_run(dir));

  const std::vector<std::string> files = {std::string(kModelFilename),
                                          checkpoint::index_filename(kVariablesPrefix),
                                          checkpoint::data_filename(kVariablesPrefix, 0, 1)};
  std::vector<std::string> originals;
  for (const std::string& f : files) originals.push_back(read_file(dir + "/" + f));

  std::mt19937_64 rng(20261130);
  Counts counts;
  for (int i = 0; i < 64; ++i) {
    size_t k = static_cast<size_t>(i) % files.size();
    const std::string& bytes = originals[k];
    size_t length = std::uniform_int_distribution<size_t>(0, bytes.size() - 1)(rng);
    put(dir + "/" + files[k], bytes.substr(0, length));
    expect_rejected(dir, ::tfcc::internal::str_cat(files[k], " truncated to ", length), counts);
    put(dir + "/" + files[k], bytes);
  }
  for (int i = 0; i < 1000; ++i) {
    size_t k = std::uniform_int_distribution<size_t>(0, files.size() - 1)(rng);
    std::string bytes = originals[k];
    size_t bit = std::uniform_int_distribution<size_t>(0, bytes.size() * 8 - 1)(rng);
    bytes[bit / 8] = static_cast<char>(bytes[bit / 8] ^ (1 << (bit % 8)));
    put(dir + "/" + files[k], bytes);
    expect_rejected(dir, ::tfcc::internal::str_cat(files[k], " bit ", bit, " flipped"), counts);
    put(dir + "/" + files[k], originals[k]);
  }
  EXPECT_EQ(counts.data_loss + counts.invalid, 1064);
  std::cout << "rejected: " << counts.data_loss << " DataLossError, " << counts.invalid
            << " InvalidArgumentError\n";
  ASSERT_NO_THROW(load_and_run(dir));  // the restored files load again
}

TEST(SavedModelCorruptionTest, MissingVariablesFileIsDataLoss) {
  Looper looper;
  std::string dir = temp_dir("missing_file") + "/export";
  save(looper, dir, looper.serving(), {.format = Format::kTfccLegacy});
  std::remove((dir + "/" + checkpoint::data_filename(kVariablesPrefix, 0, 1)).c_str());
  EXPECT_THROW(load(dir), DataLossError);
}

}  // namespace
}  // namespace tfcc::saved_model
