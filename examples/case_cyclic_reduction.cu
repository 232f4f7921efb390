// Case study (seed 003 §5.2): cyclic reduction (CR) for many tridiagonal
// systems, one system of NE equations per block, equations mapped to threads.
// The forward and backward phases access shared memory with a stride that
// doubles every step, so the bank conflicts double too. warplint reports
// them on `crBaseline`; `crPadded` inserts one word of padding every 32
// words (the seed padded 1 per 16 on its 16-bank GPU), which spreads the
// strided lanes over distinct banks.
//
//   nvcc -O3 -lineinfo -arch=sm_90 -o cr examples/case_cyclic_reduction.cu
//   ./cr            # prints a timing table (median of 20 runs) and checks
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

constexpr int NE = 512;       // equations per system
constexpr int NT = NE / 2;    // threads per block
constexpr int PADDED = NE + NE / 32;

// Baseline: plain arrays; lanes of a step are 2*st words apart.
__global__ void crBaseline(const float *ga, const float *gb, const float *gc,
                           const float *gd, float *gx) {
  __shared__ float a[NE], b[NE], c[NE], d[NE], x[NE];
  int t = threadIdx.x;
  size_t base = size_t(blockIdx.x) * NE;
  a[t] = ga[base + t];
  a[t + NT] = ga[base + t + NT];
  b[t] = gb[base + t];
  b[t + NT] = gb[base + t + NT];
  c[t] = gc[base + t];
  c[t + NT] = gc[base + t + NT];
  d[t] = gd[base + t];
  d[t + NT] = gd[base + t + NT];
  __syncthreads();
  // forward reduction: st is the distance to the neighbours
  for (int st = 1; st < NE / 2; st *= 2) {
    if (t < NE / (2 * st)) {
      int i = 2 * st * t + 2 * st - 1;
      int lo = i - st;
      int hi = min(i + st, NE - 1);
      float k1 = a[i] / b[lo];
      float k2 = c[i] / b[hi];
      b[i] = b[i] - c[lo] * k1 - a[hi] * k2;
      d[i] = d[i] - d[lo] * k1 - d[hi] * k2;
      a[i] = -a[lo] * k1;
      c[i] = -c[hi] * k2;
    }
    __syncthreads();
  }
  // two equations left: NE/2-1 and NE-1
  if (t == 0) {
    int i1 = NE / 2 - 1, i2 = NE - 1;
    float det = b[i2] * b[i1] - c[i1] * a[i2];
    x[i1] = (b[i2] * d[i1] - c[i1] * d[i2]) / det;
    x[i2] = (d[i2] * b[i1] - d[i1] * a[i2]) / det;
  }
  __syncthreads();
  // backward substitution
  for (int st = NE / 4; st >= 1; st /= 2) {
    if (t < NE / (2 * st)) {
      int i = 2 * st * t + st - 1; // last updated at step st/2: couples i +- st
      int lo = i - st;
      int hi = i + st;
      float xl = lo >= 0 ? x[lo] : 0.f;
      x[i] = (d[i] - a[i] * xl - c[i] * x[hi]) / b[i];
    }
    __syncthreads();
  }
  gx[base + t] = x[t];
  gx[base + t + NT] = x[t + NT];
}

// Padded: word i of each array lives at i + i/32.
#define P(i) ((i) + ((i) >> 5))
__global__ void crPadded(const float *ga, const float *gb, const float *gc,
                         const float *gd, float *gx) {
  __shared__ float a[PADDED], b[PADDED], c[PADDED], d[PADDED], x[PADDED];
  int t = threadIdx.x;
  size_t base = size_t(blockIdx.x) * NE;
  a[P(t)] = ga[base + t];
  a[P(t + NT)] = ga[base + t + NT];
  b[P(t)] = gb[base + t];
  b[P(t + NT)] = gb[base + t + NT];
  c[P(t)] = gc[base + t];
  c[P(t + NT)] = gc[base + t + NT];
  d[P(t)] = gd[base + t];
  d[P(t + NT)] = gd[base + t + NT];
  __syncthreads();
  for (int st = 1; st < NE / 2; st *= 2) {
    if (t < NE / (2 * st)) {
      int i = 2 * st * t + 2 * st - 1;
      int lo = i - st;
      int hi = min(i + st, NE - 1);
      float k1 = a[P(i)] / b[P(lo)];
      float k2 = c[P(i)] / b[P(hi)];
      b[P(i)] = b[P(i)] - c[P(lo)] * k1 - a[P(hi)] * k2;
      d[P(i)] = d[P(i)] - d[P(lo)] * k1 - d[P(hi)] * k2;
      a[P(i)] = -a[P(lo)] * k1;
      c[P(i)] = -c[P(hi)] * k2;
    }
    __syncthreads();
  }
  if (t == 0) {
    int i1 = NE / 2 - 1, i2 = NE - 1;
    float det = b[P(i2)] * b[P(i1)] - c[P(i1)] * a[P(i2)];
    x[P(i1)] = (b[P(i2)] * d[P(i1)] - c[P(i1)] * d[P(i2)]) / det;
    x[P(i2)] = (d[P(i2)] * b[P(i1)] - d[P(i1)] * a[P(i2)]) / det;
  }
  __syncthreads();
  for (int st = NE / 4; st >= 1; st /= 2) {
    if (t < NE / (2 * st)) {
      int i = 2 * st * t + st - 1;
      int lo = i - st;
      int hi = i + st;
      float xl = lo >= 0 ? x[P(lo)] : 0.f;
      x[P(i)] = (d[P(i)] - a[P(i)] * xl - c[P(i)] * x[P(hi)]) / b[P(i)];
    }
    __syncthreads();
  }
  gx[base + t] = x[P(t)];
  gx[base + t + NT] = x[P(t + NT)];
}

// Thomas algorithm in double precision: the reference.
static void thomas(const float *a, const float *b, const float *c,
                   const float *d, double *x, int n) {
  std::vector<double> cp(n), dp(n);
  cp[0] = c[0] / double(b[0]);
  dp[0] = d[0] / double(b[0]);
  for (int i = 1; i < n; ++i) {
    double m = b[i] - a[i] * cp[i - 1];
    cp[i] = c[i] / m;
    dp[i] = (d[i] - a[i] * dp[i - 1]) / m;
  }
  x[n - 1] = dp[n - 1];
  for (int i = n - 2; i >= 0; --i)
    x[i] = dp[i] - cp[i] * x[i + 1];
}

template <typename K>
static float medianMs(K launch, int reps) {
  cudaEvent_t s, e;
  CK(cudaEventCreate(&s));
  CK(cudaEventCreate(&e));
  launch(); // warm-up
  CK(cudaDeviceSynchronize());
  std::vector<float> ts;
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(s));
    launch();
    CK(cudaEventRecord(e));
    CK(cudaEventSynchronize(e));
    float ms;
    CK(cudaEventElapsedTime(&ms, s, e));
    ts.push_back(ms);
  }
  CK(cudaGetLastError());
  std::sort(ts.begin(), ts.end());
  CK(cudaEventDestroy(s));
  CK(cudaEventDestroy(e));
  return ts[ts.size() / 2];
}

int main() {
  const int sizes[2] = {512, 16384}; // systems: the seed's 512, then a full GPU
  printf("%-10s %-10s %10s %10s %8s %12s\n", "systems", "kernel", "median_ms",
         "speedup", "reps", "max_rel_err");
  for (int nsys : sizes) {
    size_t n = size_t(nsys) * NE;
    std::vector<float> h[4];
    srand(42 + nsys);
    for (auto &v : h)
      v.resize(n);
    for (size_t i = 0; i < n; ++i) {
      int k = int(i % NE);
      h[0][i] = k == 0 ? 0.f : -1.f + float(rand()) / RAND_MAX * 0.5f;
      h[2][i] = k == NE - 1 ? 0.f : -1.f + float(rand()) / RAND_MAX * 0.5f;
      h[1][i] = 4.f + float(rand()) / RAND_MAX;                 // dominant
      h[3][i] = float(rand()) / RAND_MAX * 2.f - 1.f;
    }
    float *dv[5];
    for (int k = 0; k < 5; ++k)
      CK(cudaMalloc(&dv[k], n * sizeof(float)));
    for (int k = 0; k < 4; ++k)
      CK(cudaMemcpy(dv[k], h[k].data(), n * sizeof(float), cudaMemcpyHostToDevice));
    std::vector<float> out(n);
    std::vector<double> ref(NE);
    float base = 0;
    for (int v = 0; v < 2; ++v) {
      CK(cudaMemset(dv[4], 0xff, n * sizeof(float))); // poison (NaN)
      auto launch = [&] {
        if (v == 0)
          crBaseline<<<nsys, NT>>>(dv[0], dv[1], dv[2], dv[3], dv[4]);
        else
          crPadded<<<nsys, NT>>>(dv[0], dv[1], dv[2], dv[3], dv[4]);
      };
      float ms = medianMs(launch, 20);
      if (v == 0)
        base = ms;
      CK(cudaMemcpy(out.data(), dv[4], n * sizeof(float), cudaMemcpyDeviceToHost));
      double worst = 0;
      for (int s = 0; s < nsys; s += std::max(1, nsys / 64)) {
        size_t o = size_t(s) * NE;
        thomas(&h[0][o], &h[1][o], &h[2][o], &h[3][o], ref.data(), NE);
        double num = 0, den = 0;
        for (int i = 0; i < NE; ++i) {
          double df = out[o + i] - ref[i];
          num += df * df;
          den += ref[i] * ref[i];
        }
        double rel = std::sqrt(num / den);
        if (!(rel == rel))
          rel = 1e30;
        worst = std::max(worst, rel);
      }
      printf("%-10d %-10s %10.4f %9.2fx %8d %12.3e %s\n", nsys,
             v == 0 ? "baseline" : "padded", ms, base / ms, 20, worst,
             worst < 1e-4 ? "ok" : "WRONG");
    }
    for (int k = 0; k < 5; ++k)
      CK(cudaFree(dv[k]));
  }
  return 0;
}
