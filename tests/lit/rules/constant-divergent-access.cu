// RUN: %not %warplint check --fail-min-gain 0 %s --rules constant-divergent-access --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check --fail-min-gain 0 %s --rules constant-divergent-access --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
// The SARIF report carries the rule's metadata and a result naming it.
// RUN: %not %warplint check --fail-min-gain 0 %s --rules constant-divergent-access --format sarif | %FileCheck %s --check-prefix=SARIF
// SARIF: "id": "constant-divergent-access"
// SARIF: "ruleId": "constant-divergent-access"

__constant__ float coef[256];
__constant__ int lut[1024];
struct Params {
  float scale, bias;
};
__constant__ Params params[64];

// ---- positives ---------------------------------------------------------

// One coefficient a lane: 32 addresses a warp (the issue's 3.9x slower kernel).
__global__ void perLane(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+4]]:20: warning: the lanes of a warp read 32 distinct addresses of __constant__ 'coef': constant memory serves them one at a time; about {{[0-9]+}} cycles a load against {{[0-9]+}} for one address on NVIDIA H100 80GB HBM3 [constant-divergent-access]
  // CHECK-MESSAGES: note: 32 active lanes, 32 addresses in 1 128-byte line; consecutive lanes are 4 bytes apart
  // CHECK-MESSAGES: note: block (256, 1, 1) from the launch at line {{[0-9]+}}
  // CHECK-MESSAGES: note: instead: read the table from global memory through the read-only path
  out[i] = in[i] * coef[threadIdx.x];
}

// Eight lanes share each address: 4 addresses a warp.
__global__ void modFour(float *out) {
  // CHECK-MESSAGES: :[[@LINE+1]]:29: warning: the lanes of a warp read 4 distinct addresses of __constant__ 'coef'
  out[threadIdx.x] = 1.0f + coef[threadIdx.x % 4];
}

// Struct members: 32 distinct elements, 8 bytes apart.
__global__ void structPerLane(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:20: warning: the lanes of a warp read 32 distinct addresses of __constant__ 'params'
  out[i] = in[i] * params[threadIdx.x % 64].scale;
}

// The subscript is data each lane loads for itself.
__global__ void lookup(int *out, const int *codes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+2]]:12: warning: the lanes of a warp read __constant__ 'lut' at subscripts loaded from memory (data-dependent, up to 32 distinct addresses): constant memory serves them one at a time; up to about {{[0-9]+}} cycles a load against {{[0-9]+}} for one address
  // CHECK-MESSAGES: :[[@LINE+1]]:16: note: the subscript comes from 'codes[i]', which lanes read at different addresses
  out[i] = lut[codes[i] & 1023];
}

// Through a local: the same.
__global__ void lookupLocal(int *out, const int *codes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int c = codes[i];
  // CHECK-MESSAGES: :[[@LINE+1]]:12: warning: the lanes of a warp read __constant__ 'lut' at subscripts loaded from memory (data-dependent, up to 32 distinct addresses)
  out[i] = lut[c];
}

// threadIdx.x / 32 with a block 48 wide: a warp spans two rows.
__global__ void warpIdNarrowBlock(float *out) {
  // CHECK-MESSAGES: :[[@LINE+2]]:29: warning: the lanes of a warp read 2 distinct addresses of __constant__ 'coef'
  // CHECK-MESSAGES: note: block (48, 4, 1) from the launch at line {{[0-9]+}}; warp 1 of the block
  out[threadIdx.x] = 1.0f + coef[threadIdx.x / 32 + 2 * threadIdx.y];
}

// ---- negatives ---------------------------------------------------------

__global__ void perBlock(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * coef[blockIdx.x];
}

__global__ void loopCounter(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 16; ++k)
    s += coef[k] * in[i + k * n];
  out[i] = s;
}

__global__ void constantIndex(float *out) { out[threadIdx.x] = coef[3] + params[2].bias; }

// threadIdx.x / 32 with a block width that is a multiple of 32: one warp, one row.
__global__ void warpId(float *out) { out[threadIdx.x] = coef[threadIdx.x / 32]; }
__global__ void warpIdWarpSize(float *out) { out[threadIdx.x] = coef[threadIdx.x / warpSize]; }

// threadIdx.y with 32-wide blocks: uniform across a warp.
__global__ void rowIndex(float *out) { out[threadIdx.y * 32 + threadIdx.x] = coef[threadIdx.y]; }

// Data-dependent but warp-uniform: the subscript is loaded at one address.
__global__ void uniformData(int *out, const int *codes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = lut[codes[blockIdx.x] & 1023];
}

// A subscript read from a shared scalar.
__global__ void sharedScalar(int *out, const int *codes) {
  __shared__ int k;
  if (threadIdx.x == 0)
    k = codes[blockIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = lut[k & 1023];
}

// Loop over the table with a lane-independent bound.
__global__ void filterTaps(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
#pragma unroll
  for (int t = -4; t <= 4; ++t)
    s += coef[t + 4] * in[i + t];
  out[i] = s;
}

void launch(float *f, int *d, const int *codes, const float *in) {
  perLane<<<64, 256>>>(f, in);
  modFour<<<64, 256>>>(f);
  structPerLane<<<64, 256>>>(f, in);
  lookup<<<64, 256>>>(d, codes);
  lookupLocal<<<64, 256>>>(d, codes);
  warpIdNarrowBlock<<<64, dim3(48, 4)>>>(f);
  perBlock<<<64, 256>>>(f, in);
  loopCounter<<<64, 256>>>(f, in, 1024);
  constantIndex<<<64, 256>>>(f);
  warpId<<<64, 256>>>(f);
  warpIdWarpSize<<<64, 256>>>(f);
  rowIndex<<<64, dim3(32, 8)>>>(f);
  uniformData<<<64, 256>>>(d, codes);
  sharedScalar<<<64, 256>>>(d, codes);
  filterTaps<<<64, 256>>>(f, in);
}
