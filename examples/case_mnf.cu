// Case study (seed 000 §8): the three hot spots of the maximum noise
// fraction (MNF) rotation of a hyperspectral image of B bands x S pixels,
// stored band-major as bytes (X[b][p], S = W*H).
//  S1 noise estimate F = X - filter3x3(X):
//     filterMedian  private window[9] sorted with run-time indices: the
//                   array lives in local memory (stack frame in -Xptxas -v)
//     filterMean    the mean filter (the seed's replacement): registers only
//     filterMeanSmem + a shared tile with halo, each pixel loaded once
//  S2/S4 covariance C = (F - mean)(F - mean)^T / (S - 1):
//     covNaive      thread per (i, j): lanes read rows j, S floats apart
//     covTiled      32x32 shared tiles, second tile stored transposed
//     covTiledPad   the transposed tile padded to 33 words
//  S8 transformation Z = T^T X (T: B x M, M = 16 components):
//     transformGlobal   T read from global memory in the inner loop
//     transformConst    T in __constant__ memory (a broadcast to the warp)
//     transformConstReg T in constant memory, X read once, Z in registers
//
//   nvcc -O3 -lineinfo -arch=sm_90 -o mnf examples/case_mnf.cu && ./mnf
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

constexpr int W = 256, H = 256, S = W * H; // pixels a band
constexpr int NB = 224;                     // bands (AVIRIS)
constexpr int M = 16;                       // MNF components kept
constexpr int TILE = 32;

// ---------------------------------------------------------------- S1 filter
// Block (32, 8), grid (W/32, H/8, NB); borders are clamped.
__global__ void filterMedian(const unsigned char *X, float *F) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  const unsigned char *band = X + size_t(blockIdx.z) * S;
  unsigned char win[9];
  int n = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      int yy = min(max(y + dy, 0), H - 1), xx = min(max(x + dx, 0), W - 1);
      win[n++] = band[yy * W + xx];
    }
  for (int i = 1; i < 9; ++i) { // insertion sort: run-time indices
    unsigned char v = win[i];
    int j = i - 1;
    while (j >= 0 && win[j] > v) {
      win[j + 1] = win[j];
      --j;
    }
    win[j + 1] = v;
  }
  F[size_t(blockIdx.z) * S + y * W + x] = float(band[y * W + x]) - float(win[4]);
}

__global__ void filterMean(const unsigned char *X, float *F) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  const unsigned char *band = X + size_t(blockIdx.z) * S;
  int sum = 0;
#pragma unroll
  for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
    for (int dx = -1; dx <= 1; ++dx) {
      int yy = min(max(y + dy, 0), H - 1), xx = min(max(x + dx, 0), W - 1);
      sum += band[yy * W + xx];
    }
  F[size_t(blockIdx.z) * S + y * W + x] = float(band[y * W + x]) - sum / 9.f;
}

__global__ void filterMeanSmem(const unsigned char *X, float *F) {
  __shared__ unsigned char t[10][36]; // 8+2 rows, 32+2 columns (+2 spare)
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  const unsigned char *band = X + size_t(blockIdx.z) * S;
  // 340 halo-tile bytes loaded by 256 threads in two rounds
  for (int k = threadIdx.y * 32 + threadIdx.x; k < 10 * 34; k += 256) {
    int ty = k / 34, tx = k % 34;
    int yy = min(max(int(blockIdx.y) * 8 + ty - 1, 0), H - 1);
    int xx = min(max(int(blockIdx.x) * 32 + tx - 1, 0), W - 1);
    t[ty][tx] = band[yy * W + xx];
  }
  __syncthreads();
  int sum = 0;
#pragma unroll
  for (int dy = 0; dy < 3; ++dy)
#pragma unroll
    for (int dx = 0; dx < 3; ++dx)
      sum += t[threadIdx.y + dy][threadIdx.x + dx];
  F[size_t(blockIdx.z) * S + y * W + x] =
      float(t[threadIdx.y + 1][threadIdx.x + 1]) - sum / 9.f;
}

// ------------------------------------------------------------ S2 covariance
__global__ void bandMeans(const float *F, float *mean) {
  __shared__ float part[256];
  const float *row = F + size_t(blockIdx.x) * S;
  float s = 0.f;
  for (int p = threadIdx.x; p < S; p += 256)
    s += row[p];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int st = 128; st > 0; st >>= 1) {
    if (threadIdx.x < st)
      part[threadIdx.x] += part[threadIdx.x + st];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    mean[blockIdx.x] = part[0] / S;
}

// Block (32, 8), grid (NB/32, NB/32); thread computes rows ty + 8r of a
// 32x32 tile of C.
__global__ void covNaive(const float *F, const float *mean, float *C) {
  int j = blockIdx.x * TILE + threadIdx.x;
  int i0 = blockIdx.y * TILE + threadIdx.y;
  float mj = mean[j], mi[4], acc[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll
  for (int r = 0; r < 4; ++r)
    mi[r] = mean[i0 + 8 * r];
  for (int k = 0; k < S; ++k) {
    float fj = F[size_t(j) * S + k] - mj;
#pragma unroll
    for (int r = 0; r < 4; ++r)
      acc[r] += (F[size_t(i0 + 8 * r) * S + k] - mi[r]) * fj;
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
    C[(i0 + 8 * r) * NB + j] = acc[r] / (S - 1);
}

__global__ void covTiled(const float *F, const float *mean, float *C) {
  __shared__ float Fi[TILE][TILE];
  __shared__ float Fj[TILE][TILE]; // stored transposed: Fj[k][j]
  int tx = threadIdx.x, ty = threadIdx.y;
  int iBase = blockIdx.y * TILE, jBase = blockIdx.x * TILE;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int t = 0; t < S; t += TILE) {
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      int row = ty + 8 * r;
      Fi[row][tx] = F[size_t(iBase + row) * S + t + tx] - mean[iBase + row];
      Fj[tx][row] = F[size_t(jBase + row) * S + t + tx] - mean[jBase + row];
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < TILE; ++k) {
      float b = Fj[k][tx];
#pragma unroll
      for (int r = 0; r < 4; ++r)
        acc[r] += Fi[ty + 8 * r][k] * b;
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
    C[(iBase + ty + 8 * r) * NB + jBase + tx] = acc[r] / (S - 1);
}

__global__ void covTiledPad(const float *F, const float *mean, float *C) {
  __shared__ float Fi[TILE][TILE];
  __shared__ float Fj[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int iBase = blockIdx.y * TILE, jBase = blockIdx.x * TILE;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int t = 0; t < S; t += TILE) {
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      int row = ty + 8 * r;
      Fi[row][tx] = F[size_t(iBase + row) * S + t + tx] - mean[iBase + row];
      Fj[tx][row] = F[size_t(jBase + row) * S + t + tx] - mean[jBase + row];
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < TILE; ++k) {
      float b = Fj[k][tx];
#pragma unroll
      for (int r = 0; r < 4; ++r)
        acc[r] += Fi[ty + 8 * r][k] * b;
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
    C[(iBase + ty + 8 * r) * NB + jBase + tx] = acc[r] / (S - 1);
}

// --------------------------------------------------------- S8 transformation
__constant__ float cT[NB * M];

__global__ void transformGlobal(const unsigned char *X, const float *T, float *Z) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < M; ++c) {
    float z = 0.f;
    for (int b = 0; b < NB; ++b)
      z += T[b * M + c] * X[size_t(b) * S + p];
    Z[size_t(c) * S + p] = z;
  }
}

__global__ void transformConst(const unsigned char *X, float *Z) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  for (int c = 0; c < M; ++c) {
    float z = 0.f;
    for (int b = 0; b < NB; ++b)
      z += cT[b * M + c] * X[size_t(b) * S + p];
    Z[size_t(c) * S + p] = z;
  }
}

__global__ void transformConstReg(const unsigned char *X, float *Z) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  float z[M];
#pragma unroll
  for (int c = 0; c < M; ++c)
    z[c] = 0.f;
  for (int b = 0; b < NB; ++b) {
    float x = X[size_t(b) * S + p];
#pragma unroll
    for (int c = 0; c < M; ++c)
      z[c] += cT[b * M + c] * x;
  }
#pragma unroll
  for (int c = 0; c < M; ++c)
    Z[size_t(c) * S + p] = z[c];
}

// ------------------------------------------------------------------- host
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

static void row(const char *stage, const char *name, float ms, float base,
                double err, double tol) {
  printf("%-10s %-18s %10.4f %8.2fx %12.3e %s\n", stage, name, ms, base / ms,
         err, err < tol ? "ok" : "WRONG");
}

int main() {
  const int reps = 11;
  size_t nx = size_t(NB) * S;
  std::vector<unsigned char> hX(nx);
  srand(3);
  for (size_t i = 0; i < nx; ++i) // smooth bands plus noise
    hX[i] = (unsigned char)((i / S) * 0.5 + ((i % S) % W) * 0.3 + rand() % 40);
  std::vector<float> hT(NB * M);
  for (auto &v : hT)
    v = float(rand()) / RAND_MAX - 0.5f;
  unsigned char *X;
  float *F, *mean, *C, *T, *Z;
  CK(cudaMalloc(&X, nx));
  CK(cudaMalloc(&F, nx * 4));
  CK(cudaMalloc(&mean, NB * 4));
  CK(cudaMalloc(&C, NB * NB * 4));
  CK(cudaMalloc(&T, NB * M * 4));
  CK(cudaMalloc(&Z, size_t(M) * S * 4));
  CK(cudaMemcpy(X, hX.data(), nx, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(T, hT.data(), NB * M * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpyToSymbol(cT, hT.data(), NB * M * 4));
  printf("%-10s %-18s %10s %9s %12s\n", "stage", "kernel", "median_ms",
         "speedup", "max_err");

  // S1: compare against a CPU filter on three bands.
  std::vector<float> hF(nx);
  auto filterErr = [&](bool median) {
    CK(cudaMemcpy(hF.data(), F, nx * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int b : {0, NB / 2, NB - 1})
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
          int w[9], n = 0, sum = 0;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              int yy = std::min(std::max(y + dy, 0), H - 1);
              int xx = std::min(std::max(x + dx, 0), W - 1);
              w[n++] = hX[size_t(b) * S + yy * W + xx];
              sum += w[n - 1];
            }
          std::sort(w, w + 9);
          double ref = double(hX[size_t(b) * S + y * W + x]) - (median ? w[4] : sum / 9.0);
          double got = hF[size_t(b) * S + y * W + x];
          double d = std::fabs(got - ref);
          worst = std::max(worst, d == d ? d : 1e30);
        }
    return worst;
  };
  dim3 fb(32, 8), fg(W / 32, H / 8, NB);
  float base = 0;
  for (int v = 0; v < 3; ++v) {
    CK(cudaMemset(F, 0xff, nx * 4));
    auto launch = [&] {
      if (v == 0)
        filterMedian<<<fg, fb>>>(X, F);
      else if (v == 1)
        filterMean<<<fg, fb>>>(X, F);
      else
        filterMeanSmem<<<fg, fb>>>(X, F);
    };
    float ms = medianMs(launch, reps);
    if (v == 0)
      base = ms;
    const char *nm[3] = {"filterMedian", "filterMean", "filterMeanSmem"};
    row("S1 filter", nm[v], ms, base, filterErr(v == 0), 1e-3);
  }

  // S2: covariance of F (mean filter result), checked on sampled entries.
  bandMeans<<<NB, 256>>>(F, mean);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hF.data(), F, nx * 4, cudaMemcpyDeviceToHost));
  std::vector<double> hm(NB, 0.0);
  for (int b = 0; b < NB; ++b) {
    for (int p = 0; p < S; ++p)
      hm[b] += hF[size_t(b) * S + p];
    hm[b] /= S;
  }
  std::vector<float> hC(NB * NB);
  auto covErr = [&]() {
    CK(cudaMemcpy(hC.data(), C, NB * NB * 4, cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (int s = 0; s < 64; ++s) {
      int i = (s * 37) % NB, j = (s * 101 + 5) % NB;
      double ref = 0;
      for (int p = 0; p < S; ++p)
        ref += (hF[size_t(i) * S + p] - hm[i]) * (hF[size_t(j) * S + p] - hm[j]);
      ref /= (S - 1);
      double d = hC[i * NB + j] - ref;
      num += d * d;
      den += ref * ref;
    }
    double rel = std::sqrt(num / den);
    return rel == rel ? rel : 1e30;
  };
  dim3 cb(32, 8), cg(NB / TILE, NB / TILE);
  for (int v = 0; v < 3; ++v) {
    CK(cudaMemset(C, 0xff, NB * NB * 4));
    auto launch = [&] {
      if (v == 0)
        covNaive<<<cg, cb>>>(F, mean, C);
      else if (v == 1)
        covTiled<<<cg, cb>>>(F, mean, C);
      else
        covTiledPad<<<cg, cb>>>(F, mean, C);
    };
    float ms = medianMs(launch, reps);
    if (v == 0)
      base = ms;
    const char *nm[3] = {"covNaive", "covTiled", "covTiledPad"};
    row("S2 cov", nm[v], ms, base, covErr(), 1e-3);
  }

  // S8: transformation, checked on sampled pixels.
  std::vector<float> hZ(size_t(M) * S);
  auto zErr = [&]() {
    CK(cudaMemcpy(hZ.data(), Z, size_t(M) * S * 4, cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (int p = 0; p < S; p += 97)
      for (int c = 0; c < M; ++c) {
        double ref = 0;
        for (int b = 0; b < NB; ++b)
          ref += double(hT[b * M + c]) * hX[size_t(b) * S + p];
        double d = hZ[size_t(c) * S + p] - ref;
        num += d * d;
        den += ref * ref;
      }
    double rel = std::sqrt(num / den);
    return rel == rel ? rel : 1e30;
  };
  for (int v = 0; v < 3; ++v) {
    CK(cudaMemset(Z, 0xff, size_t(M) * S * 4));
    auto launch = [&] {
      if (v == 0)
        transformGlobal<<<S / 256, 256>>>(X, T, Z);
      else if (v == 1)
        transformConst<<<S / 256, 256>>>(X, Z);
      else
        transformConstReg<<<S / 256, 256>>>(X, Z);
    };
    float ms = medianMs(launch, reps);
    if (v == 0)
      base = ms;
    const char *nm[3] = {"transformGlobal", "transformConst", "transformConstReg"};
    row("S8 transf", nm[v], ms, base, zErr(), 1e-4);
  }
  CK(cudaFree(X));
  CK(cudaFree(F));
  CK(cudaFree(mean));
  CK(cudaFree(C));
  CK(cudaFree(T));
  CK(cudaFree(Z));
  return 0;
}
