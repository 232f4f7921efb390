// RUN: %not %warplint check --fail-min-gain 0 %s --rules shared-staging-no-reuse --color=never 2>&1 | %FileCheck %s --implicit-check-not=[shared-staging-no-reuse] --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check --fail-min-gain 0 %s --rules shared-staging-no-reuse --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --implicit-check-not=[shared-staging-no-reuse] --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %not %warplint check --fail-min-gain 0 %s --rules shared-staging-no-reuse --format json | %FileCheck %s --check-prefix=JSON
// JSON: "rule": "shared-staging-no-reuse"
// JSON: "array": "partial"
// JSON: "element_writes": 256
// JSON: "element_reads": 256
// JSON: "max_elements_per_thread": 1

#define N 1024

// ---- positives ---------------------------------------------------------

// Each thread reads back only what it stored: a register would do.
__global__ void ownSlot(const float *in, float *out) {
  // CHECK: :[[@LINE+1]]:20: warning: shared 'partial' carries no data between threads: every element is read only by the thread that wrote it; a register would do without the stores, loads and barriers [shared-staging-no-reuse]
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: :[[@LINE+1]]:3: note: written here; 256 element writes and 256 reads by the threads of block (256, 1, 1) from the launch at line {{[0-9]+}}, every loop iteration
  partial[threadIdx.x] = in[i] * 2.f;
  __syncthreads();
  out[i] = partial[threadIdx.x] + 1.f;
}

// Stores nobody reads: not reported. nvcc -O3 deletes the array and its
// stores (tests/gpu/corpus/wild_staging.cu stageNeverRead executed no STS on
// the H100), so there is no cost to name.
__global__ void deadStore(const float *in, float *out) {
  __shared__ float unused[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unused[threadIdx.x] = in[i];
  out[i] = in[i] * 3.f;
}

// A 2-D tile read back at the same [ty][tx] it was written at.
__global__ void sameCell(const float *in, float *out, int n) {
  // CHECK: :[[@LINE+1]]:20: warning: shared 'tile' carries no data between threads{{.*}}[shared-staging-no-reuse]
  __shared__ float tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  out[y * n + x] = tile[threadIdx.y][threadIdx.x] * 0.5f;
}

// A per-thread scratch array of 4 elements: a note, since a private array
// indexed at run time would live in local memory.
__global__ void scratch(const float *in, float *out) {
  // CHECK: :[[@LINE+1]]:20: note: shared 'buf' carries no data between threads: every element is read only by the thread that wrote it{{.*}}[shared-staging-no-reuse]
  __shared__ float buf[256 * 4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 4; ++j)
    buf[threadIdx.x * 4 + j] = in[i * 4 + j];
  float s = 0.f;
  for (int j = 0; j < 4; ++j)
    s += buf[threadIdx.x * 4 + (3 - j)] * j;
  // CHECK: note: each thread uses up to 4 elements of it: as a private array indexed at run time they would live in local memory (L_1); keep it there only if that is why
  out[i] = s;
}

// ---- negatives --------------------------------------------------------

// A tree reduction reads the other half's partial sums.
__global__ void reduce(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// A transpose reads the element another thread wrote.
__global__ void transpose(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// One thread publishes a value the whole block reads.
__global__ void publish(const float *in, float *out) {
  __shared__ float value[1];
  if (threadIdx.x == 0)
    value[0] = in[blockIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = value[0];
}

// A reversed mapping: thread t reads what thread 255 - t wrote.
__global__ void reverse(const float *in, float *out) {
  __shared__ float buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = buf[255 - threadIdx.x];
}

// Dynamic shared memory: other views of the same bytes may exist.
__global__ void dynamicShared(const float *in, float *out) {
  extern __shared__ float dyn[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dyn[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = dyn[threadIdx.x];
}

__device__ void consume(float *p, float *out, int i);

// The address leaves the subscripts: what the callee reads is unknown.
__global__ void escapes(const float *in, float *out) {
  __shared__ float buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = in[i];
  __syncthreads();
  consume(buf, out, i);
}

// A data-dependent read index cannot be evaluated: no claim.
__global__ void dataDependent(const float *in, const int *perm, float *out) {
  __shared__ float buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = buf[perm[threadIdx.x]];
}

// Private per thread, but over 1024 iterations: more than the enumeration
// covers, so no claim is made.
__global__ void longLoop(const float *in, float *out, int n) {
  __shared__ float buf[256 * 8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int k = 0; k < n; ++k) {
    buf[(threadIdx.x + 256 * k) % 2048] = in[i] * k;
    s += buf[(threadIdx.x + 256 * k) % 2048];
  }
  out[i] = s;
}

// A warp exchange through shared memory: lane l reads lane l ^ 1's value.
__global__ void pairSwap(const float *in, float *out) {
  __shared__ float buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = buf[threadIdx.x ^ 1];
}

// Own element at offset 0, another thread's at a uniform offset the model
// does not know (a load, a parameter): no claim for every value of it.
__global__ void unknownOffset(const float *in, const int *starts, float *out) {
  __shared__ float buf[512];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = starts[blockIdx.x];
  buf[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = buf[threadIdx.x] + buf[b + threadIdx.x];
}

__global__ void paramOffset(const float *in, float *out, int shift) {
  __shared__ float buf[512];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x + shift] = in[i];
  __syncthreads();
  out[i] = buf[threadIdx.x];
}

// A compare-exchange network: elements are bound to the reference
// parameters of a helper that reads and writes them, unseen by the model
// (only the own-element load and store around it are subscripts).
__device__ inline void orderPair(float &lo, float &hi) {
  if (lo > hi) {
    float t = lo;
    lo = hi;
    hi = t;
  }
}

__global__ void sortTile(const float *in, float *out) {
  __shared__ float keys[512];
  int base = blockIdx.x * 512;
  keys[threadIdx.x] = in[base + threadIdx.x];
  keys[threadIdx.x + 256] = in[base + threadIdx.x + 256];
  for (int half = 256; half > 0; half >>= 1) {
    __syncthreads();
    int lo = 2 * threadIdx.x - (threadIdx.x & (half - 1));
    orderPair(keys[lo], keys[lo + half]);
  }
  __syncthreads();
  out[base + threadIdx.x] = keys[threadIdx.x];
  out[base + threadIdx.x + 256] = keys[threadIdx.x + 256];
}

// The same through a reference variable.
__global__ void refVariable(const float *in, float *out) {
  __shared__ float buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = in[i];
  __syncthreads();
  float &mirror = buf[255 - threadIdx.x];
  out[i] = buf[threadIdx.x] + mirror;
}

void launch(float *a, float *b, int *p) {
  ownSlot<<<N / 256, 256>>>(a, b);
  deadStore<<<N / 256, 256>>>(a, b);
  sameCell<<<dim3(N / 16, N / 16), dim3(16, 16)>>>(a, b, N);
  scratch<<<N / 256, 256>>>(a, b);
  reduce<<<N / 256, 256>>>(a, b);
  transpose<<<dim3(N / 32, N / 32), dim3(32, 32)>>>(a, b, N);
  publish<<<N / 256, 256>>>(a, b);
  reverse<<<N / 256, 256>>>(a, b);
  dynamicShared<<<N / 256, 256, 1024>>>(a, b);
  escapes<<<N / 256, 256>>>(a, b);
  dataDependent<<<N / 256, 256>>>(a, p, b);
  longLoop<<<N / 256, 256>>>(a, b, N);
  pairSwap<<<N / 256, 256>>>(a, b);
  unknownOffset<<<N / 256, 256>>>(a, p, b);
  paramOffset<<<N / 256, 256>>>(a, b, 0);
  sortTile<<<N / 512, 256>>>(a, b);
  refVariable<<<N / 256, 256>>>(a, b);
}
