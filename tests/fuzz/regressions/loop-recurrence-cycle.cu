// Every loop form whose counter the model follows: each leaked its
// LoopRecurrence through the cycle cond -> loopVar(rec) -> rec until 0dc85ba.
__global__ void forLoop(float *a, int n) { for (int i = threadIdx.x; i < n; i += 32) a[i] = 0.f; }
__global__ void whileLoop(float *a, int n) { int i = threadIdx.x; while (i < n) { a[i] = 0.f; i += 32; } }
__global__ void doLoop(float *a, int n) { int i = threadIdx.x; do { a[i] = 0.f; i += 32; } while (i < n); }
__global__ void twoCounters(float *a, int n, int m) {
  int i = threadIdx.x;
  int j = 0;
  while (i < n && j < m) { a[i] = 0.f; i += 32; j += 1; }
}
__global__ void carriedInCondition(float *a, int n) {
  int j = threadIdx.x;
  for (int i = 0; i < n && j < 4 * n; i++) { a[j] = 0.f; j += 32; }
}
