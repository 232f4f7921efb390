#!/usr/bin/env bash
# The warp_tree_loop pair (the loop form over a thread_block_tile<32>), no
# reference program; see warp_pair_run.sh.
# Usage: tests/gpu/rewrites/warp_tree_loop_run.sh [OUT]
exec bash "$(dirname "$0")/warp_pair_run.sh" warp_tree_loop "${1:-}"
