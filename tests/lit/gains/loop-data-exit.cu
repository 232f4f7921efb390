// A loop that stops on data (`if (s < 0) break;` on a value loaded from
// memory) is recorded by the walker and priced at half its bound, as a
// condition partly on data is; a lookup whose index is built from loaded
// data and does not step with the loop's counter revisits its table, so the
// loop's iterations add requests but not new DRAM sectors (pfacGlobal in
// examples/case_pfac.cu: ncu finds L1TEX at 72% of peak and DRAM at 12%).
// RUN: %warplint check %s --format json --quiet 2>/dev/null | %python %S/Inputs/costs_only.py | %FileCheck %s

__global__ void walkAutomaton(const unsigned char *in, int n, const int *next, const int *accept, int *out) {
  int pos = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0, found = -1;
  for (int k = pos; k < n; ++k) {
    s = next[s * 256 + in[k]];
    if (s < 0)
      break;
    found = accept[s] >= 0 ? accept[s] : found;
  }
  out[pos] = found;
}

// The same exit written as a return; a break of a switch inside the loop
// leaves the switch, not the loop (counted in full).
__global__ void firstMatch(const int *keys, int n, const int *want, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; ++k) {
    switch (k & 3) {
    case 0:
      if (keys[k] == 0)
        break;
      out[t] += 1;
      break;
    default:
      break;
    }
  }
  for (int k = 0; k < n; ++k)
    if (keys[t * n + k] == want[t]) {
      out[t] = k;
      return;
    }
}

// A row of data-dependent start that steps with its counter streams: its
// sectors stay those of every iteration (no revisit), while the lookup
// x[col[...]] revisits x.
__global__ void rowDot(const int *start, const float *val, const int *col, const float *x, int n, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int b = start[r];
  float sum = 0;
  for (int k = 0; k < n; ++k)
    sum += val[b + k] * x[col[b + k]];
  y[r] = sum;
}

void launch(const unsigned char *in, const int *next, const int *accept, int *out, const int *keys, const int *want,
            const int *start, const float *val, const int *col, const float *x, float *y) {
  walkAutomaton<<<4096, 256>>>(in, 1 << 20, next, accept, out);
  firstMatch<<<64, 256>>>(keys, 64, want, out);
  rowDot<<<64, 256>>>(start, val, col, x, 64, y);
}

// CHECK: "kernel": "walkAutomaton"
// CHECK: "bottleneck": "l1"
// CHECK: "assumptions": [
// CHECK-NEXT: "the loop at line 12 (k) stops on data ('s < 0': break at line 15): at most 1024 iterations, taken as half",
// CHECK: "'next[s * 256 + in[k]]' is indexed by data that does not step with the loop(s) at line 12: the iterations revisit its table, so its distinct sectors are one iteration's",
// CHECK: "'accept[s]' is indexed by data that does not step with the loop(s) at line 12
// CHECK: "kernel": "firstMatch"
// CHECK-NOT: line 25 (k) stops on data
// CHECK: "the loop at line 36 (k) stops on data ('keys[t * n + k] == want[t]': return at line 39): at most 1024 iterations, taken as half",
// CHECK: "kernel": "rowDot"
// CHECK-NOT: 'val[b + k]' is indexed by data
// CHECK: "'x[col[b + k]]' is indexed by data that does not step with the loop(s) at line 50
// CHECK-NOT: 'val[b + k]' is indexed by data
