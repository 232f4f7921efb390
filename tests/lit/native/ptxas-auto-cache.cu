// REQUIRES: nvcc
// --ptxas auto (the default where a toolkit is found; lit pins it off) compiles
// a file with nvcc -Xptxas -v only when a kernel has a private array whose
// place depends on ptxas, and lets the stack frame decide: an 8-int table
// picked by three comparisons stays in registers (0-byte frame: no finding),
// a 16-int histogram does not. The compile is cached by content.
// RUN: rm -rf %t.cache && mkdir -p %t
// RUN: %not %warplint check %s --ptxas auto --cache-dir %t.cache --rules private-array-local-memory --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// One compile, cached.
// RUN: ls %t.cache | %FileCheck %s --check-prefix=CACHE
// CACHE: ptxas-{{[0-9a-f]+}}.json
// CACHE-NOT: ptxas-
// A second run reads the cache instead of compiling: an entry edited to say
// that 'histogram16' has no stack frame silences its finding too.
// RUN: sed -i 's/64 bytes stack frame/0 bytes stack frame/' %t.cache/ptxas-*.json
// RUN: %warplint check %s --ptxas auto --cache-dir %t.cache --rules private-array-local-memory --color=never 2>&1 | %FileCheck %s --check-prefix=EDITED --implicit-check-not=warning:
// EDITED: no findings
// Off: the static verdicts, both arrays reported.
// RUN: %not %warplint check %s --ptxas off --rules private-array-local-memory --color=never 2>&1 | %FileCheck %s --check-prefix=OFF --implicit-check-not=warning:
// OFF: :[[@LINE+10]]:7: warning: private array 'd' (int[8]
// OFF: :[[@LINE+23]]:7: warning: private array 'bins' (int[16]
// A file with no private array whose place is in doubt is never compiled.
// RUN: rm -rf %t.cache2 && printf '__global__ void k(float *a) { float r[4]; for (int i = 0; i < 4; ++i) r[i] = a[i]; a[threadIdx.x] = r[0] + r[3]; }\n' > %t/plain.cu
// RUN: %warplint check %t/plain.cu --ptxas auto --cache-dir %t.cache2 --color=never
// RUN: not ls %t.cache2
// A bad value is a usage error.
// RUN: %not %warplint check %s --ptxas sometimes 2>&1 | %FileCheck %s --check-prefix=BAD
// BAD: invalid value 'sometimes' for --ptxas (expected off, auto or on)
__global__ void nearestOctant(const int *xyz, int *out, int n) {
  int d[8];
  for (int j = 0; j < 8; ++j) d[j] = 1 << 30;
  int x = xyz[threadIdx.x];
  for (int j = 0; j < n; ++j) {
    int t = xyz[j];
    int k = (t > x) * 4 + (t > 2 * x) * 2 + (t > 3 * x);
    if (t < d[k]) d[k] = t;
  }
  for (int j = 0; j < 8; ++j) out[threadIdx.x * 8 + j] = d[j];
}

// CHECK: :[[@LINE+3]]:7: warning: private array 'bins' (int[16], 64 bytes a thread) is placed in local memory
// CHECK: note: confirmed: ptxas (nvcc {{[0-9.]+}}, sm_90) reports a 64-byte stack frame for 'histogram16'
__global__ void histogram16(const int *in, int *out, int n) {
  int bins[16] = {0};
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    bins[in[i] & 15]++;
  for (int b = 0; b < 16; ++b)
    atomicAdd(&out[b], bins[b]);
}
