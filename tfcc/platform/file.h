// Whole-file reads and crash-safe writes.
//
//   tfcc::write_file_atomic("/tmp/run/ckpt.index", bytes);  // readers see old or new, never half
//   std::string back = tfcc::read_file("/tmp/run/ckpt.index");
#pragma once

#include <string>
#include <string_view>

namespace tfcc {

/// Reads a whole file. Throws NotFoundError if it does not exist, PermissionDeniedError or
/// UnknownError on other failures.
std::string read_file(const std::string& path);

/// Writes `contents` to `path` atomically: a temporary file in the same directory is written,
/// fsync'ed, renamed over `path`, and the directory is fsync'ed. A crash at any point leaves either
/// the old file or the new one.
void write_file_atomic(const std::string& path, std::string_view contents);

/// True if `path` names an existing file or directory.
bool file_exists(const std::string& path);

/// Creates a directory and its parents (like `mkdir -p`).
void make_dirs(const std::string& path);

}  // namespace tfcc
