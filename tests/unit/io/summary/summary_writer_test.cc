#include "tfcc/io/summary/summary_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <thread>

#include "tests/unit/io/summary/summary_test_util.h"
#include "tfcc/io/summary/event_file_reader.h"
#include "tfcc/io/summary/summary.h"
#include "tfcc/platform/errors.h"

namespace tfcc::summary {
namespace {

using testing::TempDirTest;
using SummaryWriterTest = TempDirTest;

std::vector<std::pair<int64_t, std::string>> step_tags(const std::string& file) {
  std::vector<std::pair<int64_t, std::string>> out;
  for (const Event& e : read_events(file)) {
    for (const auto& v : e.summary) out.emplace_back(e.step, v.tag);
  }
  return out;
}

TEST_F(SummaryWriterTest, FileNameAndFirstRecordAreTf2s) {
  auto writer = create_file_writer(path("logs/train"));
  auto files = event_files("logs/train");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(writer.path(), files[0]);
  std::string name = std::filesystem::path(files[0]).filename().string();
  // events.out.tfevents.<10-digit seconds>.<host>.<pid>.<uid>.v2 (the host may hold dots).
  const std::string prefix = "events.out.tfevents.";
  ASSERT_TRUE(name.starts_with(prefix)) << name;
  std::string seconds = name.substr(prefix.size(), 10);
  EXPECT_TRUE(std::all_of(seconds.begin(), seconds.end(), ::isdigit)) << name;
  EXPECT_EQ(name[prefix.size() + 10], '.');
  std::string tail = std::string(".").append(std::to_string(::getpid())).append(".");
  size_t at = name.rfind(tail);
  ASSERT_NE(at, std::string::npos) << name;
  EXPECT_GT(at, prefix.size() + 11) << "a host name sits between the seconds and the pid";
  std::string rest = name.substr(at + tail.size());  // "<uid>.v2"
  ASSERT_TRUE(rest.ends_with(".v2")) << name;
  std::string uid = rest.substr(0, rest.size() - 3);
  EXPECT_FALSE(uid.empty());
  EXPECT_TRUE(std::all_of(uid.begin(), uid.end(), ::isdigit)) << name;
  // The first record is on disk before anything is written.
  auto events = read_events(files[0]);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].file_version, "brain.Event:2");
  EXPECT_GT(events[0].wall_time, 1.6e9);
  EXPECT_FALSE(events[0].has_summary);
  // A second writer on the same directory gets its own file; a custom suffix ends the name.
  auto other = create_file_writer(path("logs/train"), {.filename_suffix = ".tfcc"});
  EXPECT_NE(other.path(), writer.path());
  EXPECT_TRUE(other.path().ends_with(".tfcc")) << other.path();
}

TEST_F(SummaryWriterTest, NoDefaultWriterMeansNothingIsWritten) {
  EXPECT_FALSE(should_record_summaries());
  EXPECT_FALSE(scalar("loss", 0.1, 42));
  // Not even the missing step is checked: the call returns before looking at anything.
  EXPECT_FALSE(scalar("loss", 0.1));
  EXPECT_FALSE(text("t", "x"));
  auto noop = create_noop_writer();
  auto scope = noop.as_default();
  EXPECT_FALSE(scalar("loss", 0.1, 42));
}

TEST_F(SummaryWriterTest, AsDefaultScopesNestAndRestoreAndFlush) {
  auto train = create_file_writer(path("train"));
  auto test = create_file_writer(path("test"));
  {
    auto outer = train.as_default();
    EXPECT_TRUE(scalar("loss", 0.1, 42));
    {
      auto inner = test.as_default(/*step=*/7);
      EXPECT_TRUE(scalar("loss", 0.2));  // the scope's step
      EXPECT_EQ(experimental::get_step(), 7);
    }
    EXPECT_FALSE(experimental::get_step().has_value());  // restored
    EXPECT_TRUE(scalar("acc", 0.9, 43));                 // back to train
  }
  EXPECT_FALSE(should_record_summaries());
  // Leaving a scope flushed: everything is in the files without close().
  EXPECT_EQ(step_tags(train.path()),
            (std::vector<std::pair<int64_t, std::string>>{{42, "loss"}, {43, "acc"}}));
  EXPECT_EQ(step_tags(test.path()), (std::vector<std::pair<int64_t, std::string>>{{7, "loss"}}));
}

TEST_F(SummaryWriterTest, StepComesFromTheArgumentOrTheDefault) {
  auto writer = create_file_writer(path("run"));
  auto scope = writer.as_default();
  EXPECT_THROW(scalar("loss", 1.0), InvalidArgumentError);
  Variable iterations(Tensor::scalar<int64_t>(5), {.name = "iterations", .trainable = false});
  experimental::set_step(iterations);
  EXPECT_TRUE(scalar("loss", 1.0));
  iterations.assign(Tensor::scalar<int64_t>(6));
  EXPECT_TRUE(scalar("loss", 2.0));  // the variable is read at each call
  EXPECT_TRUE(scalar("loss", 3.0, Tensor::scalar<int32_t>(100)));
  EXPECT_THROW(scalar("loss", 3.0, Tensor::scalar<float>(1.5f)), InvalidArgumentError);
  EXPECT_THROW(scalar("loss", 3.0, Tensor::from_vector<int64_t>({1, 2})), InvalidArgumentError);
  set_step(Step());
  EXPECT_FALSE(experimental::get_step().has_value());
  writer.flush();
  EXPECT_EQ(step_tags(writer.path()), (std::vector<std::pair<int64_t, std::string>>{
                                          {5, "loss"}, {6, "loss"}, {100, "loss"}}));
}

TEST_F(SummaryWriterTest, RecordIfSwitchesSummariesOff) {
  auto writer = create_file_writer(path("run"));
  auto scope = writer.as_default(0);
  {
    auto off = record_if(false);
    EXPECT_FALSE(should_record_summaries());
    EXPECT_FALSE(scalar("a", 1.0));
  }
  int64_t step = 0;
  auto every_other = record_if([&] { return step % 2 == 0; });
  for (step = 0; step < 4; ++step) scalar("b", 1.0, step);
  writer.flush();
  EXPECT_EQ(step_tags(writer.path()),
            (std::vector<std::pair<int64_t, std::string>>{{0, "b"}, {2, "b"}}));
}

TEST_F(SummaryWriterTest, QueuedEventsReachTheFileWhenTheQueueIsFull) {
  // flush_millis is huge, so only max_queue (or flush) can move events to the file.
  auto writer = create_file_writer(path("run"), {.max_queue = 3, .flush_millis = 3600000});
  auto scope = writer.as_default();
  for (int i = 0; i < 3; ++i) scalar("x", i, i);
  // Three queued (not more than max_queue): nothing forces a write, so at most the first record.
  // The fourth puts the queue over max_queue and the thread writes the batch.
  scalar("x", 3, 3);
  for (int tries = 0; tries < 2000 && read_events(writer.path()).size() < 5; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(read_events(writer.path()).size(), 5u);
}

TEST_F(SummaryWriterTest, FlushMillisBoundsTheDelay) {
  auto writer = create_file_writer(path("run"), {.max_queue = 1000, .flush_millis = 20});
  auto scope = writer.as_default();
  scalar("x", 1.0, 1);
  for (int tries = 0; tries < 2000 && read_events(writer.path()).size() < 2; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(read_events(writer.path()).size(), 2u);
}

TEST_F(SummaryWriterTest, FlushMillisHoldsWhenTheThreadWasIdleFirst) {
  // The writer thread reaches its idle wait before the first event is queued (the sleep only
  // makes that order likely; the test passes either way when the writer is right).
  auto writer = create_file_writer(path("run"), {.max_queue = 1000, .flush_millis = 20});
  auto scope = writer.as_default();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  scalar("x", 1.0, 1);
  for (int tries = 0; tries < 2000 && read_events(writer.path()).size() < 2; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(read_events(writer.path()).size(), 2u);
}

TEST_F(SummaryWriterTest, ManyThreadsShareOneWriterAndNothingIsLost) {
  auto writer = create_file_writer(path("run"), {.max_queue = 5});
  constexpr int kThreads = 4, kEach = 500;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      auto scope = writer.as_default();  // the default writer is per thread
      std::string tag = std::string("t").append(std::to_string(t));
      for (int i = 0; i < kEach; ++i) scalar(tag, i, i);
    });
  }
  for (auto& th : threads) th.join();
  writer.close();
  auto events = read_events(writer.path());
  ASSERT_EQ(events.size(), 1u + kThreads * kEach);
  std::map<std::string, int64_t> next;
  for (size_t i = 1; i < events.size(); ++i) {
    const auto& v = events[i].summary.at(0);
    EXPECT_EQ(events[i].step, next[v.tag]++) << "events of one thread stay in order";
  }
}

TEST_F(SummaryWriterTest, CloseIsFinalAndIdempotent) {
  auto writer = create_file_writer(path("run"));
  auto scope = writer.as_default();
  scalar("x", 1.0, 1);
  writer.close();
  writer.close();
  writer.flush();  // nothing left to flush
  EXPECT_THROW(scalar("x", 2.0, 2), FailedPreconditionError);
  EXPECT_EQ(read_events(writer.path()).size(), 2u);
}

TEST_F(SummaryWriterTest, BadArguments) {
  EXPECT_THROW(create_file_writer(""), InvalidArgumentError);
  EXPECT_THROW(create_file_writer(path("a"), {.max_queue = -1}), InvalidArgumentError);
  EXPECT_THROW(create_file_writer(path("b"), {.flush_millis = -5}), InvalidArgumentError);
  std::ofstream(path("file")) << "x";
  EXPECT_THROW(create_file_writer(path("file/sub")), Error);  // a file where a directory goes
}

}  // namespace
}  // namespace tfcc::summary
