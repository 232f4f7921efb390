// A swept access whose loops and sampled values exceed the sweep's budget
// keeps about half of the widest loop's iterations at a time, evenly spread
// with the first and last kept, and says what it sampled. Here the conflict
// happens only at the inner loop's last iteration (an edge case, as a clamp
// or a mirror at the border is): keeping every other iteration from the
// first would never see it.
// RUN: %not %warplint check --fail-min-gain 0 --no-cost-model %s --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:

__global__ void lastIteration(float *out, int a, int b) {
  __shared__ float s[8192];
  float acc = 0;
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 64; ++j)
      acc += s[threadIdx.x * (j == 63 ? 2 : 1) + i + a * b];
  // CHECK: sweep-budget.cu:[[@LINE-1]]:14: warning: 2-way bank conflict on read of shared 's'
  // CHECK: note: block (128, 1, 1) from the launch at line {{[0-9]+}}; worst at j = 63, i = 0
  // CHECK: note: assumption: loop iterations sampled: 32 of 2048 iteration combinations at each of the 361 sampled values (the sweep's budget)
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main(int argc, char **) {
  float *out = nullptr;
  lastIteration<<<4, 128>>>(out, argc, argc + 1);
}
