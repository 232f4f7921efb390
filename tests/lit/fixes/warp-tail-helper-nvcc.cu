// The helper warp tails tests/lit/fixes/warp-tail-helper.cu rewrites compile
// with nvcc: --fix-verify-nvcc keeps every one of the three fixes (a template
// helper with guards, the register form, min through a typedef), and the
// loop-form fix of its tileSums (one more __shfl_down_sync line).
// REQUIRES: nvcc
// RUN: grep -v CHECK- %S/warp-tail-helper.cu > %t.cu
// RUN: %not %warplint check --fail-min-gain 0 %t.cu --rules warp-shuffle-candidate --fix --fix-verify-nvcc --color=never > %t.log 2>&1
// RUN: %FileCheck --input-file=%t.log %s --implicit-check-not="fix not applied"
// RUN: grep -c "__shfl_down_sync(0xffffffff" %t.cu | grep -qx 16
// CHECK-COUNT-3: warplint: fixed {{.*}}: move the warp tail in the __device__ helper
// CHECK: warplint: fixed {{.*}}: move the per-warp tree loop over 's'
