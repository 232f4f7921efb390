// Integer locals passed to a helper's reference parameters (`rowCol(r, c)`
// with `void rowCol(int &row, int &col)`): inside the helper the parameter
// follows the caller's local, after the call the local holds what the helper
// left in it. Only when the helper writes it on every path to the end of its
// body and no second reference of the call reaches the same local; otherwise
// the value stays unknown, with the reason.
// RUN: %not %warplint check %s --fail-min-gain 0 --rules shared-bank-conflict --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %warplint check %s --dump-model --color=never | %FileCheck %s --check-prefix=CHECK-MODEL

__device__ void rowCol(int &row, int &col) {
  row = threadIdx.x / 4;
  col = threadIdx.x % 4;
}

// 8 rows of 4 lanes, rows 32 words apart: lanes 0, 4, ..., 28 share bank 0.
__global__ void conflictThroughOutParams(float *out) {
  __shared__ float s[1024];
  int r, c;
  rowCol(r, c);
  // CHECK-MESSAGES: :[[@LINE+2]]:3: warning: 8-way bank conflict on write of shared 's'
  // CHECK-MESSAGES: note: address of 's[r * 32 + c]' = s + ((threadIdx.x / 4)*32 + (threadIdx.x % 4))*4 bytes
  s[r * 32 + c] = 1.f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// The same helper, the row read along the lanes: conflict-free.
__global__ void freeThroughOutParams(float *out) {
  __shared__ float s[1024];
  int r, c;
  rowCol(r, c);
  s[c * 8 + r] = 1.f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// Written twice: accesses see the write that reaches them, in the helper
// (32 words apart) and after it (consecutive).
__device__ void twice(float *s, int &v) {
  v = threadIdx.x * 32;
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 32-way bank conflict on write of shared 's'
  s[v] = 1.f;
  v = threadIdx.x;
}

__global__ void writtenTwice(float *out) {
  __shared__ float s[1024];
  int v;
  twice(s, v);
  __syncthreads();
  out[threadIdx.x] = s[v];
}

// Read in the helper before its write: the caller's value (32 words apart),
// then the helper's (consecutive) after the call.
__device__ void readThenWrite(float *s, int &v) {
  // CHECK-MESSAGES: :[[@LINE+1]]:3: warning: 32-way bank conflict on write of shared 's'
  s[v] = 1.f;
  v = threadIdx.x;
}

__global__ void writtenAfterTheRead(float *out) {
  __shared__ float s[1024];
  int v = threadIdx.x * 32;
  readThenWrite(s, v);
  __syncthreads();
  out[threadIdx.x] = s[v];
}

// Written on one path only: the uninitialized local has no value on the
// other, the access stays unevaluated.
// CHECK-MODEL: "text": "s[a]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "value assigned more than once",
// CHECK-MODEL-NEXT: "reason": "'a' is written by a call to 'onePath', where 'v' is assigned differently on different paths"
__device__ void onePath(int &v, int n) {
  if (n > 4)
    v = threadIdx.x * 32;
}

__global__ void writtenOnOnePath(float *out, int n) {
  __shared__ float s[1024];
  int a;
  onePath(a, n);
  out[threadIdx.x] = s[a];
}

// Two reference parameters bound to one local: a write through one changes
// what the other reads; neither follows it.
// CHECK-MODEL: "text": "s[first + 1]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "value assigned more than once",
// CHECK-MODEL-NEXT: "reason": "parameter 'first' is modified in the body"
// CHECK-MODEL: "text": "s[x]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "value assigned more than once",
// CHECK-MODEL-NEXT: "reason": "'x' is written by a call to 'pair' that reaches it through another reference too"
__device__ void pair(float *s, int &first, int &second) {
  first = threadIdx.x;
  second = threadIdx.x * 32;
  s[first + 1] = 1.f; // 32 words apart when both are one local
}

__global__ void aliasedReferences(float *out) {
  __shared__ float s[2048];
  int x;
  pair(s, x, x);
  __syncthreads();
  out[threadIdx.x] = s[x];
}

// A helper that may return before its write: unknown after the call.
// CHECK-MODEL: "text": "s[e]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "value assigned more than once",
// CHECK-MODEL-NEXT: "reason": "'e' is written by a call to 'mayReturn' that may return before the end of its body"
__device__ void mayReturn(int &v, int n) {
  if (n > 4)
    return;
  v = threadIdx.x * 32;
}

__global__ void earlyReturn(float *out, int n) {
  __shared__ float s[1024];
  int e = threadIdx.x;
  mayReturn(e, n);
  out[threadIdx.x] = s[e];
}

// A call inside a loop changes the local from one iteration to the next.
// CHECK-MODEL: "text": "s[w]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "value assigned more than once",
// CHECK-MODEL-NEXT: "reason": "'w' changes inside a loop"
__device__ void advance(int &v) { v += 32; }

__global__ void callInLoop(float *out) {
  __shared__ float s[4096];
  int w = threadIdx.x;
  for (int k = 0; k < 4; ++k) {
    out[k * 32 + threadIdx.x] = s[w];
    advance(w);
  }
}

// Through two helpers, and a const reference that takes the caller's value.
__device__ void base(int &v) { v = threadIdx.x * 2; }
__device__ void baseThenOne(int &v) {
  base(v);
  v += 1;
}
__device__ int timesK(const int &i, int k) { return i * k; }

__global__ void nestedAndConst(float *out) {
  __shared__ float s[2048];
  int b;
  baseThenOne(b);
  // Odd words 2*tx + 1: two lanes a bank.
  // CHECK-MESSAGES: :[[@LINE+1]]:22: warning: 2-way bank conflict on read of shared 's'
  out[threadIdx.x] = s[b];
  int i = threadIdx.x;
  // CHECK-MESSAGES: :[[@LINE+1]]:27: warning: 32-way bank conflict on read of shared 's'
  out[threadIdx.x + 32] = s[timesK(i, 32)];
}

void launch(float *o, int n) {
  conflictThroughOutParams<<<1, 32>>>(o);
  freeThroughOutParams<<<1, 32>>>(o);
  writtenTwice<<<1, 32>>>(o);
  writtenAfterTheRead<<<1, 32>>>(o);
  writtenOnOnePath<<<1, 32>>>(o, n);
  aliasedReferences<<<1, 32>>>(o);
  earlyReturn<<<1, 32>>>(o, n);
  callInLoop<<<1, 32>>>(o);
  nestedAndConst<<<1, 32>>>(o);
}
