// TFRecordDataset: records of files read through tfcc::io::TFRecordReader (the one framing).
#include "tfcc/data/tfrecord.h"

#include "tfcc/io/record/record_reader.h"
#include "tfcc/platform/errors.h"

namespace tfcc::data {
namespace {

class TFRecordNode : public DatasetNode {
 public:
  TFRecordNode(std::vector<std::string> files, const std::string& compression)
      : files_(std::move(files)), options_{.compression_type = compression} {
    io::parse_compression_type(compression);  // InvalidArgumentError for an unknown type, now
  }
  const ElementSpec& element_spec() const override { return spec_; }
  std::string name() const override { return "TFRecordDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const TFRecordNode* n) : n_(n) {}
      std::optional<Element> next() override {
        std::string record;
        while (file_ < n_->files_.size()) {
          if (!reader_)
            reader_ = std::make_unique<io::TFRecordReader>(n_->files_[file_], n_->options_);
          if (reader_->read_next(record)) {
            ++records_;
            return Element{bytes_tensor(record)};
          }
          reader_.reset();
          records_ = 0;
          ++file_;
        }
        return std::nullopt;
      }
      void save(StateWriter& w) override {
        w.write_u64(file_);
        w.write_u64(records_);
      }
      // Restoring reopens the file and reads past the records already produced, so every
      // checksum on the way is verified again.
      void restore(StateReader& r) override {
        file_ = r.read_u64();
        uint64_t records = r.read_u64();
        if (file_ > n_->files_.size()) throw DataLossError("TFRecordDataset: bad file index");
        reader_.reset();
        records_ = 0;
        if (file_ == n_->files_.size() || records == 0) return;
        reader_ = std::make_unique<io::TFRecordReader>(n_->files_[file_], n_->options_);
        std::string record;
        for (; records_ < records; ++records_) {
          if (!reader_->read_next(record)) {
            throw FailedPreconditionError(tfcc::internal::str_cat(
                "TFRecordDataset: cannot restore to record ", records, " of ", n_->files_[file_],
                ", which now has ", records_, " records"));
          }
        }
      }

     private:
      const TFRecordNode* n_;
      size_t file_ = 0;
      uint64_t records_ = 0;
      std::unique_ptr<io::TFRecordReader> reader_;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::vector<std::string> files_;
  io::TFRecordOptions options_;
  ElementSpec spec_{{uint8, PartialShape{-1}}};
};

}  // namespace

Dataset tfrecord_dataset(std::vector<std::string> filenames, const std::string& compression_type) {
  return Dataset(std::make_shared<TFRecordNode>(std::move(filenames), compression_type));
}

}  // namespace tfcc::data
