#!/usr/bin/env bash
# The warp_tail pair (examples/rewrites/warp_tail_{before,after}.cu) with the
# hand-written advice (examples/advice/warp_reduce_after.cu) as a reference;
# see warp_pair_run.sh. Usage: tests/gpu/rewrites/warp_tail_run.sh [OUT]
exec bash "$(dirname "$0")/warp_pair_run.sh" warp_tail "${1:-}" \
  advice_after=../advice/warp_reduce_after.cu
