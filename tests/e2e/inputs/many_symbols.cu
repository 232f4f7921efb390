// A direct 3-D convolution written here the way real code often is: every
// size a kernel parameter (eight of them), a 3-deep loop nest over symbolic
// bounds, indices through macros. Each access's address reads several
// unknown sizes and three loop counters: what made such files cost tens of
// seconds (issue 19). test_symbolic_ratio.sh holds its analysis to a ratio of
// its parse floor.
#define IN_AT(n, c, h, w) ((n) * C * H * W + (c) * H * W + (h) * W + (w))
#define WT_AT(m, c, p, q) ((m) * C * R * R + (c) * R * R + (p) * R + (q))
#define OUT_AT(n, m, h, w) ((n) * M * HO * WO + (m) * HO * WO + (h) * WO + (w))
#define TILE 16

template <typename T>
__global__ void convDirect(const T *__restrict__ in, const T *__restrict__ wt, T *__restrict__ out, int C, int M,
                           int R, int H, int W, int HO, int WO, int tilesX) {
  int n = blockIdx.x, m = blockIdx.y;
  int h = blockIdx.z / tilesX * TILE + threadIdx.y;
  int w = blockIdx.z % tilesX * TILE + threadIdx.x;
  if (h < HO && w < WO) {
    T s = 0;
    for (int c = 0; c < C; c++)
      for (int p = 0; p < R; p++)
        for (int q = 0; q < R; q++)
          s += in[IN_AT(n, c, h + p, w + q)] * wt[WT_AT(m, c, p, q)];
    out[OUT_AT(n, m, h, w)] = s;
  }
}

template <typename T>
__global__ void convDirectSwapped(const T *__restrict__ in, const T *__restrict__ wt, T *__restrict__ out, int C,
                                  int M, int R, int H, int W, int HO, int WO, int tilesX) {
  int h = blockIdx.x / tilesX * TILE + threadIdx.y;
  int w = blockIdx.x % tilesX * TILE + threadIdx.x;
  int n = blockIdx.y, m = blockIdx.z;
  if (h < HO && w < WO) {
    T s = 0;
    for (int c = 0; c < C; c++)
      for (int p = 0; p < R; p++)
        for (int q = 0; q < R; q++)
          s += in[IN_AT(n, c, h + p, w + q)] * wt[WT_AT(m, c, p, q)];
    out[OUT_AT(n, m, h, w)] = s;
  }
}

void run(const float *in, const float *wt, float *out, int N, int C, int M, int R, int H, int W) {
  int HO = H - R + 1, WO = W - R + 1, tilesX = (WO + TILE - 1) / TILE, tilesY = (HO + TILE - 1) / TILE;
  dim3 block(TILE, TILE);
  convDirect<float><<<dim3(N, M, tilesX * tilesY), block>>>(in, wt, out, C, M, R, H, W, HO, WO, tilesX);
  convDirectSwapped<float><<<dim3(tilesX * tilesY, N, M), block>>>(in, wt, out, C, M, R, H, W, HO, WO, tilesX);
}
