// The fixed time of a kernel launch (issue 18): what a kernel costs before
// and after its work, as the GPU's own duration (Nsight Compute's
// gpu__time_duration) sees it. A kernel of a few microseconds is mostly this
// time, and a cost model that leaves it out prices such a kernel at a
// fraction of its measured time.
//
// Shapes: an empty kernel (one block of 32 threads), and a kernel of trivial
// blocks (no memory work: a store guarded by a flag that is never set, so the
// compiler keeps the block but it does nothing) at 1 block, one block an SM
// and 2..64 blocks an SM (8 blocks of 256 threads an SM fill an SM's 2048
// threads: one "wave"), so the ramp from one block to a full grid, and the
// cost of each further wave, can be read off.
//
// The probe times each launch with CUDA events (start event, launch, stop
// event, then a synchronize): that time includes the launch path on the GPU
// front end, which is more than the kernel's own duration. The same binary run
// under Nsight Compute (`probes/scripts/fixed_time_ncu.py`) adds
// gpu__time_duration of the same launches to this probe's values, which is
// what the cost model uses.
#include "probe.h"

#include <string>
#include <vector>

namespace probe {

namespace {

__global__ void fixedTimeEmpty() {}

// Never stores on the probe's launches (flag is 0): a block that does nothing
// but start and retire.
__global__ void fixedTimeTrivial(int* sink, int flag) {
  if (flag == 0x5eed && threadIdx.x == 0) sink[blockIdx.x] = 1;
}

constexpr int kTrivialThreads = 256;
constexpr int kTimedLaunches = 5;  // a run's sample: median of 5 launches after one untimed

}  // namespace

// Blocks an SM of the trivial kernel, in the order launched (ncu's launches
// are matched to these by grid size in fixed_time_ncu.py).
static const int kBlocksPerSm[] = {0, 1, 2, 4, 8, 16, 32, 64};  // 0: one block in all

void runKernelFixedTime(Context& ctx, ProbeOutput& out) {
  const int sms = ctx.prop.multiProcessorCount;
  const int maxThreads = ctx.prop.maxThreadsPerMultiProcessor;
  const int blocksPerWave = sms * (maxThreads / kTrivialThreads);
  DeviceBuffer<int> sink(size_t(64) * sms + 1);
  EventTimer timer;

  auto timeLaunches = [&](auto launch) {
    launch();  // untimed: the first launch of a shape pays module and cache loading
    PROBE_CHECK(cudaDeviceSynchronize());
    std::vector<double> us;
    for (int i = 0; i < kTimedLaunches; ++i) {
      timer.start();
      launch();
      us.push_back(timer.stopMs() * 1000.0);
    }
    check(cudaGetLastError(), "fixed-time launch");
    return median(us);
  };

  const std::string method =
      "CUDA events around one launch (record, launch, record, synchronize); a run's sample is the "
      "median of 5 launches after one untimed";
  Value& empty = out.add("event_time_us",
                         {str("shape", "empty"), num("blocks", 1), num("threads_per_block", 32)}, "us",
                         method);
  std::vector<Value*> trivial;
  for (int b : kBlocksPerSm) {
    int blocks = b == 0 ? 1 : b * sms;
    trivial.push_back(&out.add("event_time_us",
                               {str("shape", "trivial"), num("blocks", blocks),
                                num("threads_per_block", kTrivialThreads),
                                num("waves", double(blocks) / blocksPerWave)},
                               "us", method));
  }
  for (int r = 0; r < ctx.runs; ++r) {
    empty.samples.push_back(timeLaunches([] { fixedTimeEmpty<<<1, 32>>>(); }));
    for (size_t i = 0; i < trivial.size(); ++i) {
      int blocks = kBlocksPerSm[i] == 0 ? 1 : kBlocksPerSm[i] * sms;
      trivial[i]->samples.push_back(
          timeLaunches([&] { fixedTimeTrivial<<<blocks, kTrivialThreads>>>(sink.ptr, 0); }));
    }
  }
  out.derive("blocks_per_wave", std::to_string(blocksPerWave));
  out.derive("timed_launches_per_run", std::to_string(kTimedLaunches));
  out.notes.push_back(
      "event times include the launch path; the kernel's own duration as Nsight Compute sees it "
      "(gpu_time_duration_us) is added from an ncu run of this probe by scripts/fixed_time_ncu.py");
}

}  // namespace probe
