#include "tfcc/platform/file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tfcc/platform/errors.h"

namespace tfcc {
namespace {

std::string temp_dir() {
  auto d =
      std::filesystem::temp_directory_path() / ("tfcc_file_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d.string();
}

TEST(File, AtomicWriteReplacesAndLeavesNoTemp) {
  std::string dir = temp_dir();
  std::string path = dir + "/f.bin";
  write_file_atomic(path, "first");
  write_file_atomic(path, std::string("sec\0ond", 7));
  EXPECT_EQ(read_file(path), std::string("sec\0ond", 7));
  int entries = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1);
  std::filesystem::remove_all(dir);
}

TEST(File, ReadMissingIsNotFound) {
  EXPECT_THROW(read_file("/nonexistent/tfcc/file"), NotFoundError);
}

TEST(File, WriteIntoMissingDirectoryFails) {
  EXPECT_THROW(write_file_atomic("/nonexistent/tfcc/dir/file", "x"), Error);
}

TEST(File, ReadDirectoryIsAnError) { EXPECT_THROW(read_file("/tmp"), FailedPreconditionError); }

}  // namespace
}  // namespace tfcc
