#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/checkpoint/string_tensor.h"
#include "tfcc/io/checkpoint/table.h"
#include "tfcc/platform/crc32c.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/file_set.h"
#include "tfcc/platform/limits.h"

namespace tfcc::checkpoint {
namespace {

// The largest shard count a reader accepts; TensorFlow's own writers use one shard per device.
constexpr int32_t kMaxShards = 1 << 16;

int64_t shard_size(int fd, const std::string& name) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    throw UnknownError(internal::str_cat("Could not stat ", name, ": ", std::strerror(errno)));
  }
  return static_cast<int64_t>(st.st_size);
}

}  // namespace

BundleReader::BundleReader(std::string prefix) : prefix_(std::move(prefix)) {
  const std::string index_name = index_filename(prefix_);
  // The committed pair when a manifest names one (it survives a writer killed mid-commit),
  // else the files by name (older tfcc, TensorFlow).
  std::optional<OpenedFileSet> set = open_file_set(manifest_filename(prefix_));
  std::string index;
  try {
    index = set && set->contains(index_name) ? set->read(index_name) : read_file(index_name);
  } catch (const NotFoundError&) {
    throw NotFoundError(
        internal::str_cat("Unsuccessful TensorSliceReader constructor: Failed to "
                          "find any matching files for ",
                          prefix_, " (no ", index_name, ")"));
  }
  auto table = read_table(index, index_name);
  auto context = [&](const std::string& key) {
    return internal::str_cat("Corrupt checkpoint index ", index_name, ", key '", quote_input(key),
                             "'");
  };
  if (table.empty() || !table.front().first.empty()) {
    throw DataLossError(internal::str_cat("Corrupt checkpoint index ", index_name,
                                          ": no bundle header (empty key)"));
  }
  header_ = decode_header(table.front().second, context(""));
  if (header_.num_shards < 1 || header_.num_shards > kMaxShards) {
    throw DataLossError(internal::str_cat(context(""), ": bad num_shards ", header_.num_shards));
  }
  if (header_.endianness != 0) {
    throw UnimplementedError(internal::str_cat(
        "Checkpoint ", prefix_, " was written on a big-endian machine; tfcc reads little-endian"));
  }
  if (header_.min_consumer > kBundleVersion) {
    throw FailedPreconditionError(
        internal::str_cat("Checkpoint ", prefix_, " needs a reader of bundle version ",
                          header_.min_consumer, " or newer; tfcc reads version ", kBundleVersion));
  }
  for (int32_t bad : header_.bad_consumers) {
    if (bad == kBundleVersion) {
      throw FailedPreconditionError(internal::str_cat(
          "Checkpoint ", prefix_, " disallows readers of bundle version ", kBundleVersion));
    }
  }

  std::set<int32_t> shards;
  for (size_t i = 1; i < table.size(); ++i) {
    const std::string& key = table[i].first;
    BundleEntry e = decode_entry(table[i].second, context(key));
    if (e.shard_id >= header_.num_shards) {
      throw DataLossError(internal::str_cat(context(key), ": shard_id ", e.shard_id,
                                            " but the bundle has ", header_.num_shards));
    }
    size_t elem = tf_dtype_size(e.dtype);
    if (elem == 0 && e.dtype != kDtString) {
      throw DataLossError(internal::str_cat(context(key), ": unknown dtype ", e.dtype));
    }
    int64_t n = 1;
    for (int64_t d : e.shape) n *= d;  // overflow already excluded by decode_entry
    int64_t expect = 0;
    if (elem != 0 && (__builtin_mul_overflow(n, static_cast<int64_t>(elem), &expect) ||
                      (!e.has_slices && expect != e.size))) {
      throw DataLossError(internal::str_cat(context(key), ": size ", e.size, " does not match a ",
                                            tf_dtype_name(e.dtype), " tensor of ", n, " elements"));
    }
    shards.insert(e.shard_id);
    entries_.emplace(key, std::move(e));
  }

  shard_fds_.assign(static_cast<size_t>(header_.num_shards), -1);
  for (int32_t s : shards) {
    std::string name = data_filename(prefix_, s, header_.num_shards);
    int fd =
        set && set->contains(name) ? set->take(name) : ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      throw DataLossError(internal::str_cat("Checkpoint ", prefix_, ": cannot open data file ",
                                            name, ": ", std::strerror(errno)));
    }
    shard_fds_[static_cast<size_t>(s)] = fd;
    int64_t size = shard_size(fd, name);
    for (const auto& [key, e] : entries_) {
      if (e.shard_id != s || e.has_slices) continue;
      if (e.offset > size || e.size > size - e.offset) {
        throw DataLossError(internal::str_cat("Checkpoint data file ", name, " is truncated: key '",
                                              key, "' needs bytes [", e.offset, ", ",
                                              e.offset + e.size, ") but the file has ", size));
      }
    }
  }
}

BundleReader::~BundleReader() {
  for (int fd : shard_fds_) {
    if (fd >= 0) ::close(fd);
  }
}

std::vector<std::string> BundleReader::keys() const {
  std::vector<std::string> out;
  out.reserve(entries_.size());
  for (const auto& [key, e] : entries_) out.push_back(key);
  return out;
}

const BundleEntry& BundleReader::entry(const std::string& key) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    throw NotFoundError(internal::str_cat("Key ", key, " not found in checkpoint ", prefix_));
  }
  return it->second;
}

void BundleReader::fail(const std::string& key, const std::string& what) const {
  throw DataLossError(internal::str_cat(
      "Checkpoint ", data_filename(prefix_, entry(key).shard_id, header_.num_shards), ", key '",
      quote_input(key), "': ", what));
}

std::string BundleReader::read_bytes(const std::string& key, const BundleEntry& e) const {
  if (e.has_slices) {
    throw UnimplementedError(internal::str_cat("Checkpoint ", prefix_, ": key '", key,
                                               "' is a partitioned (sliced) variable, which tfcc "
                                               "does not read"));
  }
  std::string out(static_cast<size_t>(e.size), '\0');
  int fd = shard_fds_[static_cast<size_t>(e.shard_id)];
  size_t done = 0;
  while (done < out.size()) {
    ssize_t n = ::pread(fd, out.data() + done, out.size() - done,
                        static_cast<off_t>(e.offset) + static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(key, internal::str_cat("read failed: ", std::strerror(errno)));
    if (n == 0) fail(key, "unexpected end of file (truncated)");
    done += static_cast<size_t>(n);
  }
  return out;
}

Tensor BundleReader::read_tensor(const std::string& key) const {
  const BundleEntry& e = entry(key);
  if (e.dtype == kDtString) return Tensor::from_strings(read_strings(key), Shape(e.shape));
  auto dtype = dtype_from_tf(e.dtype);
  if (!dtype) {
    throw UnimplementedError(internal::str_cat("Checkpoint ", prefix_, ": key '", key, "' holds a ",
                                               tf_dtype_name(e.dtype),
                                               " tensor, which tfcc cannot represent"));
  }
  std::string bytes = read_bytes(key, e);
  if (crc32c::value(bytes) != crc32c::unmask(e.crc32c)) fail(key, "checksum mismatch");
  if (*dtype == bool_) {
    for (char c : bytes) {
      if (c != 0 && c != 1) fail(key, "bool element is neither 0 nor 1");
    }
  }
  return Tensor::from_bytes(*dtype, Shape(e.shape), bytes.data(), bytes.size());
}

std::vector<std::string> BundleReader::read_strings(const std::string& key) const {
  const BundleEntry& e = entry(key);
  if (e.dtype != kDtString) {
    throw InvalidArgumentError(internal::str_cat("Checkpoint ", prefix_, ": key '", key, "' holds ",
                                                 tf_dtype_name(e.dtype), ", not string"));
  }
  std::string bytes = read_bytes(key, e);
  uint64_t n = 1;
  for (int64_t d : e.shape) n *= static_cast<uint64_t>(d);
  return decode_string_tensor(
      bytes, n, e.crc32c,
      internal::str_cat("Checkpoint ", data_filename(prefix_, e.shard_id, header_.num_shards),
                        ", key '", key, "'"));
}

}  // namespace tfcc::checkpoint
