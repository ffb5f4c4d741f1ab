#!/bin/bash
# Session 19 run 167: Nsight Compute on kernels-gen 4.9's spec (Officers 2^22, the second launch):
# how busy the shared-memory pipe is, its wavefronts and bank conflicts, and the stall reasons.
set -u
B=.exp/s19/octal-r19e
N=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
echo "ncu: $N" | tee $OUT/ncu.txt
[ -n "$N" ] || exit 0
timeout 400 $N --kernel-name spec --launch-skip 1 --launch-count 1 \
  --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis \
  --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section InstructionStats \
  --metrics smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__average_warp_latency_issue_stalled_mio_throttle,smsp__average_warp_latency_issue_stalled_short_scoreboard,sm__cycles_elapsed.avg \
  $B solve .6 -n 2^22 --gpu --speculate-only -q >> $OUT/ncu.txt 2>&1
echo "exit $?" >> $OUT/ncu.txt
grep -E "Warp Cycles|Stall|Issue|Eligible|Duration|Barrier|Scoreboard|MIO|Throttle|Shared|shared|Wavefront|Conflict|conflict|Pipe|Frequency|Elapsed" $OUT/ncu.txt | head -80
