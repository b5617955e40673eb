#include "tfcc/data/state.h"

#include <cstring>

#include "tfcc/platform/errors.h"

namespace tfcc::data {

void StateWriter::write_u64(uint64_t v) {
  char b[8];
  for (int i = 0; i < 8; ++i) b[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  out_.append(b, 8);
}

void StateWriter::write_i64(int64_t v) { write_u64(static_cast<uint64_t>(v)); }

void StateWriter::write_string(std::string_view s) {
  write_u64(s.size());
  out_.append(s);
}

void StateWriter::write_tensor(const Tensor& t) {
  write_i64(static_cast<int64_t>(t.dtype()));
  write_i64(t.rank());
  for (int64_t d : t.shape().dims()) write_i64(d);
  if (t.dtype() == DType::kString) {  // each element's bytes, not its handle
    const TString* p = t.data<TString>();
    for (int64_t i = 0; i < t.num_elements(); ++i) write_string(p[i].view());
    return;
  }
  write_string(std::string_view(static_cast<const char*>(t.raw_data()), t.nbytes()));
}

void StateWriter::write_element(const Element& e) {
  write_u64(e.size());
  for (const Tensor& t : e) write_tensor(t);
}

void StateReader::need(size_t n, const char* what) {
  if (in_.size() - pos_ < n) {
    throw DataLossError(tfcc::internal::str_cat("Iterator state is truncated: reading ", what,
                                                " at offset ", pos_, " needs ", n, " bytes, ",
                                                in_.size() - pos_, " left"));
  }
}

uint64_t StateReader::read_u64() {
  need(8, "an integer");
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) {
    v |= static_cast<uint64_t>(static_cast<unsigned char>(in_[pos_ + i])) << (8 * i);
  }
  pos_ += 8;
  return v;
}

int64_t StateReader::read_i64() { return static_cast<int64_t>(read_u64()); }

std::string StateReader::read_string() {
  uint64_t n = read_u64();
  need(n, "a string");
  std::string s(in_.substr(pos_, n));
  pos_ += n;
  return s;
}

Tensor StateReader::read_tensor() {
  int64_t dtype = read_i64();
  if (dtype < 0 || dtype >= kNumDTypes) {
    throw DataLossError(tfcc::internal::str_cat("Iterator state holds an invalid dtype ", dtype,
                                                " at offset ", pos_ - 8));
  }
  int64_t rank = read_i64();
  if (rank < 0 || rank > 64) {
    throw DataLossError(tfcc::internal::str_cat("Iterator state holds an invalid rank ", rank));
  }
  std::vector<int64_t> dims(static_cast<size_t>(rank));
  int64_t n = 1;
  for (int64_t& d : dims) {
    d = read_i64();
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) {
      throw DataLossError("Iterator state holds an invalid tensor shape");
    }
  }
  DType dt = static_cast<DType>(dtype);
  if (dt == DType::kString) {
    if (static_cast<uint64_t>(n) > (in_.size() - pos_) / 8) {
      throw DataLossError("Iterator state holds more strings than it has bytes");
    }
    std::vector<std::string> values(static_cast<size_t>(n));
    for (std::string& v : values) v = read_string();
    return Tensor::from_strings(values, Shape(std::move(dims)));
  }
  std::string bytes = read_string();
  int64_t expected;
  if (__builtin_mul_overflow(n, static_cast<int64_t>(dtype_size(dt)), &expected) ||
      static_cast<int64_t>(bytes.size()) != expected) {
    throw DataLossError("Iterator state holds a tensor whose size does not match its shape");
  }
  if (dt == bool_) {
    for (char c : bytes) {
      if (c != 0 && c != 1) throw DataLossError("Iterator state holds an invalid bool value");
    }
  }
  return Tensor::from_bytes(dt, Shape(std::move(dims)), bytes.data(), bytes.size());
}

Element StateReader::read_element() {
  uint64_t n = read_u64();
  if (n > in_.size()) throw DataLossError("Iterator state holds an invalid element size");
  Element e;
  e.reserve(n);
  for (uint64_t i = 0; i < n; ++i) e.push_back(read_tensor());
  return e;
}

void StateReader::expect_tag(std::string_view name) {
  std::string got = read_string();
  if (got != name) {
    throw FailedPreconditionError(tfcc::internal::str_cat(
        "Iterator state does not match this dataset: expected state of ", name, ", found ", got,
        ". Restore a state into an iterator of the same pipeline."));
  }
}

}  // namespace tfcc::data
