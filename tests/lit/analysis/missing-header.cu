// Headers the build cannot find (host-only ones such as omp.h, a project
// header not on the include path) are parsed as empty files: the file's
// kernels are still analyzed, and a note names each stand-in.
// RUN: %not %warplint check --fail-min-gain 0 %s --color=never 2>&1 | %FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %warplint check %s --dump-model | %python %S/Inputs/kernel_origins.py | %FileCheck %s --check-prefix=MODEL
// RUN: %not %warplint check --fail-min-gain 0 %s --format json | %FileCheck %s --check-prefix=JSON

#include <omp.h>
#include "warplint-test-absent/project_config.h"
#include <cstdio>

// MODEL: frontend note: header 'omp.h' not found; analyzed as if empty
// MODEL: frontend note: header 'warplint-test-absent/project_config.h' not found; analyzed as if empty
// MODEL: strided: launch (256, 1, 1)
// JSON: "frontend_notes"
// JSON: "header 'omp.h' not found; analyzed as if empty"

__global__ void strided(float *out) {
  // CHECK: :[[@LINE+1]]:3: warning: uncoalesced global write of 'out'
  out[threadIdx.x * 32] = 1.f;
}
// CHECK: missing-header.cu:8:10: note: header 'omp.h' not found; analyzed as if empty
// CHECK: missing-header.cu:9:10: note: header 'warplint-test-absent/project_config.h' not found; analyzed as if empty

int main() {
  float *out = nullptr;
  strided<<<1, 256>>>(out);
#pragma omp parallel for
  for (int i = 0; i < 4; ++i)
    printf("%d\n", i);
  return 0;
}
