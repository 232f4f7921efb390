// --time-limit: a file whose analysis takes more CPU time than the limit is
// stopped (cooperatively, between statements and evaluations) and reported
// as not analyzed with where it stopped and for how long it ran, exit status
// 2: never a hang. A limit of 1 ms is always reached, by the parse (tens of
// ms of CPU) if by nothing else, so these checks cannot flake.
// RUN: %not %warplint check --no-cuda-toolkit --time-limit 0.001 %s --color=never 2>&1 | %FileCheck %s
// RUN: %not %warplint check --no-cuda-toolkit --time-limit 0.001 %s --format json | %FileCheck %s --check-prefix=JSON
// No limit and the default one: the file is analyzed and clean.
// RUN: %warplint check --no-cuda-toolkit --time-limit 0 %s --color=never 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: %warplint check --no-cuda-toolkit %s --color=never 2>&1 | %FileCheck %s --check-prefix=CLEAN
// RUN: %not %warplint check --no-cuda-toolkit --time-limit -1 %s 2>&1 | %FileCheck %s --check-prefix=BAD

// CHECK: time-limit.cu: error: could not analyze this file: analysis of time-limit.cu stopped after {{[0-9]+\.[0-9][0-9]}} s of CPU time: the time limit of 0.001 s a file (--time-limit) was reached while {{parsing|modeling function 'copy'|evaluating kernel 'copy'}} (raise it, or --time-limit 0 for none)
// JSON: "message": "analysis of time-limit.cu stopped after {{[0-9.]+}} s of CPU time: the time limit of 0.001 s a file (--time-limit) was reached while
// CLEAN: no findings (1 kernel analyzed in 1 file)
// BAD: error: invalid value '-1' for --time-limit (expected seconds a file, 0 for no limit)

__global__ void copy(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

void launch(const float *in, float *out) { copy<<<64, 256>>>(in, out); }
