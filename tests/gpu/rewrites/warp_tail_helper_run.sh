#!/usr/bin/env bash
# The warp_tail_helper pair (the tail in a __device__ helper) with the
# hand-written advice and the in-kernel tail (warp_tail_before.cu) as
# references; see warp_pair_run.sh.
# Usage: tests/gpu/rewrites/warp_tail_helper_run.sh [OUT]
exec bash "$(dirname "$0")/warp_pair_run.sh" warp_tail_helper "${1:-}" \
  advice_after=../advice/warp_reduce_after.cu inkernel_before=warp_tail_before.cu
