// RUN: %not %warplint check %s --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check %s --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
// The measured cost follows the profile: the bundled H100 one by default.
// RUN: %not %warplint check %s --profile h200 --color=never 2>&1 | %FileCheck %s --check-prefix=H200
// H200: warning: uncoalesced global read of 'in': 32 sectors per request where 4 suffice: 8x the traffic; a stride-32 float access moves {{[0-9]+}} GB/s of useful data on NVIDIA H200 against
// H200: warning: uncoalesced global read of 'a': 32 sectors per request where 4 suffice: 8x the traffic when n >= 8; a stride-8 float access moves {{[0-9]+}} GB/s of useful data on NVIDIA H200
// H200: warning: uncoalesced global read of 'in': 16 sectors per request where 8 suffice: 2x the traffic; of the {{[0-9]+}} GB/s measured on NVIDIA H200, at most {{[0-9]+}} GB/s carry useful bytes [global-uncoalesced]

// ---- positives ---------------------------------------------------------

__global__ void strided32(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    // CHECK-MESSAGES: :[[@LINE+2]]:14: warning: uncoalesced global read of 'in': 32 sectors per request where 4 suffice: 8x the traffic; a stride-32 float access moves {{[0-9]+}} GB/s of useful data on NVIDIA [[GPU:H100 80GB HBM3|H200]] against {{[0-9]+}} GB/s at stride 1 [global-uncoalesced]
    // CHECK-MESSAGES: note: 32 lanes each move 4 bytes; consecutive lanes are 128 bytes apart (stride 32 elements)
    out[i] = in[i * 32];
}

__global__ void columnWalk(const float *a, float *colSum, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int k = 0; k < n; ++k)
    // The row pitch n is the lane stride: uncoalesced for n >= 2, one sector
    // a lane from n >= 8.
    // CHECK-MESSAGES: :[[@LINE+3]]:10: warning: uncoalesced global read of 'a': 32 sectors per request where 4 suffice: 8x the traffic when n >= 8
    // CHECK-MESSAGES: note: 32 lanes each move 4 bytes; consecutive lanes are 4*n bytes apart
    // CHECK-MESSAGES: note: assumption: n is warp-uniform, value unknown: evaluated at 0, 1, 2, 3, ..., 1025
    s += a[row * n + k];
  colSum[row] = s;
}

struct Particle {
  float x, y, z, w, vx, vy, vz, m;
};

__global__ void arrayOfStructs(const Particle *p, float *xs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:11: warning: uncoalesced global read of 'p': 32 sectors per request where 4 suffice: 8x the traffic
  xs[i] = p[i].x;
}

__global__ void transposeWrite(float *out, const float *in, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: uncoalesced global write of 'out': 32 sectors per request where 4 suffice: 8x the traffic
  out[x * n + y] = in[y * n + x];
}

__global__ void stride2Doubles(double *out, const double *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:12: warning: uncoalesced global read of 'in': 16 sectors per request where 8 suffice: 2x the traffic
  out[i] = in[2 * i];
}

__global__ void readOnlyPath(float *out, const float *__restrict__ in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // The read-only path moves the same sectors: __ldg does not coalesce for you.
  // CHECK-MESSAGES: :[[@LINE+1]]:19: warning: uncoalesced global read of 'in': 32 sectors per request where 4 suffice: 8x the traffic
  out[i] = __ldg(&in[i * 32]) + __ldg(in + i);
}

// ---- negatives --------------------------------------------------------

__global__ void coalesced(float *out, const float *__restrict__ in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + in[i + 1]; // misaligned by one: one extra sector, not reported
}

__global__ void gridStride(float *out, const float *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = 2.f * in[i];
}

__global__ void broadcastScalar(float *out, const float *scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = scale[0] * scale[blockIdx.x];
}

__global__ void rowMajor2D(float *out, const float *in, int pitch) {
  // 16x16 blocks: each warp covers two 16-float rows, 64 bytes each.
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  out[y * pitch + x] = in[y * pitch + x];
}

__global__ void warpPerRow(const float *m, float *rowSums, int n) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  float s = 0.f;
  for (int k = lane; k < n; k += 32)
    s += m[warp * n + k];
  if (lane == 0)
    rowSums[warp] = s;
}

__global__ void vectorLoads(float4 *out, const float4 *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  out[i] = make_float4(v.x + in[i].y, v.y, v.z, v.w);
}

__global__ void gathered(const int *idx, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]]; // data-dependent: not guessed
}

__global__ void uncalled(float *out, const float *in) {
  // No launch: analyzed under the default block shape; still coalesced.
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
}

void launchAll(float *f, double *d, Particle *p, float4 *v, int *idx, int n) {
  strided32<<<n / 256, 256>>>(f, f, n);
  columnWalk<<<n / 128, 128>>>(f, f, n);
  arrayOfStructs<<<n / 256, 256>>>(p, f);
  transposeWrite<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(f, f, n);
  stride2Doubles<<<n / 256, 256>>>(d, d);
  coalesced<<<n / 256, 256>>>(f, f, n);
  gridStride<<<132, 256>>>(f, f, n);
  broadcastScalar<<<n / 256, 256>>>(f, f);
  rowMajor2D<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(f, f, n);
  warpPerRow<<<n / 8, 256>>>(f, f, n);
  vectorLoads<<<n / 256, 256>>>(v, v);
  gathered<<<n / 256, 256>>>(idx, f, f);
  readOnlyPath<<<n / 256, 256>>>(f, f);
}
