#include "tfcc/platform/file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "tfcc/platform/errors.h"

namespace tfcc {
namespace {

[[noreturn]] void throw_errno(const std::string& what, const std::string& path, int err) {
  std::string msg = internal::str_cat(what, " ", path, ": ", std::strerror(err));
  if (err == ENOENT) throw NotFoundError(msg);
  if (err == EACCES || err == EPERM) throw PermissionDeniedError(msg);
  if (err == ENOSPC) throw ResourceExhaustedError(msg);
  throw UnknownError(msg);
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string read_file(const std::string& path) {
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) throw_errno("Could not open", path, errno);
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw_errno("Could not stat", path, errno);
  if (S_ISDIR(st.st_mode)) throw FailedPreconditionError(path + " is a directory, not a file");
  std::string out;
  char chunk[1 << 16];
  for (;;) {
    ssize_t n = ::read(f.fd, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("Could not read", path, errno);
    }
    if (n == 0) break;
    out.append(chunk, static_cast<size_t>(n));
  }
  return out;
}

void write_file_atomic(const std::string& path, std::string_view contents) {
  static std::atomic<uint64_t> counter{0};
  std::filesystem::path target(path);
  std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  std::string tmp = internal::str_cat(path, ".tmp.", ::getpid(), ".", counter++);
  {
    Fd f{::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)};
    if (f.fd < 0) throw_errno("Could not create", tmp, errno);
    size_t done = 0;
    while (done < contents.size()) {
      ssize_t n = ::write(f.fd, contents.data() + done, contents.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        int err = errno;
        ::unlink(tmp.c_str());
        throw_errno("Could not write", tmp, err);
      }
      done += static_cast<size_t>(n);
    }
    if (::fsync(f.fd) != 0) {
      int err = errno;
      ::unlink(tmp.c_str());
      throw_errno("Could not fsync", tmp, err);
    }
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    throw_errno("Could not rename to", path, err);
  }
  Fd d{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (d.fd >= 0) ::fsync(d.fd);  // best effort: some file systems refuse fsync on directories
}

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

void make_dirs(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec)
    throw UnknownError(internal::str_cat("Could not create directory ", path, ": ", ec.message()));
}

}  // namespace tfcc
