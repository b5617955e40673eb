// Helpers shared by the summary tests: a fresh temporary log directory per test and the path of
// this folder's testdata.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "tfcc/io/summary/event_file_reader.h"

namespace tfcc::summary::testing {

/// A test fixture owning an empty directory, removed afterwards.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::temp_directory_path() /
           ("tfcc_summary_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  /// The event files directly in `subdir` of the temp dir, sorted.
  std::vector<std::string> event_files(const std::string& subdir = "") const {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(dir_ / subdir)) {
      if (is_event_file(e.path().filename().string())) files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
  }

  std::filesystem::path dir_;
};

/// This source folder. __FILE__ may be relative to the compiler's working directory (ccache's
/// base_dir rewriting), which is the folder the test binary is built in.
inline std::filesystem::path source_dir() {
  std::filesystem::path file(__FILE__);
  if (file.is_absolute()) return file.parent_path();
  std::filesystem::path exe_dir = std::filesystem::read_symlink("/proc/self/exe").parent_path();
  return std::filesystem::weakly_canonical(exe_dir / file).parent_path();
}

}  // namespace tfcc::summary::testing
