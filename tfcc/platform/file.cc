#include "tfcc/platform/file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "tfcc/platform/errors.h"

namespace tfcc {
namespace {

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// The pid of a temporary named `<base>.tmp.<pid>.<n>`, or 0 if `name` is not one.
long temporary_pid(std::string_view name, std::string_view base) {
  if (name.size() <= base.size() + 5 || name.substr(0, base.size()) != base) return 0;
  std::string_view rest = name.substr(base.size());
  if (rest.substr(0, 5) != ".tmp.") return 0;
  rest.remove_prefix(5);
  size_t dot = rest.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == rest.size()) return 0;
  long pid = 0;
  auto [end, ec] = std::from_chars(rest.data(), rest.data() + dot, pid);
  if (ec != std::errc() || end != rest.data() + dot || pid <= 0) return 0;
  std::string_view n = rest.substr(dot + 1);
  if (n.find_first_not_of("0123456789") != std::string_view::npos) return 0;
  return pid;
}

bool process_gone(long pid) { return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH; }

}  // namespace

namespace internal {

void throw_errno(const std::string& what, const std::string& path, int err) {
  std::string msg = internal::str_cat(what, " ", path, ": ", std::strerror(err));
  if (err == ENOENT) throw NotFoundError(msg);
  if (err == EACCES || err == EPERM) throw PermissionDeniedError(msg);
  if (err == ENOSPC || err == EDQUOT || err == EFBIG) throw ResourceExhaustedError(msg);
  throw UnknownError(msg);
}

std::string temporary_path(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  return internal::str_cat(path, ".tmp.", ::getpid(), ".", counter++);
}

void remove_orphaned_temporaries(const std::string& path, const std::set<std::string>& keep) {
  namespace fs = std::filesystem;
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string base = target.filename().string();
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    long pid = temporary_pid(name, base);
    if (pid == 0 || keep.count(name) || !process_gone(pid)) continue;
    std::error_code ignored;
    fs::remove_all(it->path(), ignored);
  }
}

void write_new_file_synced(const std::string& path, std::string_view contents) {
  Fd f{::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)};
  if (f.fd < 0) throw_errno("Could not create", path, errno);
  auto fail = [&](const char* what) {
    int err = errno;
    ::unlink(path.c_str());
    throw_errno(what, path, err);
  };
  size_t done = 0;
  while (done < contents.size()) {
    ssize_t n = ::write(f.fd, contents.data() + done, contents.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("Could not write");
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(f.fd) != 0) fail("Could not fsync");
  int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0) fail("Could not close");
}

void sync_parent_directory(const std::string& path) {
  std::filesystem::path p(path);
  std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  Fd d{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (d.fd >= 0) ::fsync(d.fd);
}

}  // namespace internal

std::string read_file(const std::string& path) {
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) internal::throw_errno("Could not open", path, errno);
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) internal::throw_errno("Could not stat", path, errno);
  if (S_ISDIR(st.st_mode)) throw FailedPreconditionError(path + " is a directory, not a file");
  std::string out;
  char chunk[1 << 16];
  for (;;) {
    ssize_t n = ::read(f.fd, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      internal::throw_errno("Could not read", path, errno);
    }
    if (n == 0) break;
    out.append(chunk, static_cast<size_t>(n));
  }
  return out;
}

void write_file_atomic(const std::string& path, std::string_view contents) {
  internal::remove_orphaned_temporaries(path);
  std::string tmp = internal::temporary_path(path);
  internal::write_new_file_synced(tmp, contents);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    internal::throw_errno("Could not rename to", path, err);
  }
  internal::sync_parent_directory(path);  // some file systems refuse fsync on directories
}

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

void make_dirs(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) internal::throw_errno("Could not create directory", path, ec.value());
}

}  // namespace tfcc
