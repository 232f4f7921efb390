// Case study (seed 002 §6.4): Parallel Failureless Aho-Corasick (PFAC).
// Every thread starts a walk of the failureless automaton (a trie with 256
// columns a state) at its own input position and reports the longest
// pattern that starts there.
//  pfacGlobal     reads the input one byte per access from global memory
//                 (the seed's starting point)
//  pfacSmemBytes  the block first stages its chunk of input (plus the
//                 longest pattern's length) in shared memory, a byte a
//                 thread (seed §6.4.1)
//  pfacSmemUint4  the same staging with 16-byte uint4 loads (seed §6.4.2)
//
//   nvcc -O3 -lineinfo -arch=sm_90 -o pfac examples/case_pfac.cu && ./pfac
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

constexpr int MAXLEN = 16;   // longest pattern
constexpr int CHUNK = 2048;  // input positions a block
constexpr int THREADS = 256; // 8 positions a thread
constexpr int SLACK = 64;    // >= MAXLEN, a multiple of 16

// trans[s * 256 + c]: next state or -1; match[s]: pattern id ending at s or -1
__global__ void pfacGlobal(const unsigned char *in, long n, const int *trans,
                           const int *match, int *out) {
  long pos = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (pos >= n)
    return;
  int state = 0, found = -1;
  for (long k = pos; k < n; ++k) {
    state = trans[state * 256 + in[k]];
    if (state < 0)
      break;
    int m = match[state];
    found = m >= 0 ? m : found;
  }
  out[pos] = found;
}

__global__ void pfacSmemBytes(const unsigned char *in, long n, const int *trans,
                              const int *match, int *out) {
  __shared__ unsigned char buf[CHUNK + SLACK];
  long base = long(blockIdx.x) * CHUNK;
  for (int i = threadIdx.x; i < CHUNK + SLACK; i += THREADS)
    buf[i] = base + i < n ? in[base + i] : 0;
  __syncthreads();
  for (int p = threadIdx.x; p < CHUNK; p += THREADS) {
    if (base + p >= n)
      break;
    int state = 0, found = -1;
    for (int k = p; k < p + MAXLEN && base + k < n; ++k) {
      state = trans[state * 256 + buf[k]];
      if (state < 0)
        break;
      int m = match[state];
      found = m >= 0 ? m : found;
    }
    out[base + p] = found;
  }
}

// n padded by the host to a multiple of CHUNK plus SLACK bytes of zeros.
__global__ void pfacSmemUint4(const unsigned char *in, long n, const int *trans,
                              const int *match, int *out) {
  __shared__ uint4 buf4[(CHUNK + SLACK) / 16];
  const unsigned char *buf = reinterpret_cast<const unsigned char *>(buf4);
  long base = long(blockIdx.x) * CHUNK;
  const uint4 *in4 = reinterpret_cast<const uint4 *>(in + base);
  for (int i = threadIdx.x; i < (CHUNK + SLACK) / 16; i += THREADS)
    buf4[i] = in4[i];
  __syncthreads();
  for (int p = threadIdx.x; p < CHUNK; p += THREADS) {
    if (base + p >= n)
      break;
    int state = 0, found = -1;
    for (int k = p; k < p + MAXLEN && base + k < n; ++k) {
      state = trans[state * 256 + buf[k]];
      if (state < 0)
        break;
      int m = match[state];
      found = m >= 0 ? m : found;
    }
    out[base + p] = found;
  }
}

template <typename K>
static float medianMs(K launch, int reps) {
  cudaEvent_t s, e;
  CK(cudaEventCreate(&s));
  CK(cudaEventCreate(&e));
  launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<float> ts;
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(s));
    launch();
    CK(cudaEventRecord(e));
    CK(cudaEventSynchronize(e));
    float ms;
    CK(cudaEventElapsedTime(&ms, s, e));
    ts.push_back(ms);
  }
  CK(cudaGetLastError());
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}

int main() {
  const long n = 64L << 20; // 64 MiB of text
  const int npat = 512, reps = 11;
  const char alpha[4] = {'A', 'C', 'G', 'T'};
  srand(11);
  // patterns and the trie (goto function only: failureless)
  std::vector<std::vector<unsigned char>> pats(npat);
  std::vector<int> trans(256, -1), match(1, -1);
  for (int p = 0; p < npat; ++p) {
    int len = 6 + rand() % (MAXLEN - 5);
    for (int i = 0; i < len; ++i)
      pats[p].push_back(alpha[rand() % 4]);
    int s = 0;
    for (unsigned char c : pats[p]) {
      if (trans[s * 256 + c] < 0) {
        trans[s * 256 + c] = int(match.size());
        match.push_back(-1);
        trans.resize(trans.size() + 256, -1);
      }
      s = trans[s * 256 + c];
    }
    if (match[s] < 0)
      match[s] = p;
  }
  int nstates = int(match.size());
  // text: random ACGT with a planted pattern every ~300 bytes
  long padded = (n + CHUNK - 1) / CHUNK * CHUNK + SLACK;
  std::vector<unsigned char> text(padded, 0);
  for (long i = 0; i < n; ++i)
    text[i] = alpha[rand() & 3];
  for (long i = 0; i + MAXLEN < n; i += 200 + rand() % 200) {
    auto &pp = pats[rand() % npat];
    memcpy(&text[i], pp.data(), pp.size());
  }
  unsigned char *dIn;
  int *dTrans, *dMatch, *dOut;
  CK(cudaMalloc(&dIn, padded));
  CK(cudaMalloc(&dTrans, trans.size() * 4));
  CK(cudaMalloc(&dMatch, match.size() * 4));
  CK(cudaMalloc(&dOut, n * 4));
  CK(cudaMemcpy(dIn, text.data(), padded, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dTrans, trans.data(), trans.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dMatch, match.data(), match.size() * 4, cudaMemcpyHostToDevice));

  // CPU reference on the first 4 MiB and the last 64 KiB
  auto ref = [&](long pos) {
    int s = 0, found = -1;
    for (long k = pos; k < n; ++k) {
      s = trans[s * 256 + text[k]];
      if (s < 0)
        break;
      if (match[s] >= 0)
        found = match[s];
    }
    return found;
  };
  std::vector<int> out(n);
  printf("%d patterns, %d states, %ld bytes\n", npat, nstates, n);
  printf("%-15s %10s %9s %10s %s\n", "kernel", "median_ms", "speedup", "GB/s", "check");
  const char *names[3] = {"pfacGlobal", "pfacSmemBytes", "pfacSmemUint4"};
  float base = 0;
  long matches = 0;
  for (int v = 0; v < 3; ++v) {
    CK(cudaMemset(dOut, 0x7f, n * 4)); // poison
    auto launch = [&] {
      if (v == 0)
        pfacGlobal<<<(n + 255) / 256, 256>>>(dIn, n, dTrans, dMatch, dOut);
      else if (v == 1)
        pfacSmemBytes<<<(n + CHUNK - 1) / CHUNK, THREADS>>>(dIn, n, dTrans, dMatch, dOut);
      else
        pfacSmemUint4<<<(n + CHUNK - 1) / CHUNK, THREADS>>>(dIn, n, dTrans, dMatch, dOut);
    };
    float ms = medianMs(launch, reps);
    if (v == 0)
      base = ms;
    CK(cudaMemcpy(out.data(), dOut, n * 4, cudaMemcpyDeviceToHost));
    long bad = 0, cnt = 0;
    for (long i = 0; i < n; ++i)
      cnt += out[i] >= 0;
    for (long i = 0; i < (4L << 20); ++i)
      bad += out[i] != ref(i);
    for (long i = n - 65536; i < n; ++i)
      bad += out[i] != ref(i);
    if (v == 0)
      matches = cnt;
    else
      bad += cnt != matches;
    printf("%-15s %10.4f %8.2fx %10.1f %s (%ld matches)\n", names[v], ms, base / ms,
           n / (ms * 1e6), bad ? "WRONG" : "ok", cnt);
  }
  CK(cudaFree(dIn));
  CK(cudaFree(dTrans));
  CK(cudaFree(dMatch));
  CK(cudaFree(dOut));
  return 0;
}
