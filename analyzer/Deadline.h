// A per-file time limit (`warplint check --time-limit`). The analysis of one
// unit runs on one thread, in-process and maybe beside other units (-j), so
// it cannot be killed: it is stopped cooperatively instead. The thread that
// analyzes a unit sets a deadline (DeadlineScope); the analyzer's long loops
// (expression evaluation in the warp sweeps and work tallies, the walker's
// statements) call checkDeadline(), which throws TimeLimitReached once the
// deadline has passed; analyze() catches it and reports the unit as not
// analyzed, with what it was doing. No clang frame is ever unwound: the
// checks run in our code and the throw is caught before it reaches clang.
//
// Time is the thread's CPU time, not the wall clock: a unit's verdict must
// not depend on how loaded the machine is (a CI runner shared with other
// jobs, -j with more files than cores), or the same file would pass on one
// run and be stopped on the next. The analysis never waits on anything, so
// a hang is always CPU time.
#pragma once

#include <string>

namespace warplint {

struct TimeLimitReached {
  std::string stage; // what the unit was doing: "parsing", "evaluating kernel 'k'"
};

// Sets the current thread's deadline `seconds` from now for its lifetime
// (seconds <= 0: none), and restores the previous one after.
class DeadlineScope {
public:
  explicit DeadlineScope(double seconds);
  ~DeadlineScope();
  // CPU seconds this thread has spent since the scope began.
  double elapsedSeconds() const;
  DeadlineScope(const DeadlineScope &) = delete;
  DeadlineScope &operator=(const DeadlineScope &) = delete;

private:
  bool savedActive_;
  long long savedUntil_;
  long long start_;
};

// What the thread does now, named in the message when the limit is reached.
void setDeadlineStage(std::string stage);
// Throws TimeLimitReached when the thread's deadline has passed. Cheap
// enough for inner loops: it reads the clock once every 4096 calls.
void checkDeadline();
// The same, reading the clock every time (between kernels, after a parse).
void checkDeadlineNow();

} // namespace warplint
