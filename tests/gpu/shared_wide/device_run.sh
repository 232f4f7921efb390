#!/bin/bash
# One device call: build shared_wide for sm_90, check its SASS (LDS, LDS.64,
# LDS.128, STS...), run it plainly, then once under Nsight Compute (every
# launch: 198), and join the counters into results.csv.
#   bash tests/gpu/shared_wide/device_run.sh OUTDIR
set -u
O=${1:?OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
W=/tmp/shared-wide
mkdir -p "$O" "$W"
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,pci.bus_id --format=csv
  ncu --version | tail -1
  nvcc --version | tail -2
  echo "command: bash tests/gpu/shared_wide/device_run.sh \$OUT"
} >"$O/env.txt" 2>&1
cat "$O/env.txt"
nvcc -O3 -arch=sm_90 -std=c++17 -lineinfo -o "$W/shared_wide" "$HERE/shared_wide.cu" || { echo "build failed"; exit 1; }
cuobjdump -sass "$W/shared_wide" >"$O/sass.txt" 2>&1
grep -E "Function|LDS|STS" "$O/sass.txt"
"$W/shared_wide" "$W/patterns_plain.csv" || { echo "plain run failed"; exit 1; }
M="smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,gpu__time_duration.sum,launch__grid_size,launch__block_size"
NCU="ncu --clock-control none -c 200 --csv --page raw --metrics $M --log-file $O/shared_wide.ncu.csv $W/shared_wide $O/patterns.csv"
echo "$NCU" >>"$O/env.txt"
$NCU >"$O/ncu_stdout.txt" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
  echo "ncu rc=$rc with the bank-conflict metrics; retrying without them" | tee -a "$O/env.txt"
  M2="smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,gpu__time_duration.sum"
  NCU="ncu --clock-control none -c 200 --csv --page raw --metrics $M2 --log-file $O/shared_wide.ncu.csv $W/shared_wide $O/patterns.csv"
  echo "$NCU" >>"$O/env.txt"
  $NCU >"$O/ncu_stdout.txt" 2>&1 || echo "ncu failed again rc=$?"
fi
python3 "$HERE/make_results.py" "$O/patterns.csv" "$O/shared_wide.ncu.csv" -o "$O/results.csv"
