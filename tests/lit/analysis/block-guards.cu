// Accesses that no lane takes with every parameter at its one default value
// are retried where their guards pass: a guard that reads only values
// uniform across the block, none of which the address reads, selects whole
// blocks (exact: the verdict is a warning); the grid's last block for an
// edge branch; several parameters small at once for a tile whose guards
// subtract one parameter from another (the verdict is then a note).
// RUN: %not %warplint check --fail-min-gain 0 %s --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not=global-uncoalesced
// RUN: %warplint check %s --dump-model --color=never | %FileCheck %s --check-prefix=CHECK-MODEL

#define T 256

// Only when every block is full (n == gridDim.x * T), which the default
// n = 1024 and 1024 blocks never give.
__global__ void fullBlocksOnly(float *sums, int n) {
  __shared__ float s[T * 2];
  int t = threadIdx.x;
  int spare = T - (gridDim.x * T - n);
  s[t] = sums[blockIdx.x * T + t];
  __syncthreads();
  if (spare == T) {
    // CHECK-MESSAGES: :[[@LINE+1]]:32: warning: 2-way bank conflict on read of shared 's'
    sums[blockIdx.x * T + t] = s[2 * t] + s[t];
  }
}

// The guard and the address both read n: dropping the guard would evaluate
// the stride at n = 1024 (uncoalesced); with n = 1, where the guard passes,
// the access is coalesced. Silent.
__global__ void strideOneOnly(float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (n == 1)
    out[t * n] = 0.f;
}

// The edge branch runs only in the grid's last row of blocks.
__global__ void lastRow(const float *in, float *out, int w) {
  __shared__ float edge[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  if (blockIdx.y == 0) {
    edge[ty][tx] = in[blockIdx.x * 16 + tx];
  } else if (blockIdx.y == gridDim.y - 1) {
    // A padding trial evaluates under the default values, where no lane takes
    // the branch: no padding is offered on its say-so.
    // CHECK-MESSAGES: :[[@LINE+2]]:20: warning: 8-way bank conflict on read of shared 'edge'
    // CHECK-MESSAGES: note: no padding fix: {{.*}}the access 'edge[tx][ty]' at line [[@LINE+1]] is evaluated only where its guards pass, which a padding trial does not see
    edge[ty][tx] = edge[tx][ty] + in[(gridDim.y - 1) * 16 * w + blockIdx.x * 16 + tx];
  }
  __syncthreads();
  out[(blockIdx.y * 16 + ty) * w + blockIdx.x * 16 + tx] = edge[ty][tx];
}

// A tile that shrinks by two per step and starts `top` rows above and `left`
// columns left of the block (a halo whose width the host computes): with
// every parameter at 1024 no lane of any block is inside the grid, with each
// alone at a small value neither; with all at 8 the lower-right quarter is.
__global__ void haloTile(const float *src, float *dst, int steps, int top, int left, int cols) {
  __shared__ float tile[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int y = (16 - 2 * steps) * blockIdx.y - top + ty;
  int x = (16 - 2 * steps) * blockIdx.x - left + tx;
  if (y >= 0 && x >= 0) {
    // CHECK-MESSAGES: :[[@LINE+2]]:5: note: {{.*}}bank conflict on write of shared 'tile'{{.*}}(only known with steps = 8, top = 8, left = 8)
    // CHECK-MESSAGES: note: assumption: no lane passes the guards with every parameter at 1024; evaluated with steps = 8, top = 8, left = 8
    tile[tx][ty] = src[y * cols + x];
    tile[ty][tx] = src[y * cols + x]; // row-major: conflict-free whatever the values
  }
  __syncthreads();
  dst[ty * 16 + tx] = tile[ty][tx];
}

void launch(const float *in, float *out, int n, int w, int steps) {
  fullBlocksOnly<<<n / T, T>>>(out, n);
  strideOneOnly<<<n, 256>>>(out, n);
  lastRow<<<dim3(w / 16, n / 16), dim3(16, 16)>>>(in, out, w);
  haloTile<<<dim3(w, n), dim3(16, 16)>>>(in, out, steps, 2, n, w);
}

// CHECK-MODEL: evaluated in the blocks where {{.*}} holds (a guard on values uniform across the block that the address does not read)
// CHECK-MODEL: "name": "fullBlocksOnly"
// CHECK-MODEL: evaluated with n = 1
// CHECK-MODEL: "name": "strideOneOnly"
// CHECK-MODEL: evaluated in the grid's last block (blockIdx = gridDim - 1), where the guards pass
// CHECK-MODEL: "name": "lastRow"
// CHECK-MODEL-NOT: "no active lane"
