#include <cstdio>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/checkpoint/string_tensor.h"
#include "tfcc/io/checkpoint/table.h"
#include "tfcc/platform/crc32c.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/file_set.h"

namespace tfcc::checkpoint {

std::string index_filename(const std::string& prefix) {
  std::string out = prefix;
  out.append(".index");
  return out;
}

std::string data_filename(const std::string& prefix, int shard, int num_shards) {
  char suffix[48];
  std::snprintf(suffix, sizeof suffix, ".data-%05d-of-%05d", shard, num_shards);
  std::string out = prefix;
  out.append(suffix);
  return out;
}

std::string manifest_filename(const std::string& prefix) {
  std::string out = prefix;
  out.append(".manifest");
  return out;
}

bool bundle_exists(const std::string& prefix) {
  return file_exists(index_filename(prefix)) || file_exists(manifest_filename(prefix));
}

BundleWriter::BundleWriter(std::string prefix) : prefix_(std::move(prefix)) {
  TFCC_CHECK_ARG(!prefix_.empty(), "BundleWriter: the checkpoint prefix is empty");
}

void BundleWriter::check_key(const std::string& key) const {
  TFCC_REQUIRE(FailedPreconditionError, !finished_, "BundleWriter for ", prefix_,
               ": add() after finish()");
  TFCC_CHECK_ARG(!key.empty(), "BundleWriter for ", prefix_,
                 ": the empty key is reserved for the bundle header");
  TFCC_CHECK_ARG(tensors_.count(key) == 0, "BundleWriter for ", prefix_, ": key '", key,
                 "' was added twice");
}

void BundleWriter::add(const std::string& key, const Tensor& tensor) {
  check_key(key);
  TFCC_CHECK_ARG(tensor.defined() && !tensor.is_symbolic(), "BundleWriter for ", prefix_, ": key '",
                 key, "' needs a concrete tensor");
  if (tensor.dtype() == DType::kString) {  // stored as TensorFlow stores DT_STRING
    tensors_[key] = Pending{Tensor(), tensor.shape(), tensor.to_vector<std::string>(), true};
    return;
  }
  tensors_[key] = Pending{tensor, tensor.shape(), {}, false};
}

void BundleWriter::add_strings(const std::string& key, const Shape& shape,
                               const std::vector<std::string>& values) {
  check_key(key);
  TFCC_CHECK_ARG(static_cast<int64_t>(values.size()) == shape.num_elements(), "BundleWriter for ",
                 prefix_, ": key '", key, "' has ", values.size(), " strings for shape ",
                 shape.to_string());
  tensors_[key] = Pending{Tensor(), shape, values, true};
}

void BundleWriter::finish() {
  TFCC_REQUIRE(FailedPreconditionError, !finished_, "BundleWriter for ", prefix_,
               ": finish() called twice");
  finished_ = true;
  std::string data;
  TableBuilder table;
  table.add("", encode_header(BundleHeader{}));
  for (const auto& [key, p] : tensors_) {
    BundleEntry e;
    e.shape = p.shape.dims();
    e.offset = static_cast<int64_t>(data.size());
    uint32_t crc = 0;
    if (p.is_string) {
      e.dtype = kDtString;
      crc = append_string_tensor(data, p.strings);
    } else {
      e.dtype = tf_datatype(p.tensor.dtype());
      const char* bytes = static_cast<const char*>(p.tensor.raw_data());
      size_t n = p.tensor.nbytes();
      if (n) data.append(bytes, n);
      crc = crc32c::value(bytes, n);
    }
    e.size = static_cast<int64_t>(data.size()) - e.offset;
    e.crc32c = crc32c::mask(crc);
    table.add(key, encode_entry(e));
  }
  // One set: a kill between the two renames must not pair new data with an old index. The data
  // is renamed first and the index last, as TensorFlow does, for readers that ignore manifests.
  FileSetCommit commit(manifest_filename(prefix_));
  commit.add(data_filename(prefix_, 0, 1), data);
  commit.add(index_filename(prefix_), table.finish());
  commit.commit();
}

}  // namespace tfcc::checkpoint
