#!/usr/bin/env bash
# One device call for two measurements that need a GPU but little of its time:
#  1. kernel_fixed_time on this card (issue 18) through fixed_time_device_run.sh,
#     named after the card (h200 or h100) so that a card other than the one asked
#     for can never be mistaken for it;
#  2. the three warp-shuffle rewrite pairs through tests/gpu/rewrites/warp_pair_run.sh
#     (warp_tail, warp_tail_helper, warp_tree_loop).
# Every step has its own time limit, and everything is packed into OUT/results.tgz
# after each step, so a step that hangs still leaves the others' results.
# Usage: bash probes/scripts/fixed_time_and_warp_pairs_device_run.sh OUT [PROBE_BINARY]
set -u
out=$1
bin=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
pack() { tar czf "$out/results.tgz" -C "$work" . ; }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in
  *H200*) card=h200 ;;
  *H100*) card=h100 ;;
  *) card=other ;;
esac
{
  echo "card: $gpu -> $card"
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi
} >"$work/device.txt" 2>&1
cat "$work/device.txt" | head -1

mkdir -p "$work/ft_$card"
start=$(date +%s)
timeout 240 sh "$root/probes/scripts/fixed_time_device_run.sh" "$card" "$work/ft_$card" $bin \
  >"$work/ft_$card/run_log.txt" 2>&1
echo "fixed_time rc=$? in $(($(date +%s) - start)) s"
cat "$work/ft_$card/run_log.txt"
pack

wp=$root/tests/gpu/rewrites
for s in warp_tail_run.sh warp_tail_helper_run.sh warp_tree_loop_run.sh; do
  pair=${s%_run.sh}
  start=$(date +%s)
  timeout 120 bash "$wp/$s" "$work/${pair}_$card" >"$work/${pair}_$card.log" 2>&1
  echo "$pair rc=$? in $(($(date +%s) - start)) s"
  grep "bit-identical\|DIFFERENT\|ncu .* rc=" "$work/${pair}_$card/runs.txt"
  pack
done
