#!/bin/bash
# MonteCarloMultiGPU (cuda-samples c94ff36) as written and after warplint --fix
# (warp-shuffle-candidate: sumReduce's two-array per-warp tree loop as shuffles).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; } > $OUT/env.txt 2>&1
for v in orig fixed; do
  for m in threaded streamed; do
    ( cd $v && ./mc --method=$m ) > $OUT/mc_${v}_$m.txt 2>&1; echo "$v $m rc=$?" >> $OUT/env.txt
  done
  ( cd $v && ncu --clock-control none -c 4 -k regex:MonteCarloOneBlockPerOption --csv --page raw \
      --metrics $(paste -sd, ../ncu_metrics.txt) --log-file $OUT/mc_$v.ncu.csv ./mc --method=streamed > /dev/null 2>&1 ); echo "$v ncu rc=$?" >> $OUT/env.txt
done
for m in threaded streamed; do
  diff <(grep -v -i "time\|per sec" $OUT/mc_orig_$m.txt) <(grep -v -i "time\|per sec" $OUT/mc_fixed_$m.txt) > $OUT/diff_$m.txt; echo "diff $m rc=$?" >> $OUT/env.txt
done
cat $OUT/env.txt; tail -5 $OUT/mc_fixed_streamed.txt
