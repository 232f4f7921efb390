// The warp tails tests/lit/fixes/warp-tail.cu rewrites compile with nvcc:
// --fix-verify-nvcc keeps every one of the five fixes.
// REQUIRES: nvcc
// RUN: grep -v CHECK- %S/warp-tail.cu > %t.cu
// RUN: %not %warplint check --fail-min-gain 0 %t.cu --rules warp-shuffle-candidate --fix --fix-verify-nvcc --color=never > %t.log 2>&1
// RUN: %FileCheck --input-file=%t.log %s --implicit-check-not="fix not applied"
// RUN: grep -c "__shfl_down_sync(0xffffffff" %t.cu | grep -qx 25
// CHECK-COUNT-5: warplint: fixed {{.*}}: move the warp tail of
