// Whole-file reads and crash-safe writes.
//
//   tfcc::write_file_atomic("/tmp/run/ckpt.index", bytes);  // readers see old or new, never half
//   std::string back = tfcc::read_file("/tmp/run/ckpt.index");
//
// Writers name their temporaries `<path>.tmp.<pid>.<n>`; a writer killed before its rename leaves
// one behind, and the next writer of the same path removes it (once process <pid> is gone).
// Sets of files that must change together: file_set.h.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <set>
#include <string>
#include <string_view>

namespace tfcc {

/// Reads a whole file. Throws NotFoundError if it does not exist, PermissionDeniedError or
/// UnknownError on other failures.
std::string read_file(const std::string& path);

/// Writes `contents` to `path` atomically: a temporary file in the same directory is written,
/// fsync'ed, renamed over `path`, and the directory is fsync'ed. A crash at any point leaves either
/// the old file or the new one. Temporaries of killed earlier writers of `path` are removed.
/// A full disk raises ResourceExhaustedError and leaves the old file.
void write_file_atomic(const std::string& path, std::string_view contents);

/// True if `path` names an existing file or directory.
bool file_exists(const std::string& path);

/// Creates a directory and its parents (like `mkdir -p`).
void make_dirs(const std::string& path);

namespace internal {

/// A fresh temporary name beside `path`: `<path>.tmp.<pid>.<n>`.
std::string temporary_path(const std::string& path);
/// Removes the temporaries `<path>.tmp.<pid>.<n>` (files or directories) whose process no longer
/// runs, except the base names in `keep`. Best effort: errors are ignored.
void remove_orphaned_temporaries(const std::string& path, const std::set<std::string>& keep = {});
/// Creates `path` (which must not exist), writes `contents` and fsyncs it; on failure removes it
/// and throws (ResourceExhaustedError for a full disk or a file size limit).
void write_new_file_synced(const std::string& path, std::string_view contents);
/// fsyncs the directory holding `path` (best effort: some file systems refuse).
void sync_parent_directory(const std::string& path);
/// Throws the tfcc error for `err` (NotFoundError, PermissionDeniedError,
/// ResourceExhaustedError, UnknownError) with "<what> <path>: <strerror>".
[[noreturn]] void throw_errno(const std::string& what, const std::string& path, int err);

}  // namespace internal
}  // namespace tfcc
#pragma GCC visibility pop
