// Wild-idiom corpus, group 7 (issue 11's staging rules; kernel_metrics.py
// replays): global data a block re-reads (a naive matrix multiply, 1-D and
// 2-D stencils read straight from global memory) against data read once
// (streams, a transpose through global memory, a bias or a broadcast row
// mixed into a stream), and shared arrays that carry data between threads (a
// tiled matrix multiply, a staged stencil, a transpose through a tile, a
// warp's neighbour exchange, a value loaded by thread 0, a read through a
// helper) against shared arrays that do not (each thread reads back its own
// element, a per-thread scratch) and one written and never read.
//
// Every launch has at most 128 blocks, fewer than the H100's 132 SMs, so that
// each block has an SM and its L1 to itself: whatever the L1 serves again
// was fetched by the same block (the recorded sm__ctas_launched.max says 1).
//
// Built a second time with -DPRIVATE_TWIN, every __shared__ array below
// becomes a thread-private array: a kernel whose output is still right then
// carries no data between threads through shared memory (the ground truth of
// shared-staging-no-reuse). With WILD_TIME=1 in the environment each kernel
// is also timed (median of 11 launches after the checked one).
#include "wild.cuh"

#include <algorithm>
#include <cstring>

#ifdef PRIVATE_TWIN
#undef __shared__
#define __shared__
#endif

// ---- global data re-read within a block (shared-staging-candidate) ----

// G01 naive matrix multiply, (16, 16) blocks: B[k * n + col] is read by all
// 16 rows of threads, in 8 warp requests, at every k (positive).
__global__ void matmulNaive(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k < n; ++k)
    acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}

// G02 1-D stencil of radius 4 over a halo-padded input: in[j] is read by the
// 9 threads j-4..j+4, in 9 shifted warp requests (positive; the L1 already
// serves these repeats: tests/gpu/staging measured 0.96x for staging one).
__global__ void stencilRadius4(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int d = -4; d <= 4; ++d)
    acc += in[i + 4 + d] * (float)(5 - (d < 0 ? -d : d));
  out[i] = acc;
}

// G03 5-point blur on (32, 8) blocks over a padded image (pitch w + 2): the
// rows above and below a warp's row are other warps' rows (positive).
__global__ void blurFivePoint(const float *img, float *out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int p = (y + 1) * (w + 2) + x + 1;
  float c = img[p];
  float n = img[p - (w + 2)];
  float s = img[p + (w + 2)];
  float e = img[p + 1];
  float o = img[p - 1];
  out[y * w + x] = 4.f * c - n - s - e - o;
}

// G04 a grid-stride stream: every element read once (negative).
__global__ void scaleStream(const float *in, float *out, int n, float a, float b) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = a * in[i] + b;
}

// G05 transpose through global memory, (32, 8) blocks: coalesced reads, each
// element read once (negative; the writes are global-uncoalesced's).
__global__ void transposeGlobal(const float *in, float *out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  for (int r = 0; r < 32; r += 8) {
    int y = blockIdx.y * 32 + threadIdx.y + r;
    out[x * n + y] = in[y * n + x];
  }
}

// G06 a bias row added to every row of a (32, 8) block: bias[x] is read by
// the 8 rows of threads, one element a thread, beside a stream of the same
// width (negative: nothing to amortize a tile over).
__global__ void addBiasRows(const float *in, const float *bias, float *out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * w + x] = in[y * w + x] + bias[x];
}

// G07 one weight row broadcast to every thread: w[k] is the same address in
// every lane (one request a warp), the rows of `in` are streamed (negative).
__global__ void combineRows(const float *in, const float *w, float *out, int n, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k < rows; ++k)
    acc += w[k] * in[k * n + i];
  out[i] = acc;
}

// G08 each thread sums its own 32-float segment: no element is read by two
// threads, but consecutive k hit the sector the thread itself fetched
// (negative for the rule; global-uncoalesced's pattern).
__global__ void segmentSums(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k < 32; ++k)
    acc += in[i * 32 + k];
  out[i] = acc;
}

// ---- shared arrays with reuse across threads (shared-staging-no-reuse negatives) ----

// S01 tiled matrix multiply, 16x16 tiles of A and B: every thread reads the
// tile row and column other threads stored.
__global__ void matmulTiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty;
  int col = blockIdx.x * 16 + tx;
  float acc = 0.f;
  for (int t = 0; t < n / 16; ++t) {
    As[ty][tx] = A[row * n + t * 16 + tx];
    Bs[ty][tx] = B[(t * 16 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// S02 the radius-4 stencil staged through a tile with its halo (264 floats
// for 256 threads): thread t reads the elements threads t-4..t+4 stored.
__global__ void stencilStaged(const float *in, float *out) {
  __shared__ float tile[256 + 8];
  int t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  tile[t] = in[i];
  if (t < 8)
    tile[256 + t] = in[i + 256];
  __syncthreads();
  float acc = 0.f;
  for (int d = -4; d <= 4; ++d)
    acc += tile[t + 4 + d] * (float)(5 - (d < 0 ? -d : d));
  out[i] = acc;
}

// S03 transpose through a padded 32x33 tile, (32, 8) blocks: each thread
// writes out what another thread loaded.
__global__ void transposeTiled(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int r = 0; r < 32; r += 8)
    tile[threadIdx.y + r][threadIdx.x] = in[(y + r) * n + x];
  __syncthreads();
  int tx = blockIdx.y * 32 + threadIdx.x;
  int ty = blockIdx.x * 32 + threadIdx.y;
  for (int r = 0; r < 32; r += 8)
    out[(ty + r) * n + tx] = tile[threadIdx.x][threadIdx.y + r];
}

// S04 a warp's neighbour exchange at a warp-id offset: lane l of warp w
// reads what lane l+1 of the same warp stored (the last lane reads lane 0).
__global__ void warpNeighbour(const float *in, float *out) {
  __shared__ float s[256];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[warp * 32 + lane] = in[i];
  __syncthreads();
  int next = lane == 31 ? 0 : lane + 1;
  out[i] = s[warp * 32 + next] - s[warp * 32 + lane];
}

// S05 one value per block loaded by thread 0 and read by every thread.
__global__ void scaleByBlockValue(const float *in, const float *scales, float *out) {
  __shared__ float scale;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    scale = scales[blockIdx.x];
  __syncthreads();
  out[i] = in[i] * scale;
}

// S06 pairs of threads swap through a helper that reads the staged array.
__device__ float stagedAt(const float *s, int k) { return s[k]; }

__global__ void pairSwap(const float *in, float *out) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i] * 2.f;
  __syncthreads();
  out[i] = stagedAt(s, threadIdx.x ^ 1);
}

// ---- shared arrays without reuse across threads (shared-staging-no-reuse positives) ----

// N01 each thread stages its converted pixel and reads back its own element.
__global__ void stageOwnElement(const float *in, float *out, float gain) {
  __shared__ float staged[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  staged[threadIdx.x] = in[i] * gain;
  __syncthreads();
  out[i] = staged[threadIdx.x] + 1.f;
}

// N02 the same on a (16, 16) block through a 2-D tile.
__global__ void stageOwnTile(const float *in, float *out, int w) {
  __shared__ float tile[16][16];
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  float v = tile[threadIdx.y][threadIdx.x];
  out[y * w + x] = v * v;
}

// N03 a per-thread scratch of 4 values at a stride of the block size: each
// thread reads back only the 4 elements it wrote.
__global__ void scratchPerThread(const float *in, float *out) {
  __shared__ float scratch[4 * 256];
  int t = threadIdx.x;
  int i = blockIdx.x * 256 + t;
  for (int k = 0; k < 4; ++k)
    scratch[k * 256 + t] = in[i] * (float)(k + 1);
  float acc = 0.f;
  for (int k = 0; k < 4; ++k)
    acc += scratch[(3 - k) * 256 + t] * (float)k;
  out[i] = acc;
}

// N04 a debug copy of the input kept in shared memory and never read: nvcc
// deletes the array and its stores (no STS executes; negative).
__global__ void stageNeverRead(const float *in, float *out) {
  __shared__ float copy[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  copy[threadIdx.x] = v;
  __syncthreads();
  out[i] = v * 0.5f;
}

// ---- host ----

// Median time of 11 launches (after the checked one) when WILD_TIME is set.
template <class F> void timeIt(const char *name, F launch) {
  if (!getenv("WILD_TIME"))
    return;
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int r = 0; r < 11; ++r) {
    CK(cudaEventRecord(a));
    launch();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float t = 0;
    CK(cudaEventElapsedTime(&t, a, b));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  printf("time %s %.4f ms\n", name, ms[5]);
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
}

#define CHECKED(name, launch, want)                                            \
  do {                                                                         \
    CK(cudaMemset(out, 0, N * sizeof(float)));                                 \
    RUN(name, launch);                                                         \
    expect(name, out, want);                                                   \
    timeIt(name, [&] { launch; });                                             \
  } while (0)

int main() {
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  printf("SMs %d (every launch has at most 128 blocks)\n", sms);
  const int N = 128 * 256; // 32768 outputs
  std::vector<float> h = hostSeq<float>(N + 4096, 7), h2 = hostSeq<float>(N + 4096, 8);
  for (auto &v : h)
    v = (float)((int)v % 64); // small integers: every sum below is exact
  for (auto &v : h2)
    v = (float)((int)v % 16);
  float *in = toDevice(h), *in2 = toDevice(h2), *out = devZero<float>(N);
  std::vector<float> want(N);

  { // G01 matmulNaive: n = 128, 8 x 8 blocks of (16, 16)
    const int n = 128;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        float acc = 0.f;
        for (int k = 0; k < n; ++k)
          acc += h[r * n + k] * h2[k * n + c];
        want[r * n + c] = acc;
      }
    std::vector<float> w(want.begin(), want.begin() + n * n);
    CHECKED("matmulNaive", (matmulNaive<<<dim3(8, 8), dim3(16, 16)>>>(in, in2, out, n)), w);
  }
  for (int i = 0; i < N; ++i) { // G02 stencilRadius4: 128 blocks of 256
    float acc = 0.f;
    for (int d = -4; d <= 4; ++d)
      acc += h[i + 4 + d] * (float)(5 - std::abs(d));
    want[i] = acc;
  }
  CHECKED("stencilRadius4", (stencilRadius4<<<128, 256>>>(in, out)), want);
  { // G03 blurFivePoint: 256 x 128 image, (32, 8) blocks, 8 x 16 of them
    const int w = 256, hgt = 128, pw = w + 2;
    for (int y = 0; y < hgt; ++y)
      for (int x = 0; x < w; ++x) {
        int p = (y + 1) * pw + x + 1;
        want[y * w + x] = 4.f * h[p] - h[p - pw] - h[p + pw] - h[p + 1] - h[p - 1];
      }
    CHECKED("blurFivePoint", (blurFivePoint<<<dim3(8, 16), dim3(32, 8)>>>(in, out, w)), want);
  }
  for (int i = 0; i < N; ++i) // G04 scaleStream: 64 blocks stride over 32768
    want[i] = 3.f * h[i] + 1.f;
  CHECKED("scaleStream", (scaleStream<<<64, 256>>>(in, out, N, 3.f, 1.f)), want);
  { // G05 transposeGlobal: 128 x 128, (32, 8) blocks, 4 x 4 of them
    const int n = 128;
    std::vector<float> m(h.begin(), h.begin() + n * n);
    CHECKED("transposeGlobal", (transposeGlobal<<<dim3(4, 4), dim3(32, 8)>>>(in, out, n)), transposed(m, n));
  }
  { // G06 addBiasRows: 256 x 128, (32, 8) blocks; bias = in2
    const int w = 256;
    for (int i = 0; i < N; ++i)
      want[i] = h[i] + h2[i % w];
    CHECKED("addBiasRows", (addBiasRows<<<dim3(8, 16), dim3(32, 8)>>>(in, in2, out, w)), want);
  }
  { // G07 combineRows: 16 rows of 2048, weights = in2
    const int n = 2048, rows = 16;
    std::vector<float> w(n);
    for (int i = 0; i < n; ++i) {
      float acc = 0.f;
      for (int k = 0; k < rows; ++k)
        acc += h2[k] * h[k * n + i];
      w[i] = acc;
    }
    CHECKED("combineRows", (combineRows<<<8, 256>>>(in, in2, out, n, rows)), w);
  }
  { // G08 segmentSums: 1024 segments of 32 floats
    std::vector<float> w(1024);
    for (int i = 0; i < 1024; ++i) {
      float acc = 0.f;
      for (int k = 0; k < 32; ++k)
        acc += h[i * 32 + k];
      w[i] = acc;
    }
    CHECKED("segmentSums", (segmentSums<<<4, 256>>>(in, out)), w);
  }
  { // S01 matmulTiled: same product as G01
    const int n = 128;
    std::vector<float> w(n * n);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        float acc = 0.f;
        for (int k = 0; k < n; ++k)
          acc += h[r * n + k] * h2[k * n + c];
        w[r * n + c] = acc;
      }
    CHECKED("matmulTiled", (matmulTiled<<<dim3(8, 8), dim3(16, 16)>>>(in, in2, out, n)), w);
  }
  for (int i = 0; i < N; ++i) { // S02 stencilStaged: same as G02
    float acc = 0.f;
    for (int d = -4; d <= 4; ++d)
      acc += h[i + 4 + d] * (float)(5 - std::abs(d));
    want[i] = acc;
  }
  CHECKED("stencilStaged", (stencilStaged<<<128, 256>>>(in, out)), want);
  { // S03 transposeTiled: 128 x 128
    const int n = 128;
    std::vector<float> m(h.begin(), h.begin() + n * n);
    CHECKED("transposeTiled", (transposeTiled<<<dim3(4, 4), dim3(32, 8)>>>(in, out, n)), transposed(m, n));
  }
  for (int i = 0; i < N; ++i) { // S04 warpNeighbour
    int lane = i % 32, next = lane == 31 ? i - 31 : i + 1;
    want[i] = h[next] - h[i];
  }
  CHECKED("warpNeighbour", (warpNeighbour<<<128, 256>>>(in, out)), want);
  for (int i = 0; i < N; ++i) // S05 scaleByBlockValue: scales = in2
    want[i] = h[i] * h2[i / 256];
  CHECKED("scaleByBlockValue", (scaleByBlockValue<<<128, 256>>>(in, in2, out)), want);
  for (int i = 0; i < N; ++i) // S06 pairSwap
    want[i] = h[i ^ 1] * 2.f;
  CHECKED("pairSwap", (pairSwap<<<128, 256>>>(in, out)), want);
  for (int i = 0; i < N; ++i) // N01 stageOwnElement
    want[i] = h[i] * 2.f + 1.f;
  CHECKED("stageOwnElement", (stageOwnElement<<<128, 256>>>(in, out, 2.f)), want);
  for (int i = 0; i < N; ++i) // N02 stageOwnTile: 256 x 128, 16 x 8 blocks of (16, 16)
    want[i] = h[i] * h[i];
  CHECKED("stageOwnTile", (stageOwnTile<<<dim3(16, 8), dim3(16, 16)>>>(in, out, 256)), want);
  for (int i = 0; i < N; ++i) { // N03 scratchPerThread
    float acc = 0.f;
    for (int k = 0; k < 4; ++k)
      acc += h[i] * (float)(4 - k) * (float)k;
    want[i] = acc;
  }
  CHECKED("scratchPerThread", (scratchPerThread<<<128, 256>>>(in, out)), want);
  for (int i = 0; i < N; ++i) // N04 stageNeverRead
    want[i] = h[i] * 0.5f;
  CHECKED("stageNeverRead", (stageNeverRead<<<128, 256>>>(in, out)), want);

  freeAll(in, in2, out);
#ifdef PRIVATE_TWIN
  return finish("wild_staging (private twin)");
#else
  return finish("wild_staging");
#endif
}
