// Calls to the user's __device__ functions are analyzed in place: parameters
// take the caller's values and memory, accesses run under the caller's guards
// and launch shape, and the finding names the call.
// RUN: %not %warplint check %s --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:

__device__ float columnOf(const float *tile, int row, int col) {
  // CHECK-MESSAGES: :[[@LINE+3]]:10: warning: 32-way bank conflict on read of shared 'tile'
  // CHECK-MESSAGES: note: block (32, 8, 1) from the launch at line {{[0-9]+}}
  // CHECK-MESSAGES: :[[@LINE+13]]:13: note: in the call from 'transposeViaHelper' here
  return tile[col * 32 + row];
}

__device__ void storeScaled(float *out, int i, float v) {
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: uncoalesced global write of 'out': 32 sectors per request where 4 suffice
  out[i * 32] = 2.f * v;
}

__global__ void transposeViaHelper(float *out, const float *in) {
  __shared__ float tile[32 * 32];
  tile[threadIdx.y * 32 + threadIdx.x] = in[blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float v = columnOf(tile, threadIdx.y, threadIdx.x);
  storeScaled(out, blockIdx.x * blockDim.x + threadIdx.x, v);
}

// The same helper with row-major arguments: conflict-free, coalesced.
__global__ void rowsViaHelper(float *out, const float *in) {
  __shared__ float tile[32 * 32];
  tile[threadIdx.y * 32 + threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = columnOf(tile, threadIdx.x, threadIdx.y);
}

// A warp-synchronous tail through a volatile pointer: conflict-free.
__device__ void warpReduce(volatile float *s, int tid) {
  s[tid] += s[tid + 32];
  // CHECK-MESSAGES: :[[@LINE+1]]:13: warning: shared 's' passes values between lanes of one warp: lanes 0-15 read what lanes 16-31 stored, in 2 loads{{.*}}[warp-shuffle-candidate]
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
}

__global__ void reduce(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 32)
    warpReduce(s, threadIdx.x);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// Never called: its pointer's address space is unknown, so it stays silent.
__device__ float uncalled(const float *p) { return p[threadIdx.x * 32]; }

// Recursion is not followed.
__device__ int depth(int *p, int n) { return n <= 0 ? p[threadIdx.x] : depth(p, n - 1); }
__global__ void recursive(int *p) { p[threadIdx.x] = depth(p, 3); }

void launchAll(float *f, int *i) {
  transposeViaHelper<<<64, dim3(32, 8)>>>(f, f);
  rowsViaHelper<<<64, dim3(32, 8)>>>(f, f);
  reduce<<<64, 256>>>(f, f);
  recursive<<<1, 64>>>(i);
}
