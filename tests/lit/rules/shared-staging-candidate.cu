// RUN: %not %warplint check --fail-min-gain 0 %s --rules shared-staging-candidate --color=never 2>&1 | %FileCheck %s --implicit-check-not=[shared-staging-candidate] --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check --fail-min-gain 0 %s --rules shared-staging-candidate --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --implicit-check-not=[shared-staging-candidate] --implicit-check-not=warning: --implicit-check-not=error:
// The gain is bounded by the profile's L1-hit and shared-load latencies.
// RUN: %not %warplint check --fail-min-gain 0 %s --rules shared-staging-candidate --profile h200 --color=never 2>&1 | %FileCheck %s --check-prefix=H200
// H200: note: on NVIDIA H200 an L1 hit takes {{[0-9]+}} cycles and a shared-memory load {{[0-9]+}}: a repeat served from the tile is {{[0-9.]+}}x faster in latency
// The facts behind the finding, for machines.
// RUN: %not %warplint check --fail-min-gain 0 %s --rules shared-staging-candidate --format json | %FileCheck %s --check-prefix=JSON
// JSON: "rule": "shared-staging-candidate"
// JSON: "severity": "note"
// JSON: "reuse_factor": 16.0
// JSON: "requests_per_element": 8.0
// JSON: "tile_bytes": 1024
// JSON: "threads_per_element": 16.0

// Every launch below gives the kernels their block shapes.
#define N 1024

// ---- positives ---------------------------------------------------------

// Block (16, 16): B[k * n + col] is read by the 16 rows of threads, two rows
// a warp: 16 reads of each element in 8 warp requests. A[row * n + k] is read
// by 16 lanes of one request (a broadcast): nothing for a tile to save.
__global__ void naiveMatmul(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * 16 + threadIdx.y;
  int col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k < n; ++k)
    // CHECK: :[[@LINE+1]]:29: note: global 'B' is reused within a block: each element is read 16 times by 16 threads in 8 warp requests; a shared-memory tile could serve the repeats [shared-staging-candidate]
    acc += A[row * n + k] * B[k * n + col];
  // CHECK: note: a tile of 16 loop iterations (the block's x extent) holds 1 KiB of 'B', 0.44% of the 227 KiB of shared memory a block can use on NVIDIA [[GPU:H100 80GB HBM3|H200]]
  // CHECK: note: on NVIDIA [[GPU]] an L1 hit takes 41 cycles and a shared-memory load 29: a repeat served from the tile is 1.4x faster in latency, before the tile's own loads, stores and barriers; the L1 already serves the repeats, so the gain is modest or negative: measure before restructuring
  // CHECK: note: counted over every thread of block (16, 16, 1) from the launch at line {{[0-9]+}}, the first 16 iterations of k
  C[row * n + col] = acc;
}

// A 5-point 1-D stencil: each input element is read by 5 threads, each in
// its own iteration of j, so in 5 warp requests.
__global__ void stencil5(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int j = 0; j < 5; ++j)
    // CHECK: :[[@LINE+1]]:10: note: global 'in' is reused within a block: each element is read 4.{{[0-9]+}} times by 4.{{[0-9]+}} threads in 4.{{[0-9]+}} warp requests{{.*}}[shared-staging-candidate]
    s += in[i + j];
  // CHECK: note: a tile of all 5 loop iterations holds 1040 bytes of 'in'
  // CHECK: note: counted over every thread of block (256, 1, 1) from the launch at line {{[0-9]+}}
  out[i] = s;
}

// A 1-D convolution: the signal is reused across threads; the weights are
// read warp-uniformly (a broadcast: read-only, C_2), never a tile.
__global__ void convolve(const float *signal, const float *weights, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int k = 0; k < 9; ++k)
    // CHECK: :[[@LINE+1]]:10: note: global 'signal' is reused within a block{{.*}}[shared-staging-candidate]
    s += signal[i + k] * weights[k];
  // CHECK: note: a tile of all 9 loop iterations holds 1056 bytes of 'signal'
  out[i] = s;
}

// ---- negatives --------------------------------------------------------

// Each element is read once: coalesced streaming.
__global__ void streaming(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.f * in[i];
}

// Misaligned neighbour: each element read by 2 threads, below the threshold.
__global__ void neighbour(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + in[i + 1];
}

// Already staged: each global element is read once per block into the tiles.
__global__ void tiledMatmul(const float *A, const float *B, float *C, int n) {
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

// Reuse across blocks only: every block reads the whole table once.
__global__ void perBlockTable(const float *table, float *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = table[threadIdx.x];
}

// A scalar every thread reads: warp-uniform, a broadcast (C_2), not a tile.
__global__ void broadcastScale(const float *scale, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * scale[0];
}

// The kernel also writes the array: staging it would need its own barriers.
__global__ void inPlaceSmooth(float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 2;
  float s = 0.f;
  for (int j = -2; j <= 2; ++j)
    s += a[i + j];
  a[i] = s;
}

// A data-dependent index: the reuse is unknown and never guessed.
__global__ void gather(const float *in, const int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int j = 0; j < 5; ++j)
    s += in[idx[i] + j];
  out[i] = s;
}

// Each thread walks its own row: temporal locality of one thread, no sharing.
__global__ void rowWalk(const float *a, float *rowSum, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int k = 0; k < n; ++k)
    s += a[row * n + k];
  rowSum[row] = s;
}

// A thread re-reading its own element in a loop: a register's job (L_1).
__global__ void reread(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int k = 0; k < n; ++k)
    s += x[i] * k;
  out[i] = s;
}

void launch(float *a, float *b, float *c, float *d, int *idx) {
  naiveMatmul<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(a, b, c, N);
  stencil5<<<N / 256, 256>>>(a, b);
  convolve<<<N / 256, 256>>>(a, b, c);
  streaming<<<N / 256, 256>>>(a, b);
  neighbour<<<N / 256, 256>>>(a, b);
  tiledMatmul<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(a, b, c, N);
  perBlockTable<<<N / 256, 256>>>(a, b);
  broadcastScale<<<N / 256, 256>>>(a, b, c);
  inPlaceSmooth<<<N / 256, 256>>>(d);
  gather<<<N / 256, 256>>>(a, idx, b);
  rowWalk<<<N / 256, 256>>>(a, b, N);
  reread<<<N / 256, 256>>>(a, b, N);
}

// A bias read once per thread, shared by the 16 rows of a 16x16 block:
// reused, but each thread reads one element, so a tile has nothing to
// amortize its barrier over.
__global__ void biasOnce(const float *bias, const float *x, float *y, int n) {
  int col = blockIdx.x * 16 + threadIdx.x;
  int row = blockIdx.y * 16 + threadIdx.y;
  y[row * n + col] = x[row * n + col] + bias[col];
}

void launchBias(float *a, float *b, float *c) { biasOnce<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(a, b, c, N); }
