#include "tfcc/platform/file_set.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "tfcc/platform/crc32c.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc {
namespace {

namespace fs = std::filesystem;
constexpr std::string_view kMagic = "tfcc-file-set 1\n";

struct Entry {
  std::string final_name, staged_name;
  uint64_t size = 0;
  uint32_t crc = 0;
};

// The directory part of `path` including its last '/', so that dir + name spells paths the way
// the caller does.
std::string dir_prefix(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

// Names are stored %-escaped so that spaces and newlines in them cannot break the lines.
std::string escape(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c > ' ' && c < 0x7f && c != '%') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02x", c);
      out.append(buf);
    }
  }
  return out;
}

std::optional<std::string> unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    unsigned v = 0;
    if (i + 2 >= s.size()) return std::nullopt;
    auto [end, ec] = std::from_chars(s.data() + i + 1, s.data() + i + 3, v, 16);
    if (ec != std::errc() || end != s.data() + i + 3) return std::nullopt;
    out.push_back(static_cast<char>(v));
    i += 2;
  }
  return out;
}

std::string format_manifest(const std::vector<Entry>& entries) {
  std::string body(kMagic);
  for (const Entry& e : entries) {
    char tail[48];
    std::snprintf(tail, sizeof tail, " %llu %08x\n", static_cast<unsigned long long>(e.size),
                  e.crc);
    body.append(escape(e.final_name)).append(" ").append(escape(e.staged_name)).append(tail);
  }
  char sum[32];
  std::snprintf(sum, sizeof sum, "crc32c %08x\n", crc32c::value(body));
  return body + sum;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

template <typename T>
bool parse_number(std::string_view s, T* out, int base) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out, base);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

// nullopt for anything but a well-formed manifest whose own checksum holds.
std::optional<std::vector<Entry>> parse_manifest(std::string_view text) {
  if (text.size() < kMagic.size() || text.substr(0, kMagic.size()) != kMagic) return std::nullopt;
  if (text.empty() || text.back() != '\n') return std::nullopt;
  size_t last = text.rfind('\n', text.size() - 2);
  if (last == std::string_view::npos) return std::nullopt;
  std::string_view body = text.substr(0, last + 1);
  std::string_view sum = text.substr(last + 1, text.size() - last - 2);
  uint32_t crc = 0;
  if (sum.substr(0, 7) != "crc32c " || !parse_number(sum.substr(7), &crc, 16) ||
      crc != crc32c::value(body)) {
    return std::nullopt;
  }
  std::vector<Entry> entries;
  for (std::string_view line : split(body.substr(kMagic.size()), '\n')) {
    if (line.empty()) continue;
    auto f = split(line, ' ');
    if (f.size() != 4) return std::nullopt;
    Entry e;
    auto final_name = unescape(f[0]), staged_name = unescape(f[1]);
    if (!final_name || !staged_name || final_name->empty() || staged_name->empty() ||
        final_name->find('/') != std::string::npos || staged_name->find('/') != std::string::npos ||
        !parse_number(f[2], &e.size, 10) || !parse_number(f[3], &e.crc, 16)) {
      return std::nullopt;
    }
    e.final_name = std::move(*final_name);
    e.staged_name = std::move(*staged_name);
    entries.push_back(std::move(e));
  }
  return entries;
}

std::optional<std::string> read_if_present(const std::string& path) {
  try {
    return read_file(path);
  } catch (const Error&) {
    return std::nullopt;
  }
}

// An open descriptor of `path` if it holds `size` bytes with CRC32C `crc`, else -1.
int open_matching(const std::string& path, uint64_t size, uint32_t crc) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st {};
  bool ok =
      ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) == size;
  uint32_t c = 0;
  uint64_t at = 0;
  char buf[1 << 16];
  while (ok && at < size) {
    ssize_t n = ::pread(fd, buf, sizeof buf, static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ok = false;
    if (!ok) break;
    c = crc32c::extend(c, buf, static_cast<size_t>(n));
    at += static_cast<uint64_t>(n);
  }
  if (ok && at == size && c == crc) return fd;
  ::close(fd);
  return -1;
}

bool writer_gone(const std::string& staged_name, const std::string& final_name) {
  // `<final>.tmp.<pid>.<n>`
  if (staged_name.size() <= final_name.size() + 5 ||
      staged_name.compare(0, final_name.size() + 5, final_name + ".tmp.") != 0) {
    return false;
  }
  long pid = std::strtol(staged_name.c_str() + final_name.size() + 5, nullptr, 10);
  return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

// Finishes the commit of a writer killed after its manifest's rename: its staged files are
// renamed to their final names. Returns the staged names still in use by a live writer.
std::set<std::string> roll_forward(const std::string& manifest_path) {
  std::set<std::string> live;
  auto text = read_if_present(manifest_path);
  auto entries = text ? parse_manifest(*text) : std::nullopt;
  if (!entries) return live;
  const std::string dir = dir_prefix(manifest_path);
  for (const Entry& e : *entries) {
    const std::string staged = dir + e.staged_name;
    struct stat st {};
    if (::stat(staged.c_str(), &st) != 0) continue;
    if (!writer_gone(e.staged_name, e.final_name) || static_cast<uint64_t>(st.st_size) != e.size) {
      live.insert(e.staged_name);
      continue;
    }
    if (::rename(staged.c_str(), (dir + e.final_name).c_str()) != 0) live.insert(e.staged_name);
  }
  internal::sync_parent_directory(manifest_path);
  return live;
}

}  // namespace

// ---- FileSetCommit ------------------------------------------------------------------------------

FileSetCommit::FileSetCommit(std::string manifest_path) : manifest_path_(std::move(manifest_path)) {
  TFCC_CHECK_ARG(!manifest_path_.empty() && manifest_path_.back() != '/',
                 "FileSetCommit: bad manifest path '", manifest_path_, "'");
}

FileSetCommit::~FileSetCommit() {
  if (committed_) return;
  for (const Staged& s : files_) ::unlink(s.staged_path.c_str());
}

void FileSetCommit::add(const std::string& final_path, std::string_view contents) {
  TFCC_REQUIRE(FailedPreconditionError, !committed_, "FileSetCommit ", manifest_path_,
               ": add() after commit()");
  const std::string dir = dir_prefix(manifest_path_);
  TFCC_CHECK_ARG(final_path.size() > dir.size() && final_path.compare(0, dir.size(), dir) == 0 &&
                     final_path.find('/', dir.size()) == std::string::npos,
                 "FileSetCommit: ", final_path, " is not in the directory of ", manifest_path_);
  for (const Staged& s : files_) {
    TFCC_CHECK_ARG(s.final_path != final_path, "FileSetCommit: ", final_path, " added twice");
  }
  // A killed writer's commit is finished, then its other temporaries go (they may be what
  // filled the disk).
  if (files_.empty()) keep_ = roll_forward(manifest_path_);
  internal::remove_orphaned_temporaries(final_path, keep_);
  Staged s{final_path, internal::temporary_path(final_path), contents.size(),
           crc32c::value(contents)};
  internal::write_new_file_synced(s.staged_path, contents);
  files_.push_back(std::move(s));
}

void FileSetCommit::commit() {
  TFCC_REQUIRE(FailedPreconditionError, !committed_, "FileSetCommit ", manifest_path_,
               ": commit() called twice");
  const size_t dir = dir_prefix(manifest_path_).size();
  std::vector<Entry> entries;
  for (const Staged& s : files_) {
    entries.push_back({s.final_path.substr(dir), s.staged_path.substr(dir), s.size, s.crc});
  }
  write_file_atomic(manifest_path_, format_manifest(entries));  // the commit point
  committed_ = true;
  for (const Staged& s : files_) {
    if (::rename(s.staged_path.c_str(), s.final_path.c_str()) != 0) {
      internal::throw_errno("Could not rename to", s.final_path, errno);
    }
  }
  internal::sync_parent_directory(manifest_path_);
  for (const Staged& s : files_) internal::remove_orphaned_temporaries(s.final_path);
}

// ---- OpenedFileSet ------------------------------------------------------------------------------

OpenedFileSet::~OpenedFileSet() {
  for (auto& [name, fd] : fds_) {
    if (fd >= 0) ::close(fd);
  }
}

OpenedFileSet::OpenedFileSet(OpenedFileSet&& other) noexcept : fds_(std::move(other.fds_)) {
  other.fds_.clear();
}

OpenedFileSet& OpenedFileSet::operator=(OpenedFileSet&& other) noexcept {
  if (this != &other) {
    for (auto& [name, fd] : fds_) {
      if (fd >= 0) ::close(fd);
    }
    fds_ = std::move(other.fds_);
    other.fds_.clear();
  }
  return *this;
}

std::string OpenedFileSet::read(const std::string& final_path) const {
  auto it = fds_.find(final_path);
  if (it == fds_.end() || it->second < 0) {
    throw NotFoundError(internal::str_cat(final_path, " is not in the opened file set"));
  }
  std::string out;
  char buf[1 << 16];
  for (off_t at = 0;;) {
    ssize_t n = ::pread(it->second, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) internal::throw_errno("Could not read", final_path, errno);
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
    at += n;
  }
  return out;
}

int OpenedFileSet::take(const std::string& final_path) {
  auto it = fds_.find(final_path);
  if (it == fds_.end()) return -1;
  int fd = it->second;
  fds_.erase(it);
  return fd;
}

std::optional<OpenedFileSet> open_file_set(const std::string& manifest_path) {
  const std::string dir = dir_prefix(manifest_path);
  std::optional<std::string> text = read_if_present(manifest_path);
  // A writer may commit between reading the manifest and opening its files: then the files
  // named by the old manifest can be gone, and the new manifest is read again.
  for (int attempt = 0; text && attempt < 4; ++attempt) {
    auto entries = parse_manifest(*text);
    if (!entries) return std::nullopt;
    OpenedFileSet set;
    bool complete = true;
    for (const Entry& e : *entries) {
      // The staged name first: a rename moves it to the final name, never back.
      int fd = open_matching(dir + e.staged_name, e.size, e.crc);
      if (fd < 0) fd = open_matching(dir + e.final_name, e.size, e.crc);
      if (fd < 0) {
        complete = false;
        break;
      }
      set.fds_[dir + e.final_name] = fd;
    }
    if (complete) return set;
    std::optional<std::string> again = read_if_present(manifest_path);
    if (again == text) return std::nullopt;  // damaged, or overwritten by another program
    text = std::move(again);
  }
  return std::nullopt;
}

void remove_orphaned_temporaries_in(const std::string& directory, const std::string& name_prefix) {
  std::error_code ec;
  std::set<std::string> keep, bases;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > 9 && name.compare(name.size() - 9, 9, ".manifest") == 0 &&
        name.find(".tmp.") == std::string::npos) {
      keep.merge(roll_forward(it->path().string()));
    }
    size_t at = name.find(".tmp.");
    if (name.compare(0, name_prefix.size(), name_prefix) == 0 && at != std::string::npos) {
      bases.insert(name.substr(0, at));
    }
  }
  for (const std::string& base : bases) {
    internal::remove_orphaned_temporaries((fs::path(directory) / base).string(), keep);
  }
}

// ---- DirectoryCommit ----------------------------------------------------------------------------

DirectoryCommit::DirectoryCommit(std::string final_dir, const std::set<std::string>& replaceable)
    : final_(std::move(final_dir)) {
  while (final_.size() > 1 && final_.back() == '/') final_.pop_back();
  TFCC_CHECK_ARG(!final_.empty() && final_ != "/" && final_ != "." && final_ != "..",
                 "Cannot replace the directory '", final_, "' as a whole");
  std::error_code ec;
  if (fs::exists(final_, ec)) {
    TFCC_REQUIRE(FailedPreconditionError, fs::is_directory(final_, ec), final_,
                 " exists and is not a directory");
    for (const auto& entry : fs::directory_iterator(final_, ec)) {
      std::string name = entry.path().filename().string();
      TFCC_REQUIRE(FailedPreconditionError, replaceable.count(name), "Refusing to replace ", final_,
                   ": it holds '", name,
                   "', which this save does not write (remove it or save elsewhere)");
    }
  }
  fs::path parent = fs::path(final_).parent_path();
  if (!parent.empty()) make_dirs(parent.string());
  internal::remove_orphaned_temporaries(final_);
  staged_ = internal::temporary_path(final_);
  if (::mkdir(staged_.c_str(), 0755) != 0) {
    internal::throw_errno("Could not create directory", staged_, errno);
  }
}

DirectoryCommit::~DirectoryCommit() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(staged_, ec);
}

void DirectoryCommit::commit() {
  TFCC_REQUIRE(FailedPreconditionError, !committed_, "DirectoryCommit ", final_,
               ": commit() called twice");
  // Every file below the staging directory is already fsync'ed by its writer; the directory
  // entries are made durable here.
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(staged_, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory(ec)) internal::sync_parent_directory(it->path().string() + "/x");
  }
  internal::sync_parent_directory(staged_ + "/x");
  const std::string prev = final_ + ".prev";
  if (!fs::exists(final_, ec)) {
    if (::rename(staged_.c_str(), final_.c_str()) != 0) {
      internal::throw_errno("Could not rename to", final_, errno);
    }
  } else if (::renameat2(AT_FDCWD, staged_.c_str(), AT_FDCWD, final_.c_str(), RENAME_EXCHANGE) !=
             0) {
    int err = errno;
    if (err != EINVAL && err != ENOSYS && err != EOPNOTSUPP) {
      internal::throw_errno("Could not exchange with", final_, err);
    }
    // No atomic exchange here: the old directory stays complete under `.prev` until the new one
    // is in place, and committed_directory() falls back to it.
    fs::remove_all(prev, ec);
    if (::rename(final_.c_str(), prev.c_str()) != 0) {
      internal::throw_errno("Could not rename to", prev, errno);
    }
    if (::rename(staged_.c_str(), final_.c_str()) != 0) {
      internal::throw_errno("Could not rename to", final_, errno);
    }
  }
  committed_ = true;
  internal::sync_parent_directory(final_);
  fs::remove_all(staged_, ec);  // the old content, after an exchange
  fs::remove_all(prev, ec);
}

std::string committed_directory(const std::string& dir) {
  std::string d = dir;
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  std::error_code ec;
  if (!fs::exists(d, ec) && fs::is_directory(d + ".prev", ec)) return d + ".prev";
  return dir;
}

}  // namespace tfcc
