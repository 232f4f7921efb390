// RUN: %not %warplint check %s --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:

// Precision tests: matrix transposes with 1-D and 2-D blocks (n = 1024).

#define TILE 32
#define ROWS 8

// 1-D block of 256: lane = tid % 32, row-in-tile = tid / 32 (uniform per warp).
__global__ void transpose1D(float *out, const float *in, int n) {
  __shared__ float tile[TILE][TILE];
  int tx = threadIdx.x % 32;
  int ty = threadIdx.x / 32;
  int x = blockIdx.x * TILE + tx;
  int y = blockIdx.y * TILE + ty;
  for (int j = 0; j < TILE; j += ROWS)
    tile[ty + j][tx] = in[(y + j) * n + x]; // GT: free; 4 sectors
  __syncthreads();
  x = blockIdx.y * TILE + tx;
  y = blockIdx.x * TILE + ty;
  for (int j = 0; j < TILE; j += ROWS)
    // GT: words 32*tx + ty + j: 32-way read. out: 4 sectors.
    // CHECK-MESSAGES: :[[@LINE+1]]:28: warning: 32-way bank conflict on read of shared 'tile'
    out[(y + j) * n + x] = tile[tx][ty + j];
}

// Same with shifts and masks, padded: conflict-free.
__global__ void transpose1DPadded(float *out, const float *in, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int lane = threadIdx.x & 31;
  int wid = threadIdx.x >> 5;
  int x = blockIdx.x * TILE + lane;
  int y = blockIdx.y * TILE + wid;
  for (int j = 0; j < TILE; j += ROWS)
    tile[wid + j][lane] = in[(y + j) * n + x]; // GT: free; 4 sectors
  __syncthreads();
  int ox = blockIdx.y * TILE + lane;
  int oy = blockIdx.x * TILE + wid;
  for (int j = 0; j < TILE; j += ROWS)
    out[(oy + j) * n + ox] = tile[lane][wid + j]; // GT: words 33*lane + c: free; 4 sectors
}

// Block (32,8), tile of doubles padded by one element (two words): each
// half-warp phase covers 16 rows 66 words apart = 32 distinct banks: free.
__global__ void transposeDoublePadded(double *out, const double *in, int n) {
  __shared__ double tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x]; // GT: free; 8 sectors = ideal
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j]; // GT: free
}

// Block (32,8), byte tile: a column read touches bytes 32*tx + c, i.e. words
// 8*tx + c/4: banks 0, 8, 16, 24 with 8 distinct words each: 8-way.
__global__ void transposeBytes(unsigned char *out, const unsigned char *in, int n) {
  __shared__ unsigned char tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x]; // GT: 8 words, free; 1 sector = ideal
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    // CHECK-MESSAGES: :[[@LINE+1]]:28: warning: 8-way bank conflict on read of shared 'tile'
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Byte tile with a 33-byte pitch: lane tx reads byte 33*tx + c (c = ty + j).
// Worked out lane by lane: for c % 4 == 0 every bank holds one word; for the
// warps with ty % 4 != 0 two distinct words share a bank: 2-way (padding by a
// single byte does not fully fix a byte tile; a 36-byte pitch, 9 words, would).
__global__ void transposeBytesPadded(unsigned char *out, const unsigned char *in, int n) {
  __shared__ unsigned char tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x]; // GT: 9 words, free
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    // CHECK-MESSAGES: :[[@LINE+1]]:28: warning: 2-way bank conflict on read of shared 'tile'
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Block (16,16), no shared memory: the write walks a column. Lanes (x, y0) and
// (x, y0+1) share a sector (y0 is even), 16 rows: 16 sectors vs 4: 4x.
__global__ void transposeNaive16(float *out, const float *in, int n) {
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  if (x >= n || y >= n)
    return;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: uncoalesced global write of 'out': 16 sectors per request where 4 suffice: 4x the traffic
  out[x * n + y] = in[y * n + x]; // GT: read: 4 sectors
}

// Block (32,8), read through a row alias: row = &tile[ty][0] then row[tx] is a
// row access (free); col = &tile[0][tx] then col[k * 33] is a padded column
// walk that stays in each lane's own bank (free).
__global__ void transposeAliases(float *out, const float *in, int n) {
  __shared__ float tile[TILE][TILE + 1];
  float *row = &tile[threadIdx.y][0];
  for (int j = 0; j < TILE; j += ROWS)
    row[j * (TILE + 1) + threadIdx.x] = in[(blockIdx.y * TILE + threadIdx.y + j) * n + blockIdx.x * TILE + threadIdx.x];
  __syncthreads();
  const float *col = &tile[0][threadIdx.x];
  for (int j = 0; j < TILE; j += ROWS)
    out[(blockIdx.x * TILE + threadIdx.y + j) * n + blockIdx.y * TILE + threadIdx.x] = col[(threadIdx.y + j) * (TILE + 1)];
}

// Block (32,8), the same aliases without padding: col[(ty+j)*32] is tile[ty+j][tx]
// (a row: free), but a per-lane row pointer reads a column: 32-way.
__global__ void transposeRowPointer(float *out, const float *in, int n) {
  __shared__ float tile[TILE][TILE];
  for (int j = 0; j < TILE; j += ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(blockIdx.y * TILE + threadIdx.y + j) * n + blockIdx.x * TILE + threadIdx.x];
  __syncthreads();
  const float *mine = &tile[threadIdx.x][0];
  for (int j = 0; j < TILE; j += ROWS)
    // CHECK-MESSAGES: :[[@LINE+1]]:88: warning: 32-way bank conflict on read of shared 'tile'
    out[(blockIdx.x * TILE + threadIdx.y + j) * n + blockIdx.y * TILE + threadIdx.x] = mine[threadIdx.y + j];
}

void launchTranspose(float *f, double *d, unsigned char *b, int n) {
  dim3 grid(n / TILE, n / TILE);
  transpose1D<<<grid, 256>>>(f, f, n);
  transpose1DPadded<<<grid, TILE * ROWS>>>(f, f, n);
  dim3 block(TILE, ROWS);
  transposeDoublePadded<<<grid, block>>>(d, d, n);
  transposeBytes<<<grid, block>>>(b, b, n);
  transposeBytesPadded<<<grid, block>>>(b, b, n);
  transposeNaive16<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(f, f, n);
  transposeAliases<<<grid, block>>>(f, f, n);
  transposeRowPointer<<<grid, block>>>(f, f, n);
}
