// Case study (seed 002 §5.3-5.4): matrix transpose and C = A*A^T.
// - aatNaive: thread (row, col) reads row `col` of A across the warp's lanes:
//   lanes are n floats apart (uncoalesced, warplint: global-uncoalesced).
// - aatTiled: both operands staged through 32x32 shared tiles; the second
//   tile is written transposed, Bt[tx][ty]: 32-way bank conflict on the store
//   (warplint: shared-bank-conflict), as in the seed's profile (32
//   transactions per access where 1 is ideal).
// - aatTiledPadded: Bt[32][33], the seed's fix.
// - transposeTile / transposePadded: 32x32 tile read by columns, then padded.
//
//   nvcc -O3 -lineinfo -arch=sm_90 -o aat examples/case_aat_transpose.cu && ./aat
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

constexpr int TILE = 32;

// C[row][col] = sum_k A[row][k] * A[col][k]; block (32, 8), 4 rows a thread.
__global__ void aatNaive(const float *A, float *C, int n) {
  int col = blockIdx.x * TILE + threadIdx.x;
  int row0 = blockIdx.y * TILE + threadIdx.y;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < n; ++k) {
    float b = A[col * n + k];
#pragma unroll
    for (int r = 0; r < 4; ++r)
      acc[r] += A[(row0 + 8 * r) * n + k] * b;
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
    C[(row0 + 8 * r) * n + col] = acc[r];
}

// Shared tiles; block (32, 8), each thread computes 4 rows of the 32x32 tile.
__global__ void aatTiled(const float *A, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bt[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int rowBase = blockIdx.y * TILE, colBase = blockIdx.x * TILE;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int t = 0; t < n; t += TILE) {
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      As[ty + 8 * r][tx] = A[(rowBase + ty + 8 * r) * n + t + tx];
      Bt[tx][ty + 8 * r] = A[(colBase + ty + 8 * r) * n + t + tx];
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < TILE; ++k) {
      float b = Bt[k][tx];
#pragma unroll
      for (int r = 0; r < 4; ++r)
        acc[r] += As[ty + 8 * r][k] * b;
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
    C[(rowBase + ty + 8 * r) * n + colBase + tx] = acc[r];
}

__global__ void aatTiledPadded(const float *A, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bt[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int rowBase = blockIdx.y * TILE, colBase = blockIdx.x * TILE;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int t = 0; t < n; t += TILE) {
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      As[ty + 8 * r][tx] = A[(rowBase + ty + 8 * r) * n + t + tx];
      Bt[tx][ty + 8 * r] = A[(colBase + ty + 8 * r) * n + t + tx];
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < TILE; ++k) {
      float b = Bt[k][tx];
#pragma unroll
      for (int r = 0; r < 4; ++r)
        acc[r] += As[ty + 8 * r][k] * b;
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
    C[(rowBase + ty + 8 * r) * n + colBase + tx] = acc[r];
}

__global__ void transposeTile(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transposePadded(const float *in, float *out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <typename K>
static float medianMs(K launch, int reps) {
  cudaEvent_t s, e;
  CK(cudaEventCreate(&s));
  CK(cudaEventCreate(&e));
  launch();
  CK(cudaGetLastError());
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
  return ts[ts.size() / 2];
}

int main() {
  const int n = 2048, reps = 15;
  size_t nn = size_t(n) * n;
  std::vector<float> hA(nn), hC(nn);
  srand(7);
  for (auto &v : hA)
    v = float(rand()) / RAND_MAX - 0.5f;
  float *A, *C;
  CK(cudaMalloc(&A, nn * 4));
  CK(cudaMalloc(&C, nn * 4));
  CK(cudaMemcpy(A, hA.data(), nn * 4, cudaMemcpyHostToDevice));
  dim3 blk(TILE, 8), grd(n / TILE, n / TILE);

  // C = A*A^T: reference on 256 sampled entries, in double.
  std::vector<int> si(256), sj(256);
  for (int s = 0; s < 256; ++s) {
    si[s] = rand() % n;
    sj[s] = rand() % n;
  }
  auto check = [&]() {
    CK(cudaMemcpy(hC.data(), C, nn * 4, cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (int s = 0; s < 256; ++s) {
      double ref = 0;
      for (int k = 0; k < n; ++k)
        ref += double(hA[size_t(si[s]) * n + k]) * hA[size_t(sj[s]) * n + k];
      double d = hC[size_t(si[s]) * n + sj[s]] - ref;
      num += d * d;
      den += ref * ref;
    }
    double rel = std::sqrt(num / den);
    return rel == rel ? rel : 1e30;
  };
  printf("%-18s %10s %9s %12s\n", "kernel", "median_ms", "speedup", "rel_err");
  const char *names[3] = {"aatNaive", "aatTiled", "aatTiledPadded"};
  float base = 0, prev = 0;
  for (int v = 0; v < 3; ++v) {
    CK(cudaMemset(C, 0xff, nn * 4));
    auto launch = [&] {
      if (v == 0)
        aatNaive<<<grd, blk>>>(A, C, n);
      else if (v == 1)
        aatTiled<<<grd, blk>>>(A, C, n);
      else
        aatTiledPadded<<<grd, blk>>>(A, C, n);
    };
    float ms = medianMs(launch, reps);
    if (v == 0)
      base = ms;
    double rel = check();
    printf("%-18s %10.4f %8.2fx %12.3e %s (vs previous %.2fx)\n", names[v], ms,
           base / ms, rel, rel < 1e-4 ? "ok" : "WRONG", v ? prev / ms : 1.0);
    prev = ms;
  }

  // Transpose, 8192 x 8192 floats.
  const int m = 8192;
  size_t mm = size_t(m) * m;
  float *I, *O;
  CK(cudaMalloc(&I, mm * 4));
  CK(cudaMalloc(&O, mm * 4));
  std::vector<float> hI(mm), hO(mm);
  for (size_t i = 0; i < mm; ++i)
    hI[i] = float((i * 2654435761u) % 100003u);
  CK(cudaMemcpy(I, hI.data(), mm * 4, cudaMemcpyHostToDevice));
  dim3 g2(m / TILE, m / TILE);
  const char *tn[2] = {"transposeTile", "transposePadded"};
  float tbase = 0;
  for (int v = 0; v < 2; ++v) {
    CK(cudaMemset(O, 0xff, mm * 4));
    auto launch = [&] {
      if (v == 0)
        transposeTile<<<g2, blk>>>(I, O, m);
      else
        transposePadded<<<g2, blk>>>(I, O, m);
    };
    float ms = medianMs(launch, reps);
    if (v == 0)
      tbase = ms;
    CK(cudaMemcpy(hO.data(), O, mm * 4, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t r = 0; r < size_t(m); ++r)
      for (size_t c = 0; c < size_t(m); ++c)
        bad += hO[c * m + r] != hI[r * m + c];
    printf("%-18s %10.4f %8.2fx %12s %s (%.0f GB/s)\n", tn[v], ms, tbase / ms,
           bad ? "mismatch" : "exact", bad ? "WRONG" : "ok",
           2.0 * mm * 4 / (ms * 1e6));
  }
  CK(cudaFree(A));
  CK(cudaFree(C));
  CK(cudaFree(I));
  CK(cudaFree(O));
  return 0;
}
