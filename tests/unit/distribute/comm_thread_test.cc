// The communication thread: FIFO jobs, exceptions handed to the waiter, deadlines.
#include "tfcc/distribute/comm_thread.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "tfcc/platform/errors.h"

namespace tfcc::distribute::internal {
namespace {

using Clock = std::chrono::steady_clock;

TEST(CommThread, RunsJobsInSubmissionOrderOnOneOtherThread) {
  CommThread comm;
  std::vector<int> order;  // touched only by the communication thread until the last wait
  std::vector<std::shared_ptr<CommJob>> jobs;
  const auto caller = std::this_thread::get_id();
  std::atomic<bool> other_thread{true};
  for (int i = 0; i < 50; ++i) {
    jobs.push_back(comm.submit([&, i] {
      if (std::this_thread::get_id() == caller) other_thread = false;
      order.push_back(i);
    }));
  }
  EXPECT_TRUE(comm.wait(*jobs.back(), Clock::time_point::max()));
  for (auto& j : jobs) EXPECT_TRUE(j->done());
  ASSERT_EQ(order.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(order[static_cast<size_t>(i)], i);
  EXPECT_TRUE(other_thread);
}

TEST(CommThread, WaitRethrowsTheJobsErrorAndLaterJobsStillRun) {
  CommThread comm;
  auto bad = comm.submit([] { throw DeadlineExceededError("peer gone"); });
  bool ran = false;
  auto good = comm.submit([&] { ran = true; });
  EXPECT_THROW(comm.wait(*bad, Clock::time_point::max()), DeadlineExceededError);
  EXPECT_TRUE(comm.wait(*good, Clock::time_point::max()));
  EXPECT_TRUE(ran);
  EXPECT_THROW(comm.run([] { throw InvalidArgumentError("x"); }), InvalidArgumentError);
}

TEST(CommThread, WaitGivesUpAtTheDeadlineAndReportsWaiters) {
  CommThread comm;
  std::atomic<bool> release{false}, saw_waiter{false};
  auto slow = comm.submit([&] {
    while (!release) {
      if (comm.someone_waiting()) saw_waiter = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  EXPECT_FALSE(comm.wait(*slow, Clock::now() + std::chrono::milliseconds(50)));
  EXPECT_FALSE(slow->done());
  EXPECT_TRUE(saw_waiter);
  release = true;
  EXPECT_TRUE(comm.wait(*slow, Clock::time_point::max()));
  EXPECT_FALSE(comm.someone_waiting());
}

TEST(CommThread, DestructionRunsTheQueuedJobs) {
  std::atomic<int> ran{0};
  {
    CommThread comm;
    for (int i = 0; i < 10; ++i) comm.submit([&] { ++ran; });
  }
  EXPECT_EQ(ran.load(), 10);
}

}  // namespace
}  // namespace tfcc::distribute::internal
