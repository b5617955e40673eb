#include "tfcc/keras/utils/text_dataset.h"

#include <algorithm>
#include <filesystem>
#include <random>

#include "tfcc/ops/creation/creation.h"
#include "tfcc/ops/elementwise/elementwise.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::keras::utils {
namespace {

namespace fs = std::filesystem;
using internal::str_cat;

struct Files {
  std::vector<std::string> paths;
  std::vector<int32_t> labels;
  std::vector<std::string> class_names;
};

void check(const std::string& directory, const TextDatasetOptions& o, bool both) {
  TFCC_CHECK_ARG(o.labels == "inferred" || o.labels.empty(),
                 "text_dataset_from_directory: labels must be \"inferred\" or \"\" (None), got \"",
                 o.labels, "\"");
  const std::string& m = o.label_mode;
  TFCC_CHECK_ARG(m == "int" || m == "categorical" || m == "binary" || m.empty(),
                 "text_dataset_from_directory: label_mode must be \"int\", \"categorical\", "
                 "\"binary\" or \"\", got \"",
                 m, "\"");
  if (o.validation_split) {
    TFCC_CHECK_ARG(*o.validation_split > 0 && *o.validation_split < 1,
                   "text_dataset_from_directory: validation_split must be in (0, 1), got ",
                   *o.validation_split);
    TFCC_CHECK_ARG(both ? o.subset == "both" : (o.subset == "training" || o.subset == "validation"),
                   "text_dataset_from_directory: with validation_split, subset must be "
                   "\"training\" or \"validation\" (\"both\": text_dataset_from_directory_both), "
                   "got \"",
                   o.subset, "\"");
    TFCC_CHECK_ARG(o.seed || !o.shuffle,
                   "text_dataset_from_directory: validation_split with shuffle needs a seed, so "
                   "the training and validation subsets do not overlap");
  } else {
    TFCC_CHECK_ARG(o.subset.empty() && !both,
                   "text_dataset_from_directory: subset needs validation_split");
  }
  TFCC_CHECK_ARG(!o.batch_size || *o.batch_size > 0,
                 "text_dataset_from_directory: batch_size must be positive");
  TFCC_CHECK_ARG(!o.max_length || *o.max_length >= 0,
                 "text_dataset_from_directory: max_length must be >= 0");
  TFCC_REQUIRE(NotFoundError, fs::is_directory(directory),
               "text_dataset_from_directory: directory ", directory, " does not exist");
}

Files index(const std::string& directory, const TextDatasetOptions& o) {
  Files f;
  std::vector<std::string> subdirs;
  for (const fs::directory_entry& e : fs::directory_iterator(directory)) {
    if (e.is_directory()) subdirs.push_back(e.path().filename().string());
  }
  std::sort(subdirs.begin(), subdirs.end());
  f.class_names = o.class_names.empty() ? subdirs : o.class_names;
  if (!o.class_names.empty()) {
    std::vector<std::string> given = o.class_names;
    std::sort(given.begin(), given.end());
    TFCC_CHECK_ARG(given == subdirs,
                   "text_dataset_from_directory: class_names must name the "
                   "sub-folders of ",
                   directory, " exactly");
  }
  const auto opts = o.follow_links ? fs::directory_options::follow_directory_symlink
                                   : fs::directory_options::none;
  for (size_t c = 0; c < f.class_names.size(); ++c) {
    std::vector<std::string> files;
    for (const auto& e :
         fs::recursive_directory_iterator(fs::path(directory) / f.class_names[c], opts)) {
      if (e.is_regular_file() && e.path().extension() == ".txt") files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    for (const std::string& p : files) {
      f.paths.push_back(p);
      f.labels.push_back(static_cast<int32_t>(c));
    }
  }
  TFCC_CHECK_ARG(!f.paths.empty(),
                 "text_dataset_from_directory: no .txt files in the "
                 "sub-folders of ",
                 directory);
  if (o.label_mode == "binary") {
    TFCC_CHECK_ARG(f.class_names.size() == 2,
                   "text_dataset_from_directory: label_mode "
                   "\"binary\" needs exactly 2 classes, found ",
                   f.class_names.size());
  }
  if (o.shuffle) {
    std::mt19937_64 rng(o.seed.value_or(std::random_device{}()));
    for (size_t i = f.paths.size(); i > 1; --i) {
      std::uniform_int_distribution<size_t> pick(0, i - 1);
      const size_t j = pick(rng);
      std::swap(f.paths[i - 1], f.paths[j]);
      std::swap(f.labels[i - 1], f.labels[j]);
    }
  }
  return f;
}

TextDataset make(const Files& f, size_t begin, size_t end, const TextDatasetOptions& o) {
  std::vector<std::string> texts;
  std::vector<int32_t> labels;
  for (size_t i = begin; i < end; ++i) {
    std::string t = read_file(f.paths[i]);
    if (o.max_length && static_cast<int64_t>(t.size()) > *o.max_length) {
      t.resize(static_cast<size_t>(*o.max_length));
    }
    texts.push_back(std::move(t));
    labels.push_back(f.labels[i]);
  }
  data::Element components{Tensor::from_strings(texts)};
  if (o.labels == "inferred" && !o.label_mode.empty()) {
    Tensor y = Tensor::from_vector(labels);
    const int64_t n = static_cast<int64_t>(labels.size());
    if (o.label_mode == "categorical") {
      y = one_hot(y, static_cast<int64_t>(f.class_names.size()));
    } else if (o.label_mode == "binary") {
      y = Tensor::from_vector<float>(std::vector<float>(labels.begin(), labels.end()), Shape{n, 1});
    }
    components.push_back(y);
  }
  data::Dataset ds = data::Dataset::from_tensor_slices(components);
  if (o.shuffle) {
    ds = ds.shuffle(o.batch_size ? *o.batch_size * 8 : 1024, {.seed = o.seed});
  }
  if (o.batch_size) ds = ds.batch(*o.batch_size);
  return {ds, f.class_names};
}

// Keras' split: the last int(split * n) files are the validation subset.
std::pair<size_t, size_t> bounds(size_t n, const TextDatasetOptions& o, bool validation) {
  if (!o.validation_split) return {0, n};
  const auto num_val = static_cast<size_t>(*o.validation_split * static_cast<double>(n));
  return validation ? std::pair{n - num_val, n} : std::pair{size_t{0}, n - num_val};
}

}  // namespace

TextDataset text_dataset_from_directory(const std::string& directory,
                                        const TextDatasetOptions& options) {
  check(directory, options, false);
  Files f = index(directory, options);
  auto [b, e] = bounds(f.paths.size(), options, options.subset == "validation");
  TFCC_CHECK_ARG(e > b, "text_dataset_from_directory: the ", options.subset, " subset of ",
                 directory, " is empty");
  return make(f, b, e, options);
}

std::pair<TextDataset, TextDataset> text_dataset_from_directory_both(
    const std::string& directory, const TextDatasetOptions& options) {
  check(directory, options, true);
  Files f = index(directory, options);
  auto [tb, te] = bounds(f.paths.size(), options, false);
  auto [vb, ve] = bounds(f.paths.size(), options, true);
  TFCC_CHECK_ARG(te > tb && ve > vb, "text_dataset_from_directory: a subset of ", directory,
                 " is empty");
  return {make(f, tb, te, options), make(f, vb, ve, options)};
}

}  // namespace tfcc::keras::utils
