// Shared-memory wavefronts of 4-, 8- and 16-byte warp accesses (issue 18):
// one warp, one launch per lane->address pattern, each launch running the
// pattern's load (or store) `reps` times through an `ld/st.volatile.shared`
// of the width, so that Nsight Compute's wavefront and instruction counters
// give the exact wavefronts one warp instruction takes. The warp model
// (analyzer/warp/WarpSimulator.cpp, sharedBankConflicts) is checked against
// these counts by tests/unit/shared_wide_test.cpp.
//
//   shared_wide PATTERNS.csv      run every pattern (one launch each, in the
//                                 order written to PATTERNS.csv)
//   shared_wide --list PATTERNS.csv   only write the patterns
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int kSharedBytes = 48 * 1024;  // static shared memory, every pattern fits
constexpr int kReps = 64;                // shared instructions a launch (a loop, not unrolled)

// Volatile PTX accesses: nvcc may neither drop, merge nor split them, so the
// SASS holds exactly one LDS/LDS.64/LDS.128 (STS...) a repetition.
template <int W>
__device__ __forceinline__ float sharedLoad(uint32_t addr) {
  if constexpr (W == 4) {
    float a;
    asm volatile("ld.volatile.shared.f32 %0, [%1];" : "=f"(a) : "r"(addr));
    return a;
  } else if constexpr (W == 8) {
    float a, b;
    asm volatile("ld.volatile.shared.v2.f32 {%0, %1}, [%2];" : "=f"(a), "=f"(b) : "r"(addr));
    return a + b;
  } else {
    float a, b, c, d;
    asm volatile("ld.volatile.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "r"(addr));
    return a + b + c + d;
  }
}

template <int W>
__device__ __forceinline__ void sharedStore(uint32_t addr, float v) {
  if constexpr (W == 4) {
    asm volatile("st.volatile.shared.f32 [%0], %1;" ::"r"(addr), "f"(v));
  } else if constexpr (W == 8) {
    asm volatile("st.volatile.shared.v2.f32 [%0], {%1, %2};" ::"r"(addr), "f"(v), "f"(v + 1));
  } else {
    asm volatile("st.volatile.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "f"(v), "f"(v + 1),
                 "f"(v + 2), "f"(v + 3));
  }
}

// Lane l (where bit l of `mask` is set) accesses byte offset laneBytes[l] of
// the shared buffer `reps` times. The buffer is left unwritten by loads:
// only the counters matter, the sum keeps the loads alive.
template <int W>
__global__ void wideLoad(const int* laneBytes, unsigned mask, int reps, float* out) {
  __shared__ __align__(16) unsigned char buf[kSharedBytes];
  int lane = threadIdx.x;
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(buf)) + laneBytes[lane];
  float acc = 0.f;
  if ((mask >> lane) & 1u) {
#pragma unroll 1
    for (int r = 0; r < reps; ++r) acc += sharedLoad<W>(addr);
  }
  out[lane] = acc;
}

template <int W>
__global__ void wideStore(const int* laneBytes, unsigned mask, int reps, float* out) {
  __shared__ __align__(16) unsigned char buf[kSharedBytes];
  int lane = threadIdx.x;
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(buf)) + laneBytes[lane];
  if ((mask >> lane) & 1u) {
#pragma unroll 1
    for (int r = 0; r < reps; ++r) sharedStore<W>(addr, static_cast<float>(lane + r));
  }
  out[lane] = 0.f;
}

struct Pattern {
  std::string name;
  int width;
  bool store;
  unsigned mask;
  int reps;
  int bytes[32];
};

static std::vector<Pattern> makePatterns() {
  std::vector<Pattern> ps;
  for (int W : {4, 8, 16}) {
    const int E = 128 / W;  // elements in 128 bytes (one row of the 32 banks)
    auto add = [&](const std::string& name, std::function<int(int)> idx, unsigned mask = 0xffffffffu,
                   bool store = false) {
      Pattern p{name, W, store, mask, kReps, {}};
      for (int l = 0; l < 32; ++l) p.bytes[l] = idx(l) * W;
      ps.push_back(p);
    };
    add("broadcast", [](int) { return 0; });
    add("broadcast_at3", [](int) { return 3; });
    for (int D : {2, 4, 8, 16}) {
      int G = 32 / D;
      std::string d = std::to_string(D);
      add("grouped" + d, [=](int l) { return l / G; });            // D neighbours, contiguous lanes share
      add("interleaved" + d, [=](int l) { return l % D; });        // D neighbours, lane mod D
      add("grouped" + d + "_samebank", [=](int l) { return (l / G) * E; });   // D words 128 B apart
      add("interleaved" + d + "_samebank", [=](int l) { return (l % D) * E; });
    }
    add("contiguous", [](int l) { return l; });
    add("contiguous_plus1", [](int l) { return l + 1; });
    for (int s : {2, 3, 4, 8, 16, 32}) add("stride" + std::to_string(s), [=](int l) { return l * s; });
    add("halves_adjacent", [](int l) { return l < 16 ? 0 : 1; });   // each half-warp one element
    add("halves_samebank", [=](int l) { return l < 16 ? 0 : E; });
    add("halves_otherbank", [](int l) { return l < 16 ? 0 : 5; });
    add("quarters_samebank", [=](int l) { return (l / 8) * E; });  // each quarter-warp one element
    // Lanes of different phases reading the same words.
    add("repeat16", [](int l) { return l % 16; });                    // two half-warps, same elements
    add("repeat8", [](int l) { return l % 8; });                      // four quarter-warps, same elements
    add("repeat16_reversed", [](int l) { return l < 16 ? l : 31 - l; });
    add("repeat8_alt_reversed", [](int l) { return (l / 8) % 2 ? 7 - l % 8 : l % 8; });
    add("overlap_halves", [](int l) { return l < 16 ? l : l - 8; });  // half 2 = elements 8..23
    add("repeat8_first_two", [](int l) { return l < 16 ? l % 8 : l; });  // quarters 0,1 same; 2,3 distinct
    // Permutations of the contiguous elements.
    add("xor1", [](int l) { return l ^ 1; });
    add("xor8", [](int l) { return l ^ 8; });
    add("xor16", [](int l) { return l ^ 16; });
    add("reverse", [](int l) { return 31 - l; });
    add("rotate8", [](int l) { return (l + 8) % 32; });
    add("mul7", [](int l) { return (l * 7) % 32; });
    add("transpose4x8", [](int l) { return (l % 4) * 8 + l / 4; });
    add("transpose8x4", [](int l) { return (l % 8) * 4 + l / 8; });
    {
      std::mt19937 g(1234 + W);
      std::vector<int> perm(32);
      for (int i = 0; i < 32; ++i) perm[i] = i;
      std::shuffle(perm.begin(), perm.end(), g);
      add("random_permutation", [perm](int l) { return perm[l]; });
    }
    // Inactive lanes.
    add("lanes0_7_contiguous", [](int l) { return l; }, 0x000000ffu);
    add("lanes8_15_contiguous", [](int l) { return l; }, 0x0000ff00u);
    add("even_lanes_contiguous", [](int l) { return l; }, 0x55555555u);
    add("lanes0_16_broadcast", [](int) { return 0; }, 0x00010001u);
    add("lane0_only", [](int) { return 0; }, 0x00000001u);
    // Random addresses over 16, 64 and 256 elements (repeats and conflicts mixed).
    for (int range : {16, 64, 256}) {
      for (int k = 0; k < 2; ++k) {
        std::mt19937 g(100 * range + 10 * k + W);
        std::vector<int> v(32);
        for (int& x : v) x = static_cast<int>(g() % range);
        add("random" + std::to_string(range) + "_" + std::to_string(k), [v](int l) { return v[l]; });
      }
    }
    if (W > 4) {
      // Which phases are active, with and without shared addresses.
      add("lanes0_15_broadcast", [](int) { return 0; }, 0x0000ffffu);
      add("lanes0_7_broadcast", [](int) { return 0; }, 0x000000ffu);
      add("lanes0_15_contiguous", [](int l) { return l; }, 0x0000ffffu);
      add("lanes0_7_16_23_contiguous", [](int l) { return l; }, 0x00ff00ffu);
      add("halves_each_repeat8", [](int l) { return l % 8 + (l / 16) * 8; });  // quarters 0=1, 2=3
    }
    if (W == 16) {
      for (int range : {8, 32}) {
        for (int k = 0; k < 2; ++k) {
          std::mt19937 g(100 * range + 10 * k + W);
          std::vector<int> v(32);
          for (int& x : v) x = static_cast<int>(g() % range);
          add("random" + std::to_string(range) + "_" + std::to_string(k), [v](int l) { return v[l]; });
        }
      }
    }
    // Stores.
    add("broadcast", [](int) { return 0; }, 0xffffffffu, true);
    add("contiguous", [](int l) { return l; }, 0xffffffffu, true);
    add("stride2", [](int l) { return 2 * l; }, 0xffffffffu, true);
    if (W > 4) {
      add("interleaved4", [](int l) { return l % 4; }, 0xffffffffu, true);
      add("repeat_row", [=](int l) { return l % E; }, 0xffffffffu, true);  // every phase the same 128 B
      add("halves_samebank", [=](int l) { return l < 16 ? 0 : E; }, 0xffffffffu, true);
    }
  }
  // Control: no shared instruction at all.
  Pattern c{"control_no_access", 16, false, 0u, 0, {}};
  ps.push_back(c);
  return ps;
}

static void writePatterns(const std::vector<Pattern>& ps, const char* path) {
  FILE* f = std::fopen(path, "w");
  if (!f) { std::perror(path); std::exit(1); }
  std::fprintf(f, "launch,name,width,op,mask,reps");
  for (int l = 0; l < 32; ++l) std::fprintf(f, ",b%d", l);
  std::fprintf(f, "\n");
  for (size_t i = 0; i < ps.size(); ++i) {
    const Pattern& p = ps[i];
    std::fprintf(f, "%zu,%s,%d,%s,0x%08x,%d", i, p.name.c_str(), p.width, p.store ? "st" : "ld", p.mask, p.reps);
    for (int l = 0; l < 32; ++l) std::fprintf(f, ",%d", p.bytes[l]);
    std::fprintf(f, "\n");
  }
  std::fclose(f);
}

int main(int argc, char** argv) {
  bool listOnly = argc > 1 && std::string(argv[1]) == "--list";
  const char* path = argc > 1 + listOnly ? argv[1 + listOnly] : "patterns.csv";
  std::vector<Pattern> ps = makePatterns();
  for (const Pattern& p : ps)
    for (int l = 0; l < 32; ++l)
      if (p.bytes[l] < 0 || p.bytes[l] + p.width > kSharedBytes || p.bytes[l] % p.width) {
        std::fprintf(stderr, "pattern %s: bad offset %d\n", p.name.c_str(), p.bytes[l]);
        return 1;
      }
  writePatterns(ps, path);
  if (listOnly) return 0;
  int* dBytes;
  float* dOut;
  CHECK(cudaMalloc(&dBytes, 32 * sizeof(int)));
  CHECK(cudaMalloc(&dOut, 32 * sizeof(float)));
  for (const Pattern& p : ps) {
    CHECK(cudaMemcpy(dBytes, p.bytes, sizeof p.bytes, cudaMemcpyHostToDevice));
    auto launch = [&](auto kernel) { kernel<<<1, 32>>>(dBytes, p.mask, p.reps, dOut); };
    if (p.store) {
      if (p.width == 4) launch(wideStore<4>);
      else if (p.width == 8) launch(wideStore<8>);
      else launch(wideStore<16>);
    } else {
      if (p.width == 4) launch(wideLoad<4>);
      else if (p.width == 8) launch(wideLoad<8>);
      else launch(wideLoad<16>);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  std::printf("shared_wide: %zu launches\n", ps.size());
  return 0;
}
