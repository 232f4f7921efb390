// What a loop leaves in the locals it writes, where that is known without
// running it: the counter and the locals advanced once per iteration have a
// closed form at the trip count; a local the body sets back to its value at
// the loop's entry holds that value at every iteration's start; a short loop
// with a constant trip count that computes only locals is stepped through.
// A step that changes inside the loop, a `continue` that skips an update, a
// `break`, a bound the loop changes or a load keep the value unknown.
// RUN: %not %warplint check %s --rules shared-bank-conflict --color=never 2>&1 | %FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %warplint check %s --dump-model --color=never | %FileCheck %s --check-prefix=CHECK-MODEL

// The counter after the loop: 32, a stride of 32 words.
__global__ void counterAfterLoop(float *out) {
  __shared__ float s[2048];
  int i;
  float a = 0.f;
  for (i = 0; i < 32; ++i)
    a += s[threadIdx.x + i * 32];
  // CHECK-MESSAGES: :[[@LINE+1]]:22: warning: 32-way bank conflict on read of shared 's'
  out[threadIdx.x] = s[threadIdx.x * i] + a;
  // Stopped at 33: an odd stride, conflict-free.
  for (i = 0; i <= 32; ++i)
    a += s[threadIdx.x + i * 32];
  out[threadIdx.x] = s[threadIdx.x * i] + a;
}

// A local advanced once per iteration by a bound the loop does not change:
// c = 2*tx + 64*max(0, n - 2) after it, two lanes a bank.
__global__ void advancedLocal(float *out, int n) {
  __shared__ float s[1 << 20];
  int c = threadIdx.x * 2;
  int d = threadIdx.x;
  for (int k = 1; k < n - 1; ++k) {
    c += 64;
    d += 64;
  }
  // CHECK-MESSAGES: :[[@LINE+1]]:22: warning: 2-way bank conflict on read of shared 's'
  out[threadIdx.x] = s[c];
  out[threadIdx.x + 32] = s[d]; // consecutive words
}

// A `break`, or a bound the loop changes: the value is unknown.
// CHECK-MODEL: "text": "s[threadIdx.x * stop]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "value assigned more than once",
// CHECK-MODEL-NEXT: "reason": "'stop' holds the value a loop left"
// CHECK-MODEL: "text": "s[threadIdx.x * j]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "value assigned more than once",
// CHECK-MODEL-NEXT: "reason": "'j' holds the value a loop left"
__global__ void leftEarly(float *out, const float *in, int n) {
  __shared__ float s[2048];
  int stop;
  for (stop = 0; stop < 32; ++stop)
    if (in[stop] > 0.f)
      break;
  out[threadIdx.x] = s[threadIdx.x * stop];
  int j = threadIdx.x, m = n;
  while (j < m) {
    j += 1;
    m -= 1;
  }
  out[threadIdx.x] = s[threadIdx.x * j];
}

// A strided copy that advances w, then sets it back to where it started:
// every iteration of the outer loop starts with w = tx, the inner copy's
// rows are 32 words apart.
__global__ void restoredEachIteration(float *out, const float *in, int n) {
  __shared__ float s[256 * 32];
  int w = threadIdx.x;
  for (int k = 0; k < n; ++k) {
    while (w < 256) {
      // CHECK-MESSAGES: :[[@LINE+1]]:7: warning: 32-way bank conflict on write of shared 's'
      s[w * 32] = in[k * 256 + w];
      w += 32;
    }
    w = threadIdx.x;
    __syncthreads();
  }
  out[threadIdx.x] = s[w]; // tx again after the loop: free
}

// Set back to another value, or a `continue` that may skip the reset: w
// changes from one iteration to the next.
// CHECK-MODEL: "text": "s[w * 33]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "value assigned more than once",
// CHECK-MODEL-NEXT: "reason": "'w' changes inside a loop"
// CHECK-MODEL: "text": "s[v * 33]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "value assigned more than once",
// CHECK-MODEL-NEXT: "reason": "'v' changes inside a loop"
__global__ void notRestored(float *out, const float *in, int n) {
  __shared__ float s[256 * 33];
  int w = threadIdx.x;
  for (int k = 0; k < n; ++k) {
    s[w * 33] = in[k];
    w += 32;
    w = threadIdx.x + 1;
  }
  int v = threadIdx.x;
  for (int k = 0; k < n; ++k) {
    s[v * 33] = in[k];
    v += 32;
    if (in[k] > 0.f)
      continue;
    v = threadIdx.x;
  }
}

// A few iterations that compute only locals, stepped through: d = 16.
__global__ void steppedThrough(float *out) {
  __shared__ float s[1024];
  int d = 1;
  for (int i = 0; i < 5; ++i)
    if (i != 2)
      d *= 2;
  // CHECK-MESSAGES: :[[@LINE+1]]:22: warning: 16-way bank conflict on read of shared 's'
  out[threadIdx.x] = s[threadIdx.x * d];
}

// A load in the stepped body: what it reads is not known, nor is e.
// CHECK-MODEL: "text": "s[threadIdx.x * e]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "value assigned more than once",
// CHECK-MODEL-NEXT: "reason": "'e' holds the value a loop left"
__global__ void loadInStepped(float *out, const int *flags) {
  __shared__ float s[1024];
  int e = 1;
  for (int i = 0; i < 5; ++i)
    if (flags[threadIdx.x * 8 + i])
      e *= 2;
  out[threadIdx.x] = s[threadIdx.x * e];
}

// A step that itself changes in the loop is no recurrence: off is 0, 1, 3,
// 7, 15 (odd strides, conflict-free), not 0..4 (a 4-way conflict at 4).
// Every lane holds the same off: a uniform value, silent.
__global__ void changingStep(float *out) {
  __shared__ float s[1024];
  int off = 0, st = 1;
  for (int q = 0; q < 5; ++q) {
    out[threadIdx.x] = s[threadIdx.x * off];
    off += st;
    st *= 2;
  }
}

// A `continue` before the update skips it in some iterations: no recurrence.
// CHECK-MODEL: "text": "s[threadIdx.x * o]",
// CHECK-MODEL-NEXT: "unevaluated": {
// CHECK-MODEL-NEXT: "class": "value assigned more than once",
// CHECK-MODEL-NEXT: "reason": "'o' changes inside a loop"
__global__ void skippedUpdate(float *out) {
  __shared__ float s[1024];
  int o = 1;
  for (int q = 0; q < 5; ++q) {
    if (q == 2)
      continue;
    o += 1;
    out[threadIdx.x] = s[threadIdx.x * o];
  }
}

// `i = 2 * i` doubles as `i *= 2` does: 16 words apart at i = 16.
__global__ void doubledOnTheRight(float *out) {
  __shared__ float s[1024];
  for (int i = 1; i < 32; i = 2 * i)
    // CHECK-MESSAGES: :[[@LINE+2]]:24: warning: 16-way bank conflict on read of shared 's'
    // CHECK-MESSAGES: note: block (32, 1, 1) from the launch at line {{[0-9]+}}; worst at i = 16
    out[threadIdx.x] = s[threadIdx.x * i];
}

void launch(float *o, const float *in, const int *f, int n) {
  counterAfterLoop<<<1, 32>>>(o);
  advancedLocal<<<1, 32>>>(o, n);
  leftEarly<<<1, 32>>>(o, in, n);
  restoredEachIteration<<<1, 32>>>(o, in, n);
  notRestored<<<1, 32>>>(o, in, n);
  steppedThrough<<<1, 32>>>(o);
  loadInStepped<<<1, 32>>>(o, f);
  changingStep<<<1, 32>>>(o);
  skippedUpdate<<<1, 32>>>(o);
  doubledOnTheRight<<<1, 32>>>(o);
}
