// Dataset::list_files: file names matching a glob pattern, sorted, then optionally shuffled.
#include <glob.h>

#include <algorithm>

#include "tfcc/data/dataset.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

class FileNamesNode : public DatasetNode {
 public:
  explicit FileNamesNode(std::vector<std::string> names) : names_(std::move(names)) {}
  const ElementSpec& element_spec() const override { return spec_; }
  int64_t cardinality() const override { return static_cast<int64_t>(names_.size()); }
  std::string name() const override { return "FileNamesDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const FileNamesNode* n) : n_(n) {}
      std::optional<Element> next() override {
        if (i_ >= n_->names_.size()) return std::nullopt;
        return Element{bytes_tensor(n_->names_[i_++])};
      }
      void save(StateWriter& w) override { w.write_u64(i_); }
      void restore(StateReader& r) override {
        i_ = r.read_u64();
        if (i_ > n_->names_.size()) throw DataLossError("FileNamesDataset: bad position");
      }

     private:
      const FileNamesNode* n_;
      size_t i_ = 0;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::vector<std::string> names_;
  ElementSpec spec_{{uint8, PartialShape{-1}}};
};

}  // namespace

Dataset Dataset::list_files(const std::string& pattern, bool shuffle,
                            std::optional<uint64_t> seed) {
  glob_t g{};
  int rc = ::glob(pattern.c_str(), 0, nullptr, &g);
  std::vector<std::string> names;
  if (rc == 0) {
    for (size_t i = 0; i < g.gl_pathc; ++i) names.emplace_back(g.gl_pathv[i]);
  }
  ::globfree(&g);
  TFCC_CHECK_ARG(!names.empty(), "No files matched pattern: ", pattern);
  std::sort(names.begin(), names.end());
  int64_t n = static_cast<int64_t>(names.size());
  Dataset files(std::make_shared<FileNamesNode>(std::move(names)));
  if (!shuffle) return files;
  return files.shuffle(n, {.seed = seed});
}

}  // namespace tfcc::data
