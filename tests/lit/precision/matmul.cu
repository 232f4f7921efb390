// RUN: %not %warplint check %s --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:

// Precision tests: tiled matrix multiplication. Ground truth for every access
// is written next to it (32 banks x 4 bytes; sectors of 32 bytes; n = 1024).

#define T16 16
constexpr int T32 = 32;

// Block (16,16): a warp is two rows of 16 threads (tx 0-15, ty = 2w, 2w+1).
__global__ void matmul16(const float *A, const float *B, float *C, int n) {
  __shared__ float As[T16][T16];
  __shared__ float Bs[T16][T16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T16 + ty;
  int col = blockIdx.x * T16 + tx;
  float acc = 0.f;
  for (int t = 0; t < n / T16; ++t) {
    // GT: As words 16*ty + tx = 32 consecutive words: conflict-free.
    // GT: A: two 64-byte row pieces, each 64-byte aligned: 4 sectors = ideal.
    As[ty][tx] = A[row * n + t * T16 + tx];
    // GT: same for Bs and B.
    Bs[ty][tx] = B[(t * T16 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < T16; ++k)
      // GT: As[ty][k]: 2 words (16 apart, banks differ), broadcast: free.
      // GT: Bs[k][tx]: 16 words in 16 banks, both rows read the same: free.
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  // GT: 4 sectors = ideal.
  C[row * n + col] = acc;
}

// Block (32,32): the textbook unpadded 32x32 tile is conflict-free.
__global__ void matmul32(const float *A, const float *B, float *C, int n) {
  __shared__ float As[T32][T32];
  __shared__ float Bs[T32][T32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T32 + ty;
  int col = blockIdx.x * T32 + tx;
  float acc = 0.f;
  for (int t = 0; t < n / T32; ++t) {
    As[ty][tx] = A[row * n + t * T32 + tx];   // GT: free; 4 sectors
    Bs[ty][tx] = B[(t * T32 + ty) * n + col]; // GT: free; 4 sectors
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T32; ++k)
      acc += As[ty][k] * Bs[k][tx]; // GT: broadcast; row: free
    __syncthreads();
  }
  C[row * n + col] = acc; // GT: 4 sectors
}

// Block (32,32): B stored transposed in shared memory (a classic mistake).
__global__ void matmulBt32(const float *A, const float *B, float *C, int n) {
  __shared__ float As[T32][T32];
  __shared__ float Bt[T32][T32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T32 + ty;
  int col = blockIdx.x * T32 + tx;
  float acc = 0.f;
  for (int t = 0; t < n / T32; ++t) {
    As[ty][tx] = A[row * n + t * T32 + tx];
    // GT: Bt words 32*tx + ty: all 32 lanes in one bank: 32-way write.
    // CHECK-MESSAGES: :[[@LINE+1]]:5: warning: 32-way bank conflict on write of shared 'Bt'
    Bt[tx][ty] = B[(t * T32 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < T32; ++k)
      // GT: Bt[tx][k]: 32 words 32 apart: 32-way read. As: broadcast.
      // CHECK-MESSAGES: :[[@LINE+1]]:26: warning: 32-way bank conflict on read of shared 'Bt'
      acc += As[ty][k] * Bt[tx][k];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// Same with one word of padding: all conflicts gone.
__global__ void matmulBt32Padded(const float *A, const float *B, float *C, int n) {
  __shared__ float As[T32][T32];
  __shared__ float Bt[T32][T32 + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T32 + ty;
  int col = blockIdx.x * T32 + tx;
  float acc = 0.f;
  for (int t = 0; t < n / T32; ++t) {
    As[ty][tx] = A[row * n + t * T32 + tx];
    Bt[tx][ty] = B[(t * T32 + ty) * n + col]; // GT: words 33*tx + ty: 32 banks: free
    __syncthreads();
    for (int k = 0; k < T32; ++k)
      acc += As[ty][k] * Bt[tx][k]; // GT: free
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// Block (16,16) with a 17-word pitch: padding a 16-wide tile that is accessed
// by rows creates a 2-way conflict (lane 0: word 17*ty, lane 31: 17*ty + 32).
__global__ void matmul16Padded(const float *A, const float *B, float *C, int n) {
  __shared__ float As[T16][T16 + 1];
  __shared__ float Bs[T16][T16 + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T16 + ty;
  int col = blockIdx.x * T16 + tx;
  float acc = 0.f;
  for (int t = 0; t < n / T16; ++t) {
    // GT: 2-way write.
    // CHECK-MESSAGES: :[[@LINE+1]]:5: warning: 2-way bank conflict on write of shared 'As'
    As[ty][tx] = A[row * n + t * T16 + tx];
    // GT: 2-way write.
    // CHECK-MESSAGES: :[[@LINE+1]]:5: warning: 2-way bank conflict on write of shared 'Bs'
    Bs[ty][tx] = B[(t * T16 + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < T16; ++k)
      // GT: As: 2 words 17 apart (broadcast), Bs: 16 words in a row (broadcast): free.
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// Block (32,8), no shared memory, row and column taken from the wrong axes.
__global__ void __launch_bounds__(256) naiveMatmulSwapped(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x; // varies across the warp
  int col = blockIdx.y * blockDim.y + threadIdx.y; // uniform across the warp
  float acc = 0.f;
  for (int k = 0; k < n; ++k)
    // GT: A[row*n+k]: lanes 4 KiB apart: 32 sectors vs 4: 8x.
    // GT: B[k*n+col]: one address: 1 sector.
    // CHECK-MESSAGES: :[[@LINE+1]]:12: warning: uncoalesced global read of 'A': 32 sectors per request where 4 suffice: 8x the traffic
    acc += A[row * n + k] * B[k * n + col];
  // GT: 32 sectors vs 4: 8x.
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: uncoalesced global write of 'C': 32 sectors per request where 4 suffice: 8x the traffic
  C[row * n + col] = acc;
}

// Block (32,8), the right orientation: everything coalesced.
__global__ void __launch_bounds__(256) naiveMatmul(const float *__restrict__ A, const float *__restrict__ B,
                                                   float *__restrict__ C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n)
    return;
  float acc = 0.f;
  for (int k = 0; k < n; ++k)
    acc += A[row * n + k] * __ldg(&B[k * n + col]); // GT: 1 sector; 4 sectors
  C[row * n + col] = acc;                           // GT: 4 sectors
}

void launchMatmul(const float *A, const float *B, float *C, int n) {
  matmul16<<<dim3(n / T16, n / T16), dim3(T16, T16)>>>(A, B, C, n);
  matmul32<<<dim3(n / T32, n / T32), dim3(T32, T32)>>>(A, B, C, n);
  matmulBt32<<<dim3(n / T32, n / T32), dim3(T32, T32)>>>(A, B, C, n);
  matmulBt32Padded<<<dim3(n / T32, n / T32), dim3(T32, T32)>>>(A, B, C, n);
  matmul16Padded<<<dim3(n / T16, n / T16), dim3(T16, T16)>>>(A, B, C, n);
  dim3 block(32, 8);
  dim3 grid(n / 32, n / 8);
  naiveMatmulSwapped<<<grid, block>>>(A, B, C, n);
  naiveMatmul<<<grid, block>>>(A, B, C, n);
}
