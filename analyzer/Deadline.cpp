#include "analyzer/Deadline.h"

#include <time.h>

namespace warplint {

namespace {

struct ThreadDeadline {
  bool active = false;
  long long until = 0; // the thread's CPU clock, nanoseconds
  unsigned calls = 0;
  std::string stage = "analyzing";
};
thread_local ThreadDeadline current;

// The calling thread's CPU time (Deadline.h says why not the wall clock).
long long nowNs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

} // namespace

DeadlineScope::DeadlineScope(double seconds)
    : savedActive_(current.active), savedUntil_(current.until), start_(nowNs()) {
  current.active = seconds > 0;
  current.until = current.active ? start_ + static_cast<long long>(seconds * 1e9) : 0;
  current.calls = 0;
  current.stage = "analyzing";
}

DeadlineScope::~DeadlineScope() {
  current.active = savedActive_;
  current.until = savedUntil_;
}

double DeadlineScope::elapsedSeconds() const { return static_cast<double>(nowNs() - start_) / 1e9; }

void setDeadlineStage(std::string stage) { current.stage = std::move(stage); }

void checkDeadlineNow() {
  if (current.active && nowNs() >= current.until)
    throw TimeLimitReached{current.stage};
}

// The thread's CPU clock is a system call (no vDSO path): read every 256
// calls, it was 5% of a swept file's time; every 4096 calls of the sweeps'
// ~50 ns evaluations it is a read every fraction of a millisecond.
void checkDeadline() {
  if (current.active && (++current.calls & 4095) == 0)
    checkDeadlineNow();
}

} // namespace warplint
