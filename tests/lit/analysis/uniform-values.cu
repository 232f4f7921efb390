// Warp-uniform values the analyzer cannot pin down (loads from a uniform
// address, calls on uniform arguments, uniform locals assigned more than
// once, scalar parameters) are swept over sample values: the lane pattern is
// exact and the verdict kept is the one that holds for every value.
// RUN: %not %warplint check %s --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %warplint check %s --dump-model --color=never | %FileCheck %s --check-prefix=CHECK-MODEL

__global__ void loadedBase(const int *perm, float *out) {
  __shared__ float s[4096];
  int b = perm[blockIdx.x];
  s[b + threadIdx.x] = 1.f; // a uniform word offset: free whatever b
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+3]]:22: warning: 32-way bank conflict on read of shared 's'
  // CHECK-MESSAGES: note: at least 32-way for every value of perm[blockIdx.x] tried
  // CHECK-MESSAGES: note: assumption: 'perm[blockIdx.x]' is warp-uniform, value unknown: evaluated at 0, 1, 2, 3, ..., 1025
  out[threadIdx.x] = s[b * 32 + threadIdx.x * 32];
  out[threadIdx.x + 32] = s[b]; // a broadcast: silent
}

__device__ int rowOf(int block, int rows) { return (block * 7) % rows; }
__device__ int laneRow(int block) { return block + threadIdx.x; }

__global__ void uniformCalls(float *out, int rows) {
  __shared__ float s[32][32];
  int r = rowOf(blockIdx.x, rows); // lane-free helper on uniform arguments
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 32-way bank conflict on write of shared 's'
  s[threadIdx.x][r % 32] = 1.f;
  s[r % 32][threadIdx.x] = 2.f;    // a row: free
  int q = laneRow(blockIdx.x);     // reads threadIdx: not uniform, unknown
  out[threadIdx.x] = s[threadIdx.x][q % 32];
}

// A local every assignment of which is uniform, changed in a loop.
__global__ void uniformLocal(const int *offsets, float *out, int n) {
  __shared__ float s[32][33];
  int base = 0;
  for (int k = 0; k < n; ++k) {
    if (offsets[k] > 0)
      base += offsets[k];
    s[threadIdx.y][threadIdx.x] = base; // free
    out[base % 1024 + threadIdx.x] = s[threadIdx.x][threadIdx.y]; // padded column: free; global row: coalesced
  }
}

// A ticket from an atomic differs per lane: unknown, silent.
__global__ void tickets(int *counter, float *out) {
  __shared__ float s[1024];
  int t = atomicAdd(counter, 1);
  s[(t * 32) % 1024] = 1.f;
  out[threadIdx.x] = s[threadIdx.x];
}

// Symbolic lane strides on global memory: reported with the condition.
__global__ void symbolicStride(const float *m, float *out, int size, int width) {
  int tid = threadIdx.x;
  for (int t = 0; t < 4; ++t)
    // CHECK-MESSAGES: :[[@LINE+3]]:39: warning: uncoalesced global read of 'm': 32 sectors per request where 4 suffice: 8x the traffic when size >= 8
    // CHECK-MESSAGES: note: 32 lanes each move 4 bytes; consecutive lanes are 4*size bytes apart
    // CHECK-MESSAGES: note: the traffic is at least twice the ideal when size >= 2; the numbers are for size = 8
    out[blockIdx.x * 32 + tid + t] += m[size * (tid + t + 1) + t];
  int x = blockIdx.x * 32 + threadIdx.x;
  out[blockIdx.x * width + threadIdx.x] = m[x]; // a symbolic stride on blockIdx only: coalesced
}

// Lanes along y: the row pitch is the lane stride.
__global__ void columnWalk(const float *src, float *dst, int width) {
  int tidx = blockIdx.x * blockDim.x + threadIdx.y;
  int tidy = blockIdx.y * blockDim.y + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:30: warning: uncoalesced global read of 'src': 32 sectors per request where 4 suffice: 8x the traffic when width >= 8
  dst[tidx * width + tidy] = src[tidy * width + tidx];
}

// Row-major with a symbolic pitch and lanes along x: silent.
__global__ void rowMajor(const float *src, float *dst, int width) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 8 + threadIdx.y;
  dst[y * width + x] = src[y * width + x] + src[(y + 1) * width + x];
}

// Shared memory with a symbolic stride: the degree depends on the pitch
// (none when it is odd); silent, the condition is in the model.
// CHECK-MODEL: "base": "tile"
// CHECK-MODEL: "uniform_sweep": {
// CHECK-MODEL-NEXT: "conditions": [
// CHECK-MODEL-NEXT: "bank conflict when pitch is a multiple of 2",
// CHECK-MODEL-NEXT: "worst when pitch is a multiple of 32"
__global__ void sharedPitch(float *out, int pitch) {
  __shared__ float tile[33 * 32];
  tile[threadIdx.x * pitch] = 1.f;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}

// A lane-dependent load is a data-dependent index.
// CHECK-MODEL: "text": "s[perm[threadIdx.x]]",
// CHECK-MODEL: "class": "data-dependent index"
__global__ void gather(const int *perm, float *out) {
  __shared__ float s[1024];
  s[threadIdx.x] = 0.f;
  __syncthreads();
  out[threadIdx.x] = s[perm[threadIdx.x]];
}

void launchUniform(const int *p, float *f, int *c, int n) {
  loadedBase<<<64, 32>>>(p, f);
  uniformCalls<<<64, 32>>>(f, n);
  uniformLocal<<<1, dim3(32, 32)>>>(p, f, n);
  tickets<<<1, 32>>>(c, f);
  symbolicStride<<<64, 32>>>(f, f, n, n);
  columnWalk<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(f, f, n);
  rowMajor<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(f, f, n);
  sharedPitch<<<1, 32>>>(f, n);
  gather<<<1, 32>>>(p, f);
}
