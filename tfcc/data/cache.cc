// Dataset::cache: the first complete pass fills a cache (memory or file) that later passes read.
//
// Only an iterator that reaches the end of its input completes the cache. One destroyed earlier
// discards what it cached and logs TensorFlow's warning (as in `cache().take(k).repeat()`, where
// every epoch stops early). While one iterator is filling the cache, others read the input
// directly. The file form streams records to a temporary file and renames it into place when the
// pass completes, so a crash never leaves a truncated cache behind; each record is checksummed
// and a damaged cache raises DataLossError naming the file and offset.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <mutex>

#include "tfcc/data/dataset.h"
#include "tfcc/platform/crc32c.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/logging.h"

namespace tfcc::data {
namespace {

constexpr char kMagic[] = "tfcc.data.cache/1\n";
constexpr size_t kMagicSize = sizeof(kMagic) - 1;

void warn_partial_cache() {
  TFCC_LOG(WARNING)
      << "The calling iterator did not fully read the dataset being cached. In order to avoid "
         "unexpected truncation of the dataset, the partially cached contents of the dataset "
         "will be discarded. This can happen if you have an input pipeline similar to "
         "dataset.cache().take(k).repeat(). You should use dataset.take(k).cache().repeat() "
         "instead.";
}

struct CacheState {
  std::mutex mu;
  bool complete = false;
  bool writing = false;
  std::vector<Element> elements;  // memory form, once complete
};

class CacheNode : public DatasetNode {
 public:
  CacheNode(std::shared_ptr<const DatasetNode> input, std::string filename)
      : input_(std::move(input)), filename_(std::move(filename)) {}
  const ElementSpec& element_spec() const override { return input_->element_spec(); }
  int64_t cardinality() const override { return input_->cardinality(); }
  std::string name() const override { return "CacheDataset"; }
  std::unique_ptr<IteratorBase> make_iterator() const override;

  std::string data_path() const { return filename_ + ".data"; }
  bool in_memory() const { return filename_.empty(); }

  std::shared_ptr<const DatasetNode> input_;
  std::string filename_;
  mutable CacheState state_;
};

// Reads the records of a complete cache file one by one.
class FileReader {
 public:
  explicit FileReader(const std::string& path) : path_(path), in_(path, std::ios::binary) {
    if (!in_) throw NotFoundError(tfcc::internal::str_cat("Could not open cache file ", path));
    char magic[kMagicSize];
    if (!in_.read(magic, kMagicSize) || std::string_view(magic, kMagicSize) != kMagic) {
      throw DataLossError(tfcc::internal::str_cat("Cache file ", path,
                                                  " at offset 0: not a tfcc cache "
                                                  "file (bad magic)"));
    }
    offset_ = kMagicSize;
  }
  std::optional<Element> next() {
    char header[12];
    in_.read(header, 12);
    if (in_.gcount() == 0) return std::nullopt;
    if (in_.gcount() != 12) corrupt("truncated record header");
    uint64_t len = 0;
    uint32_t crc = 0;
    for (int i = 0; i < 8; ++i) len |= uint64_t(static_cast<unsigned char>(header[i])) << (8 * i);
    for (int i = 0; i < 4; ++i) {
      crc |= uint32_t(static_cast<unsigned char>(header[8 + i])) << (8 * i);
    }
    if (len > (uint64_t{1} << 40)) corrupt("record length out of range");
    std::string payload(len, '\0');
    if (!in_.read(payload.data(), static_cast<std::streamsize>(len))) corrupt("truncated record");
    if (crc32c::mask(crc32c::value(payload)) != crc) corrupt("checksum mismatch");
    StateReader r(payload);
    Element e = r.read_element();
    offset_ += 12 + len;
    ++index_;
    return e;
  }
  int64_t index() const { return index_; }

 private:
  [[noreturn]] void corrupt(const char* what) const {
    throw DataLossError(tfcc::internal::str_cat("Cache file ", path_, " is corrupted at offset ",
                                                offset_, " (record ", index_, "): ", what));
  }
  std::string path_;
  std::ifstream in_;
  uint64_t offset_ = 0;
  int64_t index_ = 0;
};

class CacheIt : public IteratorBase {
 public:
  explicit CacheIt(const CacheNode* n) : n_(n) {
    std::lock_guard<std::mutex> lock(n->state_.mu);
    if (n->in_memory() ? n->state_.complete : file_exists(n->data_path())) {
      mode_ = kRead;
      if (!n->in_memory()) file_ = std::make_unique<FileReader>(n->data_path());
    } else if (!n->state_.writing) {
      mode_ = kWrite;
      n->state_.writing = true;
    } else {
      mode_ = kPassThrough;
    }
    if (mode_ != kRead) input_ = n->input_->make_iterator();
    if (mode_ == kWrite && !n->in_memory()) open_temp();
  }

  ~CacheIt() override {
    if (mode_ != kWrite) return;
    if (tmp_) {
      std::fclose(tmp_);
      std::remove(tmp_path_.c_str());
    }
    std::lock_guard<std::mutex> lock(n_->state_.mu);
    n_->state_.writing = false;
    warn_partial_cache();
  }

  std::optional<Element> next() override {
    if (mode_ == kRead) {
      if (file_) return file_->next();
      // A complete memory cache never changes again, so reading it needs no lock.
      if (pos_ >= n_->state_.elements.size()) return std::nullopt;
      return n_->state_.elements[pos_++];
    }
    std::optional<Element> e = input_->next();
    if (mode_ == kPassThrough) return e;
    if (e) {
      if (tmp_) {
        append_record(*e);
      } else {
        written_.push_back(*e);
      }
      return e;
    }
    finish();
    return std::nullopt;
  }

  void save(StateWriter& w) override {
    w.write_i64(mode_);
    if (mode_ == kRead) {
      w.write_u64(file_ ? static_cast<uint64_t>(file_->index()) : pos_);
      return;
    }
    input_->save(w);
  }

  void restore(StateReader& r) override {
    int64_t mode = r.read_i64();
    if (mode == kRead) {
      uint64_t pos = r.read_u64();
      if (mode_ != kRead) {
        throw FailedPreconditionError(
            "Cannot restore a cache-reading iterator: the cache is not complete in this process");
      }
      if (file_) {
        for (uint64_t i = 0; i < pos; ++i) file_->next();
      } else {
        pos_ = pos;
      }
      return;
    }
    if (mode_ == kRead) {
      throw FailedPreconditionError(
          "Cannot restore a cache-filling iterator: the cache is already complete");
    }
    // The partial cache of the saved iterator is not part of its state; the restored iterator
    // continues as a pass-through, so the cache is only ever filled by a whole pass.
    release_writer();
    mode_ = kPassThrough;
    input_->restore(r);
  }

 private:
  enum Mode : int64_t { kRead = 0, kWrite = 1, kPassThrough = 2 };

  void open_temp() {
    tmp_path_ = tfcc::internal::str_cat(n_->data_path(), ".tmp-", ::getpid(), "-",
                                        reinterpret_cast<uintptr_t>(this));
    tmp_ = std::fopen(tmp_path_.c_str(), "wb");
    if (!tmp_) {
      release_writer();
      throw PermissionDeniedError(tfcc::internal::str_cat("Could not create cache file ", tmp_path_,
                                                          " for dataset.cache(\"", n_->filename_,
                                                          "\")"));
    }
    write_bytes(kMagic, kMagicSize);
  }

  void write_bytes(const void* p, size_t n) {
    if (std::fwrite(p, 1, n, tmp_) != n) {
      throw UnknownError(tfcc::internal::str_cat("Could not write cache file ", tmp_path_));
    }
  }

  void append_record(const Element& e) {
    StateWriter w;
    w.write_element(e);
    const std::string& payload = w.bytes();
    char header[12];
    uint64_t len = payload.size();
    uint32_t crc = crc32c::mask(crc32c::value(payload));
    for (int i = 0; i < 8; ++i) header[i] = static_cast<char>((len >> (8 * i)) & 0xff);
    for (int i = 0; i < 4; ++i) header[8 + i] = static_cast<char>((crc >> (8 * i)) & 0xff);
    write_bytes(header, 12);
    write_bytes(payload.data(), payload.size());
  }

  void release_writer() {
    if (mode_ != kWrite) return;
    if (tmp_) {
      std::fclose(tmp_);
      std::remove(tmp_path_.c_str());
      tmp_ = nullptr;
    }
    std::lock_guard<std::mutex> lock(n_->state_.mu);
    n_->state_.writing = false;
    mode_ = kPassThrough;
  }

  void finish() {
    if (tmp_) {
      bool ok = std::fflush(tmp_) == 0 && ::fsync(fileno(tmp_)) == 0;
      ok = std::fclose(tmp_) == 0 && ok;
      tmp_ = nullptr;
      if (!ok || std::rename(tmp_path_.c_str(), n_->data_path().c_str()) != 0) {
        std::remove(tmp_path_.c_str());
        std::lock_guard<std::mutex> lock(n_->state_.mu);
        n_->state_.writing = false;
        mode_ = kPassThrough;
        throw UnknownError(
            tfcc::internal::str_cat("Could not complete cache file ", n_->data_path()));
      }
    }
    std::lock_guard<std::mutex> lock(n_->state_.mu);
    if (n_->in_memory()) n_->state_.elements = std::move(written_);
    n_->state_.complete = true;
    n_->state_.writing = false;
    mode_ = kPassThrough;  // done: the destructor must not warn
  }

  const CacheNode* n_;
  Mode mode_ = kPassThrough;
  std::unique_ptr<IteratorBase> input_;
  std::unique_ptr<FileReader> file_;
  size_t pos_ = 0;
  std::vector<Element> written_;
  std::FILE* tmp_ = nullptr;
  std::string tmp_path_;
};

std::unique_ptr<IteratorBase> CacheNode::make_iterator() const {
  return std::make_unique<CacheIt>(this);
}

}  // namespace

Dataset Dataset::cache(const std::string& filename) const {
  return Dataset(std::make_shared<CacheNode>(node_, filename));
}

}  // namespace tfcc::data
