#include "tfcc/io/record/byte_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "tfcc/platform/errors.h"
#include "tfcc/platform/limits.h"

namespace tfcc::io::internal {
namespace {

constexpr size_t kBufferSize = 1 << 18;

[[noreturn]] void throw_errno(const char* what, const std::string& path, int err) {
  std::string msg = tfcc::internal::str_cat(what, " ", path, ": ", std::strerror(err));
  if (err == ENOENT) throw NotFoundError(msg);
  if (err == EACCES || err == EPERM) throw PermissionDeniedError(msg);
  if (err == ENOSPC) throw ResourceExhaustedError(msg);
  throw UnknownError(msg);
}

class FileSink final : public ByteSink {
 public:
  explicit FileSink(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw_errno("Could not create", path, errno);
    buffer_.reserve(kBufferSize);
  }
  ~FileSink() override {
    if (fd_ >= 0) {
      try {
        flush();
      } catch (const Error&) {  // a destructor cannot report it; close() does
      }
      ::close(fd_);
    }
  }

  void append(std::string_view data) override {
    check_open();
    if (buffer_.size() + data.size() > kBufferSize) flush();
    if (data.size() >= kBufferSize) {
      write_all(data);
    } else {
      buffer_.append(data);
    }
  }
  void flush() override {
    check_open();
    if (!buffer_.empty()) write_all(buffer_);
    buffer_.clear();
  }
  void sync() override {
    flush();
    if (::fdatasync(fd_) != 0) throw_errno("Could not sync", path_, errno);
  }
  void close() override {
    if (fd_ < 0) return;
    flush();
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw_errno("Could not close", path_, errno);
  }

 private:
  void check_open() const {
    if (fd_ < 0) throw FailedPreconditionError(path_ + " is already closed");
  }
  void write_all(std::string_view data) {
    while (!data.empty()) {
      ssize_t n = ::write(fd_, data.data(), data.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        throw_errno("Could not write", path_, errno);
      }
      data.remove_prefix(static_cast<size_t>(n));
    }
  }

  std::string path_;
  int fd_ = -1;
  std::string buffer_;
};

// Deflates into a FileSink. window bits 15 = zlib header, 15 + 16 = gzip header (zlib's rule).
class ZlibSink final : public ByteSink {
 public:
  ZlibSink(const std::string& path, bool gzip, int level) : path_(path), file_(path) {
    TFCC_CHECK_ARG(level >= -1 && level <= 9, "compression_level must be in [-1, 9], got ", level);
    if (deflateInit2(&z_, level, Z_DEFLATED, gzip ? 15 + 16 : 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      throw ResourceExhaustedError("Could not initialise zlib to write " + path);
    }
    out_.resize(1 << 16);
  }
  ~ZlibSink() override {
    if (!closed_) {
      try {
        close();
      } catch (const Error&) {
      }
    }
    deflateEnd(&z_);
  }

  void append(std::string_view data) override {
    if (closed_) throw FailedPreconditionError(path_ + " is already closed");
    deflate_all(data, Z_NO_FLUSH);
  }
  void flush() override {
    if (closed_) throw FailedPreconditionError(path_ + " is already closed");
    deflate_all({}, Z_SYNC_FLUSH);
    file_.flush();
  }
  void sync() override {
    flush();
    file_.sync();
  }
  void close() override {
    if (closed_) return;
    closed_ = true;
    deflate_all({}, Z_FINISH);
    file_.close();
  }

 private:
  void deflate_all(std::string_view data, int mode) {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z_.avail_in = 0;
    size_t left = data.size();
    for (;;) {
      if (z_.avail_in == 0 && left > 0) {
        uInt chunk = static_cast<uInt>(std::min<size_t>(left, 1u << 30));
        z_.avail_in = chunk;
        left -= chunk;
      }
      z_.next_out = reinterpret_cast<Bytef*>(out_.data());
      z_.avail_out = static_cast<uInt>(out_.size());
      int flush = left > 0 ? Z_NO_FLUSH : mode;
      int rc = deflate(&z_, flush);
      if (rc == Z_STREAM_ERROR) throw InternalError("zlib deflate failed writing " + path_);
      file_.append(std::string_view(out_.data(), out_.size() - z_.avail_out));
      if (left == 0 && z_.avail_in == 0) {
        if (mode == Z_NO_FLUSH) return;
        if (mode == Z_FINISH ? rc == Z_STREAM_END : z_.avail_out != 0) return;
      }
    }
  }

  std::string path_;
  FileSink file_;
  z_stream z_{};
  std::vector<char> out_;
  bool closed_ = false;
};

class FileSource final : public ByteSource {
 public:
  explicit FileSource(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw_errno("Could not open", path, errno);
    struct stat st {};
    bool have_stat = ::fstat(fd_, &st) == 0;
    if (have_stat && S_ISDIR(st.st_mode)) {
      ::close(fd_);
      fd_ = -1;
      throw FailedPreconditionError(path + " is a directory, not a file");
    }
    // Small files get a small buffer (event files are often a few kilobytes); +1 so one read
    // also sees the end of the file.
    file_size_ = have_stat && st.st_size >= 0 ? static_cast<uint64_t>(st.st_size) : 0;
    size_t size = have_stat && st.st_size >= 0 ? static_cast<size_t>(st.st_size) + 1 : kBufferSize;
    buffer_.resize(std::clamp<size_t>(size, 4096, kBufferSize));
  }
  ~FileSource() override {
    if (fd_ >= 0) ::close(fd_);
  }

  uint64_t file_size() const { return file_size_; }

  size_t read(char* dst, size_t n) override {
    size_t done = 0;
    while (done < n) {
      if (pos_ == end_) {
        if (eof_ || !refill()) break;
      }
      size_t take = std::min(n - done, end_ - pos_);
      std::memcpy(dst + done, buffer_.data() + pos_, take);
      pos_ += take;
      done += take;
    }
    return done;
  }

 private:
  bool refill() {
    for (;;) {
      ssize_t got = ::read(fd_, buffer_.data(), buffer_.size());
      if (got < 0) {
        if (errno == EINTR) continue;
        throw_errno("Could not read", path_, errno);
      }
      pos_ = 0;
      end_ = static_cast<size_t>(got);
      if (got == 0) eof_ = true;
      return got > 0;
    }
  }

  std::string path_;
  int fd_ = -1;
  uint64_t file_size_ = 0;
  std::vector<char> buffer_;
  size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
};

// Inflates a FileSource. 15 + 32 lets zlib detect a zlib or gzip header; the type still decides
// which one is accepted, as in TensorFlow. Concatenated gzip members are read one after another.
class ZlibSource final : public ByteSource {
 public:
  ZlibSource(const std::string& path, bool gzip) : path_(path), file_(path) {
    if (inflateInit2(&z_, gzip ? 15 + 16 : 15) != Z_OK) {
      throw ResourceExhaustedError("Could not initialise zlib to read " + path);
    }
    in_.resize(1 << 16);
  }
  ~ZlibSource() override { inflateEnd(&z_); }

  uint64_t output_limit() const override { return max_decompressed_size(file_.file_size()); }

  size_t read(char* dst, size_t n) override {
    size_t done = 0;
    while (done < n && !finished_) {
      if (z_.avail_in == 0) {
        size_t got = file_.read(in_.data(), in_.size());
        if (got == 0) {
          if (!at_member_start_) {
            throw DataLossError(
                tfcc::internal::str_cat(path_, ": truncated compressed stream after ",
                                        z_.total_in + consumed_before_, " compressed bytes"));
          }
          finished_ = true;
          break;
        }
        z_.next_in = reinterpret_cast<Bytef*>(in_.data());
        z_.avail_in = static_cast<uInt>(got);
      }
      size_t want = std::min<size_t>(n - done, 1u << 30);
      z_.next_out = reinterpret_cast<Bytef*>(dst + done);
      z_.avail_out = static_cast<uInt>(want);
      at_member_start_ = false;
      int rc = inflate(&z_, Z_NO_FLUSH);
      done += want - z_.avail_out;
      if (rc == Z_STREAM_END) {
        consumed_before_ += z_.total_in;
        inflateReset(&z_);
        at_member_start_ = true;
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        throw DataLossError(tfcc::internal::str_cat(path_, ": corrupt compressed data near byte ",
                                                    z_.total_in + consumed_before_,
                                                    " (zlib: ", z_.msg ? z_.msg : "error", ")"));
      }
    }
    return done;
  }

 private:
  std::string path_;
  FileSource file_;
  z_stream z_{};
  std::vector<char> in_;
  uint64_t consumed_before_ = 0;
  bool at_member_start_ = true;
  bool finished_ = false;
};

}  // namespace

std::unique_ptr<ByteSink> open_sink(const std::string& path, CompressionType type, int level) {
  if (type == CompressionType::kNone) return std::make_unique<FileSink>(path);
  return std::make_unique<ZlibSink>(path, type == CompressionType::kGzip, level);
}

std::unique_ptr<ByteSource> open_source(const std::string& path, CompressionType type) {
  if (type == CompressionType::kNone) return std::make_unique<FileSource>(path);
  return std::make_unique<ZlibSource>(path, type == CompressionType::kGzip);
}

}  // namespace tfcc::io::internal
