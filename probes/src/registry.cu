// The list of probes in the order the suite runs them. The order matters in
// one place: sm_clock runs first so later probes can convert cycles to ns.
#include "probe.h"

#include <algorithm>
#include <cstdio>

namespace probe {

Param num(const std::string& key, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return Param{key, buf};
}

Param str(const std::string& key, const std::string& v) { return Param{key, "\"" + v + "\""}; }

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void runSmClock(Context&, ProbeOutput&);
void runLatencyLadder(Context&, ProbeOutput&);
void runL1LatencyVsFootprint(Context&, ProbeOutput&);
void runL2LatencyVsFootprint(Context&, ProbeOutput&);
void runWarpBroadcast(Context&, ProbeOutput&);
void runAccessConstraints(Context&, ProbeOutput&);
void runSharedBankConflicts(Context&, ProbeOutput&);
void runConstantSerialization(Context&, ProbeOutput&);
void runGlobalBandwidthByType(Context&, ProbeOutput&);
void runGlobalBandwidthByStride(Context&, ProbeOutput&);
void runGlobalBandwidthByOffset(Context&, ProbeOutput&);
void runDramBandwidthVsConfig(Context&, ProbeOutput&);
void runSharedThroughputVsWarps(Context&, ProbeOutput&);
void runAluThroughputVsWarps(Context&, ProbeOutput&);
void runInstThroughputVsWarps(Context&, ProbeOutput&);
void runL1Bandwidth(Context&, ProbeOutput&);
void runConstantThroughputVsAddresses(Context&, ProbeOutput&);
void runL2BandwidthVsConfig(Context&, ProbeOutput&);
void runLocalMemoryBandwidth(Context&, ProbeOutput&);
void runL1Geometry(Context&, ProbeOutput&);
void runSectorSize(Context&, ProbeOutput&);
void runL1LineSize(Context&, ProbeOutput&);
void runDramCopy(Context&, ProbeOutput&);
void runTlbReach(Context&, ProbeOutput&);
void runHostTransferBandwidth(Context&, ProbeOutput&);
void runHostCopyLatency(Context&, ProbeOutput&);
void runCopyKernelOverlapVsStreams(Context&, ProbeOutput&);
void runManagedFirstTouch(Context&, ProbeOutput&);
void runManagedHostTouch(Context&, ProbeOutput&);
void runManagedFirstTouchShapes(Context&, ProbeOutput&);
void runWarpExchangeShuffleVsShared(Context&, ProbeOutput&);
void runKernelFixedTime(Context&, ProbeOutput&);

const std::vector<ProbeInfo>& allProbes() {
  static const std::vector<ProbeInfo> probes = {
      {"sm_clock", "SM clock during the run",
       "one thread spins ~20M cycles; clock64 cycles over %globaltimer ns", runSmClock},
      {"latency_ladder", "Load latency by memory level",
       "single-thread pointer chase (j = a[j]), warm-up inside the timed launch, cycles by clock64 "
       "over the dependent loads, including the address arithmetic of each step",
       runLatencyLadder},
      {"l1_latency_vs_footprint", "L1 (ld.global.ca) latency against footprint",
       "single-thread sequential pointer chase at a 128-byte stride after a block-wide warm-up "
       "of the whole footprint in the same launch; preferred shared-memory carve-out 0 (max L1)",
       runL1LatencyVsFootprint},
      {"l2_latency_vs_footprint", "L2 (ld.global.cg) latency against footprint",
       "block-wide warm-up of the footprint, then one thread chases 4096 lines sampled at random "
       "across it (random order, 128-byte lines)",
       runL2LatencyVsFootprint},
      {"warp_broadcast", "Warp-level broadcast vs parallel access",
       "one warp, p = a[q]; q = a[p] on an identity array (seed 000 sec. 4.2); k lanes share each "
       "distinct element; cycles per load",
       runWarpBroadcast},
      {"access_constraints", "Aligned / misaligned / non-consecutive warp access",
       "one warp, same chase as warp_broadcast with lane addresses: consecutive aligned, "
       "consecutive permuted, consecutive shifted by one word, 33-word stride (seed 000 sec. 4.3)",
       runAccessConstraints},
      {"shared_bank_conflicts", "Shared-memory bank conflicts",
       "latency: one warp chasing on 32x32 words, lane l reads row (l mod d), column l/d; "
       "throughput: 1024 threads per SM, 16 independent volatile shared loads per iteration, "
       "bytes over clock64 cycles per SM",
       runSharedBankConflicts},
      {"constant_serialization", "Constant-memory latency against distinct addresses per warp",
       "one warp chasing in __constant__ memory, lane l reads element (l mod n) (one 128-byte "
       "line) or (l mod n)*64 (distinct lines); cycles per load",
       runConstantSerialization},
      {"global_bandwidth_by_type", "Global copy bandwidth by element type",
       "out[i] = in[i], one element per thread, 256 threads per block, 256 MiB each way; bytes "
       "read + written over CUDA-event time; against cudaMemcpy device-to-device",
       runGlobalBandwidthByType},
      {"global_bandwidth_by_stride", "Global float gather bandwidth by stride",
       "out[i] = in[(i*s) mod n], 32M threads; useful bytes (4 read + 4 written a thread) over time",
       runGlobalBandwidthByStride},
      {"global_bandwidth_by_offset", "Global float copy bandwidth by misaligning offset",
       "out[i] = in[i + off], 64M floats; bytes read + written over time", runGlobalBandwidthByOffset},
      {"dram_copy", "Tuned DRAM copy against cudaMemcpy",
       "grid-stride float4 copy of 1 GiB with M loads in flight a thread, several launch shapes; "
       "bytes read + written over CUDA-event time; cudaMemcpy device-to-device of the same 1 GiB",
       runDramCopy},
      {"dram_bandwidth_vs_config", "DRAM read bandwidth against blocks, threads, bytes in flight",
       "grid-stride float4 read of 1 GiB with M independent loads per thread per iteration",
       runDramBandwidthVsConfig},
      {"shared_throughput_vs_warps", "Shared-memory throughput against warps per SM",
       "4-byte volatile shared loads, 1..64 warps per SM, conflict-free and at bank-conflict degrees "
       "2/4/8/32; bytes per clock64 cycle per SM, and wavefronts (bytes x degree / 128)",
       runSharedThroughputVsWarps},
      {"alu_throughput_vs_warps", "FP32 FMA rate against warps per SM",
       "8 independent dependent-FMA chains per thread; warp instructions per cycle per SM",
       runAluThroughputVsWarps},
      {"inst_throughput_vs_warps", "Instruction throughput by class against warps per SM",
       "8 independent chains a thread of one PTX instruction (inline asm) per class; the SASS of each "
       "timed loop read back with cuobjdump (opcode and count an iteration); 1..64 warps per SM; "
       "warp instructions per clock64 cycle per SM (seed 003 Fig. 2 left)",
       runInstThroughputVsWarps},
      {"l1_bandwidth", "L1-hit global load throughput against warps per SM",
       "ld.global.ca over a per-block footprint of 9 or 36 KiB read once before the timing, 8 "
       "independent warp-coalesced loads an iteration (one step further on odd iterations, so the "
       "loads stay in the loop), 4- and 16-byte lanes; bytes per clock64 cycle per SM",
       runL1Bandwidth},
      {"constant_throughput_vs_addresses", "Constant-memory request rate against distinct addresses",
       "64 warps an SM, 4 independent LDC chains a thread, lane l reads word (l mod n) of one line; "
       "warp requests per clock64 cycle per SM",
       runConstantThroughputVsAddresses},
      {"l2_bandwidth_vs_config", "L2 read and write bandwidth against blocks, threads, bytes in flight",
       "ld.global.cg / st.global.cg float4 over an 8 MiB footprint (L2-resident, L1 bypassed), M "
       "accesses in flight a thread; bytes over CUDA-event time",
       runL2BandwidthVsConfig},
      {"local_memory_bandwidth", "Local-memory (thread-private array) bandwidth",
       "dynamically indexed private arrays of 64 B, 128 B and 1 KiB a thread at 64 warps an SM "
       "(footprints inside L1, past L1, past L2), 4 loads + 4 stores a step or 4 loads a step; bytes "
       "over CUDA-event time and over clock64 cycles per SM",
       runLocalMemoryBandwidth},
      {"l1_geometry", "L1 capacity by fine-grained chase (seed 001 sec. 3.2)",
       "one thread records the latency of every access of the second lap in shared memory (8 KiB "
       "static shared); a miss is a latency over the midpoint of the L1-hit and L2-hit levels",
       runL1Geometry},
      {"l1_line_size", "L1 line size from capacity against stride",
       "sequential ld.global.ca chase at 32/64/128/256-byte strides, footprint grown in 8 KiB steps "
       "until the latency leaves the L1-hit level; preferred carve-out 0",
       runL1LineSize},
      {"sector_size", "Fetch granularity (sector size) of L1",
       "chase at a 4-byte stride over 1 KiB held in L2 but not L1, every access recorded; "
       "granularity = bytes walked over L1 misses",
       runSectorSize},
      {"tlb_reach", "Latency against pages touched (TLB reach)",
       "one thread chases 64-bit pointers (ld.global.cg, L2-resident) over max(pages, 2048) "
       "lines, element j on page j mod pages, strides 2/32/512 MiB, up to 16384 pages; main "
       "series: one physical 2 MiB chunk mapped at every stride (cuMemMap), so each page needs "
       "its own TLB entry; contrast series: a plain cudaMalloc at a 2 MiB stride",
       runTlbReach},
      // Seed 002 (Pasternak 2022): host transfers (sec. 4.1, ch. 5) and warp shuffles (sec. 4.2.4).
      {"host_transfer_bandwidth", "Host <-> device cudaMemcpy bandwidth, pageable against pinned",
       "cudaMemcpy H2D and D2H of 4 KiB to 256 MiB from malloc'd (touched) or cudaMallocHost memory; 8 to 256 "
       "synchronous copies then cudaDeviceSynchronize, timed by the host's steady clock; bytes over time",
       runHostTransferBandwidth},
      {"host_copy_latency", "Time of one small synchronous cudaMemcpy",
       "500 synchronous cudaMemcpy of 4, 256 or 4096 bytes back to back (H2D, D2H; pageable, pinned), host "
       "steady clock over them divided by 500",
       runHostCopyLatency},
      {"copy_kernel_overlap_vs_streams", "Staged copy/execute against streams",
       "64 MiB pinned buffer: H2D copy, an FMA-chain kernel calibrated to the copy's time, D2H copy, split into "
       "1..16 chunks on as many non-blocking streams; CUDA events around the whole (seed 002 sec. 4.1.3, 5.2)",
       runCopyKernelOverlapVsStreams},
      {"managed_first_touch", "Managed memory written on the host, then read by a kernel",
       "cudaMallocManaged 256 MiB written by the host, then a float4 read kernel timed by CUDA events: on "
       "demand (faults), after cudaMemPrefetchAsync, and again once resident (seed 002 sec. 4.1.4)",
       runManagedFirstTouch},
      {"managed_host_touch", "Managed memory written by a kernel, then read or written by the host",
       "a fresh cudaMallocManaged of 4 to 256 MiB written by a kernel, then one host thread reads (or writes) "
       "every word: on demand (CPU page faults) against cudaMemPrefetchAsync to the host + synchronize + the "
       "same pass, and the pass again once resident; host steady clock (seed 002 sec. 4.1.4)",
       runManagedHostTouch},
      {"managed_first_touch_shapes", "On-demand migration to a kernel by kernel shape, size and allocation reuse",
       "host-written managed memory read by managed_first_touch's grid-stride float4 kernel or by one-float-a-"
       "thread kernels (read; read+write as in examples/host), 16 to 256 MiB, fresh or reused allocation; CUDA "
       "events around the launch",
       runManagedFirstTouchShapes},
      {"warp_exchange_shuffle_vs_shared", "Warp sum of 32 values: shuffle against shared memory",
       "5-step warp sum by __shfl_down_sync, through shared memory with __syncwarp, and through a volatile "
       "shared array without sync; cycles per reduction at 64 warps an SM and for one warp alone (clock64), "
       "timed loops' SASS read back (seed 002 sec. 4.2.4)",
       runWarpExchangeShuffleVsShared},
      // Issue 18: the fixed time of a launch the kernel cost model adds to each kernel.
      {"kernel_fixed_time", "Fixed time of a kernel launch: empty kernel, one block, a grid of trivial blocks",
       "an empty kernel (1 block of 32) and a kernel of trivial blocks (256 threads, no memory work) at 1 "
       "block and 1-64 blocks an SM; CUDA events around each launch, median of 5 a run; Nsight Compute's "
       "gpu__time_duration of the same launches added by scripts/fixed_time_ncu.py",
       runKernelFixedTime},
  };
  return probes;
}

}  // namespace probe
