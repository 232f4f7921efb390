// The per-warp tree loops tests/lit/fixes/warp-tail-loop.cu rewrites compile
// with nvcc: --fix-verify-nvcc keeps every one of the four fixes.
// REQUIRES: nvcc
// RUN: grep -v CHECK- %S/warp-tail-loop.cu > %t.cu
// RUN: %not %warplint check --fail-min-gain 0 %t.cu --rules warp-shuffle-candidate --fix --fix-verify-nvcc --color=never > %t.log 2>&1
// RUN: %FileCheck --input-file=%t.log %s --implicit-check-not="fix not applied"
// RUN: grep -c "__shfl_down_sync(0xffffffff" %t.cu | grep -qx 7
// CHECK-COUNT-4: warplint: fixed {{.*}}: move the per-warp tree loop over
