#include "tfcc/platform/file_set.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc {
namespace {

namespace fs = std::filesystem;

class FileSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() /
            ("tfcc_file_set_test_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name()))
               .string();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  void commit_pair(const std::string& data, const std::string& index) {
    FileSetCommit c(path("w.manifest"));
    c.add(path("w.data"), data);
    c.add(path("w.index"), index);
    c.commit();
  }
  // (data, index) as a reader of the set sees them.
  std::pair<std::string, std::string> load() {
    auto set = open_file_set(path("w.manifest"));
    if (!set) return {"<no set>", "<no set>"};
    return {set->read(path("w.data")), set->read(path("w.index"))};
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  // The staged names the current manifest records, by final name.
  std::map<std::string, std::string> staged_names() const {
    std::map<std::string, std::string> out;
    std::string text = read_file(path("w.manifest"));
    size_t start = text.find('\n') + 1;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      std::string line = text.substr(start, end - start);
      start = end + 1;
      if (line.rfind("crc32c ", 0) == 0) break;
      size_t sp = line.find(' ');
      out[line.substr(0, sp)] = line.substr(sp + 1, line.find(' ', sp + 1) - sp - 1);
    }
    return out;
  }

  std::string dir_;
};

// A pid that no longer runs: a child that has exited and been reaped.
long dead_pid() {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

TEST_F(FileSetTest, CommitWritesFinalNamesAndManifest) {
  commit_pair("data-1", "index-1");
  EXPECT_EQ(read_file(path("w.data")), "data-1");
  EXPECT_EQ(read_file(path("w.index")), "index-1");
  EXPECT_EQ(load(), std::make_pair(std::string("data-1"), std::string("index-1")));
  EXPECT_EQ(names(), (std::vector<std::string>{"w.data", "w.index", "w.manifest"}));
  commit_pair("data-2", "index-2");
  EXPECT_EQ(load(), std::make_pair(std::string("data-2"), std::string("index-2")));
  EXPECT_EQ(names(), (std::vector<std::string>{"w.data", "w.index", "w.manifest"}));
}

// Every instant of a commit, rebuilt by hand: the reader sees the old or the new pair, whole.
TEST_F(FileSetTest, EveryInterruptedStateLoadsOneWholeSet) {
  commit_pair("data-1", "index-1");
  const std::string old_manifest = read_file(path("w.manifest"));
  commit_pair("data-2", "index-2");
  auto staged = staged_names();
  ASSERT_EQ(staged.size(), 2u);
  const std::string new_manifest = read_file(path("w.manifest"));
  auto put = [&](const std::string& name, const std::string& bytes) {
    fs::remove(path(name));
    write_file_atomic(path(name), bytes);
  };
  // Killed while staging: the old manifest and old finals, new staged files beside them.
  put("w.manifest", old_manifest);
  put("w.data", "data-1");
  put("w.index", "index-1");
  put(staged["w.data"], "data-2");
  put(staged["w.index"], "inde");  // half written
  EXPECT_EQ(load().first, "data-1");
  // Killed after the manifest's rename, before any file's rename.
  put("w.manifest", new_manifest);
  put(staged["w.index"], "index-2");
  EXPECT_EQ(load(), std::make_pair(std::string("data-2"), std::string("index-2")));
  // Killed between the data's rename and the index's: new data, old index under the final names.
  fs::rename(path(staged["w.data"]), path("w.data"));
  EXPECT_EQ(read_file(path("w.index")), "index-1");
  EXPECT_EQ(load(), std::make_pair(std::string("data-2"), std::string("index-2")));
  // The next writer repairs the names. (The staged index left here carries this test's own,
  // live pid, so it is kept; orphans of dead writers: OrphansOfDeadWritersAreRemoved...)
  commit_pair("data-3", "index-3");
  EXPECT_EQ(load(), std::make_pair(std::string("data-3"), std::string("index-3")));
  fs::remove(path(staged["w.index"]));
  EXPECT_EQ(names(), (std::vector<std::string>{"w.data", "w.index", "w.manifest"}));
}

TEST_F(FileSetTest, ForeignOrDamagedFilesFallBackToFinalNames) {
  commit_pair("data-1", "index-1");
  write_file_atomic(path("w.index"), "written by another program");
  EXPECT_FALSE(open_file_set(path("w.manifest")));
  write_file_atomic(path("w.index"), "index-1");
  EXPECT_TRUE(open_file_set(path("w.manifest")));
  std::string m = read_file(path("w.manifest"));
  m[m.size() / 2] ^= 0x20;
  write_file_atomic(path("w.manifest"), m);
  EXPECT_FALSE(open_file_set(path("w.manifest")));
  EXPECT_FALSE(open_file_set(path("absent.manifest")));
}

TEST_F(FileSetTest, OrphansOfDeadWritersAreRemovedByTheNextWriter) {
  long pid = dead_pid();
  const std::string orphan = "w.data.tmp." + std::to_string(pid) + ".7";
  const std::string orphan_manifest = "w.manifest.tmp." + std::to_string(pid) + ".0";
  const std::string live = "w.data.tmp." + std::to_string(::getppid()) + ".1";  // still running
  for (const auto& n : {orphan, orphan_manifest, live}) write_file_atomic(path(n), "x");
  commit_pair("data-1", "index-1");
  EXPECT_FALSE(file_exists(path(orphan)));
  EXPECT_FALSE(file_exists(path(orphan_manifest)));
  EXPECT_TRUE(file_exists(path(live)));
}

// A writer killed after its commit point, before its renames: the next writer of the directory
// finishes the renames (the set stays loadable under its final names) and keeps no temporary.
TEST_F(FileSetTest, CommitsOfKilledWritersAreRolledForward) {
  commit_pair("data-1", "index-1");
  pid_t pid = ::fork();
  if (pid == 0) {
    commit_pair("data-2", "index-2");
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  auto staged = staged_names();
  for (const char* name : {"w.data", "w.index"}) fs::rename(path(name), path(staged[name]));
  std::ofstream(path("w.index")) << "index-1";  // as if killed before any rename
  EXPECT_EQ(load(), std::make_pair(std::string("data-2"), std::string("index-2")));
  remove_orphaned_temporaries_in(dir_, "w");
  EXPECT_EQ(read_file(path("w.data")), "data-2");
  EXPECT_EQ(read_file(path("w.index")), "index-2");
  EXPECT_EQ(names(), (std::vector<std::string>{"w.data", "w.index", "w.manifest"}));
}

TEST_F(FileSetTest, UncommittedSetLeavesNothing) {
  commit_pair("data-1", "index-1");
  {
    FileSetCommit c(path("w.manifest"));
    c.add(path("w.data"), "data-2");
  }
  EXPECT_EQ(load().first, "data-1");
  EXPECT_EQ(names(), (std::vector<std::string>{"w.data", "w.index", "w.manifest"}));
}

TEST_F(FileSetTest, FilesOutsideTheManifestDirectoryAreRejected) {
  FileSetCommit c(path("w.manifest"));
  EXPECT_THROW(c.add("/tmp/elsewhere.data", "x"), InvalidArgumentError);
  EXPECT_THROW(c.add(path("sub/w.data"), "x"), InvalidArgumentError);
}

TEST_F(FileSetTest, FileSizeLimitIsResourceExhaustedAndKeepsTheOldSet) {
  commit_pair("data-1", "index-1");
  pid_t pid = ::fork();
  if (pid == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim {
      1000, 1000
    };
    ::setrlimit(RLIMIT_FSIZE, &lim);
    try {
      commit_pair(std::string(5000, 'd'), "index-2");
    } catch (const ResourceExhaustedError&) {
      ::_exit(42);
    } catch (...) {
      ::_exit(1);
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 42);
  EXPECT_EQ(load(), std::make_pair(std::string("data-1"), std::string("index-1")));
  EXPECT_EQ(names(), (std::vector<std::string>{"w.data", "w.index", "w.manifest"}));
}

TEST_F(FileSetTest, DirectoryCommitSwapsAsAWhole) {
  const std::string model = path("model");
  for (const char* v : {"one", "two"}) {
    DirectoryCommit c(model, {"config.json", "variables"});
    write_file_atomic(c.path() + "/config.json", v);
    fs::create_directories(c.path() + "/variables");
    c.commit();
    EXPECT_EQ(read_file(model + "/config.json"), v);
  }
  EXPECT_EQ(names(), (std::vector<std::string>{"model"}));
  {
    DirectoryCommit c(model, {"config.json", "variables"});
    write_file_atomic(c.path() + "/config.json", "three");
  }  // not committed
  EXPECT_EQ(read_file(model + "/config.json"), "two");
  EXPECT_EQ(names(), (std::vector<std::string>{"model"}));
  write_file_atomic(model + "/notes.txt", "mine");
  EXPECT_THROW(DirectoryCommit(model, {"config.json", "variables"}), FailedPreconditionError);
  EXPECT_EQ(read_file(model + "/notes.txt"), "mine");
}

TEST_F(FileSetTest, CommittedDirectoryFallsBackToPrev) {
  const std::string model = path("model");
  fs::create_directories(model + ".prev");
  EXPECT_EQ(committed_directory(model), model + ".prev");
  fs::create_directories(model);
  EXPECT_EQ(committed_directory(model), model);
  DirectoryCommit c(model, {});
  c.commit();
  EXPECT_FALSE(file_exists(model + ".prev"));
}

}  // namespace
}  // namespace tfcc
