#include "tfcc/data/csv.h"

#include <charconv>

#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/limits.h"

namespace tfcc::data {
namespace {

// Walks CSV text one record at a time.
class CsvReader {
 public:
  CsvReader(std::string_view text, const std::vector<CsvColumn>& columns, const CsvOptions& options,
            const std::string& source)
      : text_(text), cols_(columns), opt_(options), source_(source) {
    TFCC_CHECK_ARG(!cols_.empty(), "CsvDataset: record_defaults must not be empty");
    TFCC_CHECK_ARG(opt_.select_cols.empty() || opt_.select_cols.size() == cols_.size(),
                   "CsvDataset: ", cols_.size(), " record_defaults for ", opt_.select_cols.size(),
                   " select_cols; they must match");
    for (size_t i = 0; i < opt_.select_cols.size(); ++i) {
      TFCC_CHECK_ARG(
          opt_.select_cols[i] >= 0 && (i == 0 || opt_.select_cols[i] > opt_.select_cols[i - 1]),
          "CsvDataset: select_cols must be non-negative and strictly increasing");
    }
    for (size_t i = 0; i < cols_.size(); ++i) {
      DType d = cols_[i].dtype;
      TFCC_CHECK_ARG(d == int32 || d == int64 || d == float32 || d == float64,
                     "CsvDataset: column ", i, " has unsupported dtype ", dtype_name(d),
                     " (int32, int64, float32 or float64)");
      const Tensor& def = cols_[i].default_value;
      TFCC_CHECK_ARG(!def.defined() || (def.dtype() == d && def.num_elements() == 1),
                     "CsvDataset: the default of column ", i, " must be one ", dtype_name(d),
                     " value");
    }
    if (opt_.header) skip_line();
  }

  std::optional<Element> next() {
    while (pos_ < text_.size() && (text_[pos_] == '\n' || text_[pos_] == '\r')) ++pos_;
    if (pos_ >= text_.size()) return std::nullopt;
    size_t record_start = pos_;
    std::vector<std::string> fields;
    while (true) {
      fields.push_back(read_field(record_start));
      if (pos_ < text_.size() && text_[pos_] == opt_.field_delim) {
        ++pos_;
        continue;
      }
      break;
    }
    if (pos_ < text_.size() && text_[pos_] == '\r') ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
    Element e = convert(fields, record_start);
    ++record_;
    return e;
  }

 private:
  void skip_line() {
    size_t nl = text_.find('\n', pos_);
    pos_ = nl == std::string_view::npos ? text_.size() : nl + 1;
  }

  [[noreturn]] void fail_arg(size_t offset, const std::string& what) const {
    throw InvalidArgumentError(tfcc::internal::str_cat(what, " (file ", source_, ", record ",
                                                       record_, ", offset ", offset, ")"));
  }

  std::string read_field(size_t record_start) {
    std::string out;
    if (opt_.use_quote_delim && pos_ < text_.size() && text_[pos_] == '"') {
      size_t open = pos_++;
      while (true) {
        if (pos_ >= text_.size()) {
          throw DataLossError(tfcc::internal::str_cat(
              "Reached end of file without closing quoted field in record ", record_, " (file ",
              source_, ", quote opened at offset ", open, ")"));
        }
        char c = text_[pos_++];
        if (c != '"') {
          out.push_back(c);
        } else if (pos_ < text_.size() && text_[pos_] == '"') {
          out.push_back('"');
          ++pos_;
        } else {
          break;
        }
      }
      if (pos_ < text_.size() && text_[pos_] != opt_.field_delim && text_[pos_] != '\n' &&
          text_[pos_] != '\r') {
        fail_arg(pos_, "Quote inside a string has to be escaped by another quote");
      }
      return out;
    }
    (void)record_start;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == opt_.field_delim || c == '\n' || c == '\r') break;
      if (opt_.use_quote_delim && c == '"') {
        fail_arg(pos_, "Unquoted fields cannot have quotes inside");
      }
      out.push_back(c);
      ++pos_;
    }
    return out;
  }

  template <typename T>
  Tensor parse_number(std::string_view s, size_t col, size_t offset) const {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    T v{};
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) {
      const char* type = std::is_same_v<T, float>     ? "float"
                         : std::is_same_v<T, double>  ? "double"
                         : std::is_same_v<T, int32_t> ? "int32"
                                                      : "int64";
      fail_arg(offset, tfcc::internal::str_cat("Field ", col, " in record ", record_,
                                               " is not a valid ", type, ": ", quote_input(s)));
    }
    return Tensor::scalar<T>(v);
  }

  Element convert(const std::vector<std::string>& fields, size_t offset) const {
    size_t want =
        opt_.select_cols.empty() ? cols_.size() : static_cast<size_t>(opt_.select_cols.back()) + 1;
    if (opt_.select_cols.empty() ? fields.size() != want : fields.size() < want) {
      fail_arg(offset, tfcc::internal::str_cat("Expect ", want, " fields but have ", fields.size(),
                                               " in record ", record_));
    }
    Element e;
    for (size_t i = 0; i < cols_.size(); ++i) {
      size_t col = opt_.select_cols.empty() ? i : static_cast<size_t>(opt_.select_cols[i]);
      const std::string& f = fields[col];
      if (f.empty() || (!opt_.na_value.empty() && f == opt_.na_value)) {
        if (!cols_[i].default_value.defined()) {
          fail_arg(offset, tfcc::internal::str_cat("Field ", col,
                                                   " is required but missing in "
                                                   "record ",
                                                   record_, "!"));
        }
        e.push_back(cols_[i].default_value);
        continue;
      }
      switch (cols_[i].dtype) {
        case DType::kInt32:
          e.push_back(parse_number<int32_t>(f, col, offset));
          break;
        case DType::kInt64:
          e.push_back(parse_number<int64_t>(f, col, offset));
          break;
        case DType::kFloat64:
          e.push_back(parse_number<double>(f, col, offset));
          break;
        default:
          e.push_back(parse_number<float>(f, col, offset));
          break;
      }
    }
    return e;
  }

  std::string_view text_;
  const std::vector<CsvColumn>& cols_;
  const CsvOptions& opt_;
  std::string source_;
  size_t pos_ = 0;
  int64_t record_ = 0;

 public:
  size_t pos() const { return pos_; }
  int64_t record() const { return record_; }
  void seek(size_t pos, int64_t record) {
    pos_ = pos;
    record_ = record;
  }
};

class CsvNode : public DatasetNode {
 public:
  CsvNode(std::vector<std::string> files, std::vector<CsvColumn> cols, CsvOptions opt)
      : files_(std::move(files)), cols_(std::move(cols)), opt_(std::move(opt)) {
    CsvReader check("", cols_, opt_, "");  // validates the columns and options now
    for (const CsvColumn& c : cols_) spec_.push_back({c.dtype, PartialShape(Shape{})});
  }
  const ElementSpec& element_spec() const override { return spec_; }
  std::string name() const override { return "CSVDataset"; }

  std::unique_ptr<IteratorBase> make_iterator() const override {
    class It : public IteratorBase {
     public:
      explicit It(const CsvNode* n) : n_(n) {}
      std::optional<Element> next() override {
        while (file_ < n_->files_.size()) {
          if (!reader_) open();
          if (auto e = reader_->next()) return e;
          reader_.reset();
          ++file_;
        }
        return std::nullopt;
      }
      void save(StateWriter& w) override {
        w.write_u64(file_);
        w.write_u64(reader_ ? reader_->pos() : 0);
        w.write_i64(reader_ ? reader_->record() : 0);
        w.write_i64(reader_ != nullptr);
      }
      void restore(StateReader& r) override {
        file_ = r.read_u64();
        uint64_t pos = r.read_u64();
        int64_t record = r.read_i64();
        bool open_now = r.read_i64() != 0;
        if (file_ > n_->files_.size()) throw DataLossError("CSVDataset: bad file index");
        if (open_now && file_ < n_->files_.size()) {
          open();
          if (pos > text_.size()) throw DataLossError("CSVDataset: bad file offset");
          reader_->seek(pos, record);
        }
      }

     private:
      void open() {
        text_ = read_file(n_->files_[file_]);
        reader_ = std::make_unique<CsvReader>(text_, n_->cols_, n_->opt_, n_->files_[file_]);
      }
      const CsvNode* n_;
      size_t file_ = 0;
      std::string text_;
      std::unique_ptr<CsvReader> reader_;
    };
    return std::make_unique<It>(this);
  }

 private:
  std::vector<std::string> files_;
  std::vector<CsvColumn> cols_;
  CsvOptions opt_;
  ElementSpec spec_;
};

}  // namespace

std::vector<Element> parse_csv(std::string_view text, const std::vector<CsvColumn>& columns,
                               const CsvOptions& options, const std::string& source) {
  CsvReader reader(text, columns, options, source);
  std::vector<Element> out;
  while (auto e = reader.next()) out.push_back(std::move(*e));
  return out;
}

Dataset csv_dataset(std::vector<std::string> filenames, std::vector<CsvColumn> record_defaults,
                    CsvOptions options) {
  return Dataset(std::make_shared<CsvNode>(std::move(filenames), std::move(record_defaults),
                                           std::move(options)));
}

}  // namespace tfcc::data
