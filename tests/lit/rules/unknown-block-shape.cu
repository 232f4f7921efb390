// When no launch gives a kernel's whole block shape, the accesses are
// evaluated under every plausible shape: a warning only for what holds under
// all of them, a note (never a warning) naming the shapes when the verdict
// depends on the shape, nothing when no shape shows a problem.
// RUN: %not %warplint check %s --rules shared-bank-conflict,global-uncoalesced --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not='bank-conflict]' --implicit-check-not='uncoalesced]'
// RUN: %not %warplint check %s --rules shared-bank-conflict,global-uncoalesced --no-cuda-toolkit --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not='bank-conflict]' --implicit-check-not='uncoalesced]'

// ---- holds for every plausible shape: a warning that says so ----

__global__ void stridedRows(float *out, const float *in) {
  // CHECK-MESSAGES: :[[@LINE+5]]:3: warning: uncoalesced global write of 'out': 32 sectors per request where 4 suffice: 8x the traffic{{.*}} [global-uncoalesced]
  // CHECK-MESSAGES: note: 32 lanes each move 4 bytes; consecutive lanes are 128 bytes apart (stride 32 elements)
  // CHECK-MESSAGES: note: block (128, 1, 1) assumed: no launch site with a constant block shape is visible; plausible shapes (128, 1, 1), (256, 1, 1), (512, 1, 1), (1024, 1, 1)
  // CHECK-MESSAGES: note: address of
  // CHECK-MESSAGES: note: the block shape is unknown (default); this holds for every plausible shape tried: (128, 1, 1), (256, 1, 1), (512, 1, 1), (1024, 1, 1)
  out[threadIdx.x * 32] = in[threadIdx.x];
}

// Transposed reads of a 2-D tile conflict under every 2-D shape; the
// message gives the degree all of them share (16-way at 16x16; 32-way at
// 32x8 and 32x32).
// (Its row-wise write conflicts only when a 16-wide block puts two rows in
// one warp: a note.)
__global__ void transposedTile(float *out) {
  __shared__ float tile[32][32];
  // CHECK-MESSAGES: :[[@LINE+2]]:3: note: 2-way bank conflict on write of shared 'tile'{{.*}}; only with block (16, 16, 1) [shared-bank-conflict]
  // CHECK-MESSAGES: note: the block shape is unknown (default) and the verdict depends on it: it holds for (16, 16, 1) but not for (32, 8, 1), (32, 32, 1)
  tile[threadIdx.y][threadIdx.x] = 1.f;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+5]]:41: warning: 16-way bank conflict on read of shared 'tile'{{.*}} [shared-bank-conflict]
  // CHECK-MESSAGES: note: lanes
  // CHECK-MESSAGES: note: block (16, 16, 1) assumed: no launch site with a constant block shape is visible; plausible shapes (16, 16, 1), (32, 8, 1), (32, 32, 1)
  // CHECK-MESSAGES: note: address of
  // CHECK-MESSAGES: note: the block shape is unknown (default); this holds for every plausible shape tried: (16, 16, 1), (32, 8, 1), (32, 32, 1)
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// A dim3 with x = 1 and a runtime y: the lanes run along y, n apart.
__global__ void columnWalk(float *a, int n) {
  // CHECK-MESSAGES: :[[@LINE+5]]:3: warning: uncoalesced global write of 'a': 32 sectors per request where 4 suffice{{.*}} [global-uncoalesced]
  // CHECK-MESSAGES: note: 32 lanes each move 4 bytes
  // CHECK-MESSAGES: note: block (1, 32, 1) assumed: launch at line {{[0-9]+}} with block (1, ?, 1), each ? tried over plausible sizes
  // CHECK-MESSAGES: note: address of
  // CHECK-MESSAGES: note: the block shape is unknown (partial launch); this holds for every plausible shape tried: (1, 32, 1), (1, 64, 1), (1, 128, 1), (1, 256, 1)
  a[threadIdx.y * n] = 0.f;
}

// ---- depends on the shape: a note, never a warning ----

// Rows of 32 words read by 16-wide blocks: two rows per warp land on the
// same 16 banks; 32-wide blocks read one row per warp, and 32 rows do not fit.
__global__ void halfRows(float *out) {
  __shared__ float rows[16][32];
  // CHECK-MESSAGES: :[[@LINE+1]]:3: note: 2-way bank conflict on write of shared 'rows'{{.*}}; only with block (16, 16, 1) [shared-bank-conflict]
  rows[threadIdx.y][threadIdx.x] = 0.f;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+5]]:41: note: 2-way bank conflict on read of shared 'rows': the warp's access is replayed 2 times{{.*}}; only with block (16, 16, 1) [shared-bank-conflict]
  // CHECK-MESSAGES: note: lanes
  // CHECK-MESSAGES: note: block (16, 16, 1) assumed
  // CHECK-MESSAGES: note: address of
  // CHECK-MESSAGES: note: the block shape is unknown (default) and the verdict depends on it: it holds for (16, 16, 1) but not for (32, 8, 1), (32, 32, 1)
  out[threadIdx.y * 32 + threadIdx.x] = rows[threadIdx.y][threadIdx.x];
}

// ---- block size chosen on different paths: every reaching shape is tried ----

// Strided by 32 words under both 1-D widths the launcher may pick: a warning
// that says the shape was chosen on different paths.
__global__ void stridedChosen(float *out) {
  // CHECK-MESSAGES: :[[@LINE+5]]:3: warning: uncoalesced global write of 'out': 32 sectors per request where 4 suffice{{.*}} [global-uncoalesced]
  // CHECK-MESSAGES: note: 32 lanes each move 4 bytes
  // CHECK-MESSAGES: note: block (128, 1, 1) assumed: launch at line {{[0-9]+}} with block 'threads' chosen on different paths: (128, 1, 1), (256, 1, 1)
  // CHECK-MESSAGES: note: address of
  // CHECK-MESSAGES: note: the block shape is unknown (branch-chosen launch); this holds for every plausible shape tried: (128, 1, 1), (256, 1, 1)
  out[threadIdx.x * 32] = 0.f;
}

// Rows of 32 words written by a 16-wide or a 32-wide block: only the 16-wide
// one conflicts, so a note, never a warning.
__global__ void rowsChosen(float *out) {
  __shared__ float rows[8][32];
  // CHECK-MESSAGES: :[[@LINE+2]]:3: note: 2-way bank conflict on write of shared 'rows'{{.*}}; only with block (16, 8, 1) [shared-bank-conflict]
  // CHECK-MESSAGES: note: the block shape is unknown (branch-chosen launch) and the verdict depends on it: it holds for (16, 8, 1) but not for (32, 8, 1)
  rows[threadIdx.y][threadIdx.x] = out[0];
}

// Coalesced under both: silent.
__global__ void copyChosen(float *out, const float *in) { out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x]; }

void launchChosen(float *out, const float *in, int n, bool narrow) {
  int threads = 256;
  if (narrow)
    threads = 128;
  stridedChosen<<<n / threads, threads>>>(out);
  copyChosen<<<n / threads, threads>>>(out, in);
  dim3 tile(32, 8);
  if (narrow)
    tile.x = 16;
  rowsChosen<<<1, tile>>>(out);
}

// ---- negatives ----

// Coalesced under every shape.
__global__ void copyRow(float *out, const float *in) { out[blockIdx.x * blockDim.x + threadIdx.x] = in[threadIdx.x]; }

// Rows of 16 words, lanes in order: conflict-free under every 2-D shape.
__global__ void sixteenWide(float *out) {
  __shared__ float s[1024];
  s[threadIdx.y * 16 + threadIdx.x] = 1.f;
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.y * 16 + threadIdx.x];
}

// Broadcast: every lane reads one word.
__global__ void broadcast(float *out, const float *__restrict__ in) {
  __shared__ float s[64];
  s[threadIdx.x % 64] = in[0];
  __syncthreads();
  out[threadIdx.x] = s[0];
}

// A known shape keeps the known-shape verdict: the launch's 32x8 block, no
// note about unknown shapes.
__global__ void launchedTranspose(float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = 1.f;
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE+4]]:41: warning: 32-way bank conflict on read of shared 'tile'{{.*}} [shared-bank-conflict]
  // CHECK-MESSAGES: note: lanes
  // CHECK-MESSAGES: note: block (32, 8, 1) from the launch at line {{[0-9]+}}{{$}}
  // CHECK-MESSAGES-NOT: the block shape is unknown
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launch(float *out, float *a, int n, int h) {
  dim3 column(1);
  column.y = h;
  columnWalk<<<1, column>>>(a, n);
  launchedTranspose<<<1, dim3(32, 8)>>>(out);
}
