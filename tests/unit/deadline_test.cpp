// The cooperative time limit behind `--time-limit` (analyzer/Deadline.h).
#include "analyzer/Deadline.h"

#include <gtest/gtest.h>
#include <time.h>

#include <chrono>
#include <thread>

using namespace warplint;

namespace {
// Burns this thread's CPU time (the deadline's clock) for about `seconds`.
void spin(double seconds) {
  timespec start{}, now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  do {
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while ((now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
}
} // namespace

TEST(Deadline, NoScopeNeverStops) {
  for (int i = 0; i < 100000; ++i)
    checkDeadline();
  checkDeadlineNow();
}

TEST(Deadline, ZeroMeansNoLimit) {
  DeadlineScope scope(0);
  spin(0.002);
  EXPECT_NO_THROW(checkDeadlineNow());
}

TEST(Deadline, ReachedLimitThrowsWithTheStage) {
  DeadlineScope scope(0.001);
  setDeadlineStage("evaluating kernel 'k'");
  spin(0.005);
  try {
    // The cheap check reads the clock only every 4096 calls: a loop of them
    // must still stop.
    for (int i = 0; i < 10000; ++i)
      checkDeadline();
    FAIL() << "the deadline did not stop the loop";
  } catch (const TimeLimitReached &stop) {
    EXPECT_EQ(stop.stage, "evaluating kernel 'k'");
  }
}

TEST(Deadline, ScopesNestAndRestore) {
  {
    DeadlineScope outer(1000);
    {
      DeadlineScope inner(0.001);
      spin(0.005);
      EXPECT_THROW(checkDeadlineNow(), TimeLimitReached);
    }
    EXPECT_NO_THROW(checkDeadlineNow()); // the outer limit is far away
  }
  spin(0.002);
  EXPECT_NO_THROW(checkDeadlineNow()); // no scope: no limit
}

TEST(Deadline, SleepingIsNotCpuTime) {
  // The limit is CPU time: a loaded machine (a thread not scheduled) does
  // not stop a unit.
  DeadlineScope scope(0.05);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_NO_THROW(checkDeadlineNow());
  EXPECT_LT(scope.elapsedSeconds(), 0.05);
}

TEST(Deadline, OtherThreadsAreNotLimited) {
  DeadlineScope scope(0.001);
  spin(0.005);
  bool threw = false;
  std::thread([&] {
    try {
      checkDeadlineNow();
    } catch (const TimeLimitReached &) {
      threw = true;
    }
  }).join();
  EXPECT_FALSE(threw);
}

// --time-limit on the command line (check and lsp share it).
#include "driver/CommandLine.h"

TEST(Deadline, TimeLimitOption) {
  ParseResult r = parseCommandLine({"check", "a.cu"});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.commandLine.check.timeLimit, kDefaultTimeLimitSeconds);
  r = parseCommandLine({"check", "a.cu", "--time-limit", "2.5"});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.commandLine.check.timeLimit, 2.5);
  r = parseCommandLine({"lsp", "--time-limit=0"});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.commandLine.check.timeLimit, 0);
  for (const char *bad : {"-1", "x", "", "1e9"}) {
    r = parseCommandLine({"check", "a.cu", "--time-limit", bad});
    EXPECT_FALSE(r.ok) << bad;
  }
  EXPECT_NE(usageText("check").find("--time-limit SECONDS"), std::string::npos);
  EXPECT_NE(usageText("lsp").find("--time-limit SECONDS"), std::string::npos);
}
