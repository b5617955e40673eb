// Sets of files that change together: after a crash at any instant, readers find the complete
// old set or the complete new one, never a mix.
//
//   FileSetCommit commit("/run/w.manifest");           // the set's manifest
//   commit.add("/run/w.data-00000-of-00001", data);    // staged beside the final name, fsync'ed
//   commit.add("/run/w.index", index);
//   commit.commit();                                   // one atomic step makes the set current
//
//   if (auto set = open_file_set("/run/w.manifest")) {  // nullopt: no usable manifest
//     std::string index = set->read("/run/w.index");   // exactly the committed bytes
//   }
//
//   DirectoryCommit dir("/run/model", {"config.json", "variables"});
//   write_everything_into(dir.path());                 // a fresh directory beside the old one
//   dir.commit();                                      // swapped in atomically
//   load_from(committed_directory("/run/model"));
//
// How a file set commits. Each file is first written under a temporary name beside its final
// name (`<final>.tmp.<pid>.<n>`) and fsync'ed. Then the manifest, a small text file naming every
// file of the set with its staged name, size and CRC32C, is written atomically (temporary file +
// rename): that rename is the commit point. Then each staged file is renamed to its final name.
// A reader opens each file under its staged name, or if that is gone under its final name, and
// keeps it only if its size and CRC32C are the manifest's; a crash before the manifest's rename
// leaves the old manifest and the old files, a crash after it leaves every new file under one of
// its two names. The final names stay those other tools read (TensorFlow reads `P.index` and
// `P.data-*`), and hold the new set once commit() returns. When the manifest is absent, damaged,
// or names bytes no file holds (the files were written by another program), readers use the
// final names as they are. The next writer of a set finishes the renames of a writer killed
// after its commit point and removes the other temporaries of killed writers.
// One writer per set at a time.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tfcc {

/// Writes a set of files, all in the directory of their manifest, as one atomic change.
class FileSetCommit {
 public:
  /// `manifest_path` names the set; its files must lie in the same directory.
  explicit FileSetCommit(std::string manifest_path);
  /// Removes staged files of a set that was not committed.
  ~FileSetCommit();
  FileSetCommit(const FileSetCommit&) = delete;
  FileSetCommit& operator=(const FileSetCommit&) = delete;

  /// Writes `contents` under a temporary name beside `final_path` and fsyncs it. A full disk
  /// raises ResourceExhaustedError (the current set is untouched).
  void add(const std::string& final_path, std::string_view contents);
  /// Makes the added files current (see the overview), then removes orphaned temporaries.
  void commit();

 private:
  struct Staged {
    std::string final_path, staged_path;
    uint64_t size = 0;
    uint32_t crc = 0;
  };
  std::string manifest_path_;
  std::vector<Staged> files_;
  std::set<std::string> keep_;  // staged names of a live writer of the same set
  bool committed_ = false;
};

/// The files of a committed set, opened read-only; each descriptor holds exactly the committed
/// bytes (size and CRC32C checked), wherever the file lies now.
class OpenedFileSet {
 public:
  OpenedFileSet() = default;
  ~OpenedFileSet();
  OpenedFileSet(OpenedFileSet&& other) noexcept;
  OpenedFileSet& operator=(OpenedFileSet&& other) noexcept;
  OpenedFileSet(const OpenedFileSet&) = delete;
  OpenedFileSet& operator=(const OpenedFileSet&) = delete;

  /// True if the set holds a file whose final path is `final_path`.
  bool contains(const std::string& final_path) const { return fds_.count(final_path) != 0; }
  /// The whole content of `final_path` (NotFoundError if the set lacks it).
  std::string read(const std::string& final_path) const;
  /// Hands over the descriptor of `final_path` (the caller closes it); -1 if absent.
  int take(const std::string& final_path);

 private:
  friend std::optional<OpenedFileSet> open_file_set(const std::string& manifest_path);
  std::map<std::string, int> fds_;
};

/// Opens the set named by `manifest_path`. nullopt when there is no manifest, it is damaged, or
/// no file holds some committed content (then callers read the final names as they are).
std::optional<OpenedFileSet> open_file_set(const std::string& manifest_path);

/// Finishes the commits of dead writers of every set in `directory` (`*.manifest`), then removes
/// the temporaries of dead writers (`<name>.tmp.<pid>.<n>`) whose name starts with
/// `name_prefix`: the cleanup of a writer that owns many sets there (CheckpointManager's
/// `ckpt-<n>` bundles).
void remove_orphaned_temporaries_in(const std::string& directory, const std::string& name_prefix);

/// Replaces a directory as a whole: the new content is written into path() (a fresh directory
/// beside `final_dir`), and commit() swaps it in with one atomic rename (renameat2
/// RENAME_EXCHANGE; where the file system lacks it, the old directory is first renamed to
/// `<final_dir>.prev`, which committed_directory() falls back to).
class DirectoryCommit {
 public:
  /// FailedPreconditionError if `final_dir` exists and is not a directory, or holds an entry
  /// not in `replaceable` (a save never deletes what it did not write).
  DirectoryCommit(std::string final_dir, const std::set<std::string>& replaceable);
  /// Removes path() if commit() was not called.
  ~DirectoryCommit();
  DirectoryCommit(const DirectoryCommit&) = delete;
  DirectoryCommit& operator=(const DirectoryCommit&) = delete;

  /// The staging directory to write into (created, empty).
  const std::string& path() const { return staged_; }
  /// Makes path() the content of `final_dir`, removes the old content and orphaned temporaries.
  void commit();

 private:
  std::string final_;
  std::string staged_;
  bool committed_ = false;
};

/// Where the last committed content of `dir` lies: `dir`, or `<dir>.prev` after a crash inside a
/// non-atomic DirectoryCommit::commit().
std::string committed_directory(const std::string& dir);

}  // namespace tfcc
