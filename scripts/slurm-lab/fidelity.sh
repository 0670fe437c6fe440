#!/usr/bin/env bash
# Replays a job file on a freshly started real Slurm lab (lab.sh) with sleep jobs and on
# hetsched's Slurm model (backfill, the lab's own slurm.conf), then compares per-job start
# times and nodes.
#   fidelity.sh JOBFILE OUTDIR     run both sides, then compare
#   fidelity.sh --collect OUTDIR   only collect, model and compare (the lab's jobs of an
#                                  earlier run of OUTDIR/jobs.txt have finished)
#   fidelity.sh --remodel OUTDIR [SLURM_CONF]   only model and compare again, from what an
#                                  earlier run stored (no lab needed; SLURM_CONF defaults to
#                                  OUTDIR/../slurm.conf, where fidelity-suite.sh keeps it)
#   fidelity.sh --ties OUTDIR [SLURM_CONF]   which one-millisecond races before the first
#                                  difference between run and model explain it
#                                  (OUTDIR/ties.csv; no lab needed)
#   fidelity.sh --timing OUTDIR    only read the controller's timing (and which passes were
#                                  the loop's) again from the logs fidelity-suite.sh keeps
#                                  beside OUTDIR
# Time limits are rounded up to whole minutes first (Slurm keeps limits in minutes), and
# that rounded file is what both sides run. Each job is submitted at its file time after
# the run's start (a whole second, OUT/clock_epoch), in file order, so Slurm's job ids
# equal the file's ids on a freshly started lab. The controller's own timing (its start,
# each backfill cycle and main pass, which pass started each job) is read from
# slurmctld's log into OUT/controller_timing.csv; start the lab with
#   LAB_EXTRA_CONF=$'DebugFlags=Backfill\nSlurmctldDebug=debug\nSlurmdDebug=debug2'
# for the backfill cycles, main passes and each node's epilog completion to be logged.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
HETSCHED=${HETSCHED:-$ROOT/build/hetsched}
source <("$HERE/lab.sh" env)

source "$HERE/replay-lib.sh"
source "$HERE/ties-lib.sh"

# A node's answer to the terminate request is sent about this long (s) after its
# "credential for job N revoked" line: the median gap to the "set revoke expiration" line
# that follows the send, over 3,300 answers of session 23's suite runs (0 ms 798, 1 ms
# 1,636, 2 ms 449, more 420). It dates an answer known only by the revoke line (runs at
# SlurmdDebug=debug, and their timing files without an answer/message tag).
REVOKE_TO_SEND=0.001

# slurmctld.log -> controller_timing.csv: event,t,detail with t in seconds after the run's
# clock epoch (negative before it). Events: clock_epoch (t = the epoch itself),
# controller_start, backfill_begin, backfill_end (detail: jobs tested), main_pass (detail:
# full|default), submit (detail: job id; its sbatch reached the controller), start (detail:
# job id and the pass that started it: main|backfill), end (detail: job id; the batch
# script's end reached the controller), plan (a backfill
# reservation: job id, planned start after the epoch, nodes), epilog (detail: job id, node
# and how that node's slurmd told the controller the job was done there: `answer` to the
# terminate request, or its own epilog-complete `message`; from the slurmd logs at
# SlurmdDebug=debug2, see collect_epilogs).
# CONTROLLER_LOG overrides the log's place, NODE_LOG_DIR that of the slurmd logs (default:
# beside it).
collect_timing() {
  local log epoch
  log=${CONTROLLER_LOG:-"$(dirname "$SLURM_CONF")/log/slurmctld.log"}
  epoch=$(cat "$OUT/clock_epoch")
  local -a node_logs=()
  mapfile -t node_logs < <(ls "${NODE_LOG_DIR:-$(dirname "$log")}"/slurmd-*.log 2>/dev/null)
  grep -q "Running job scheduler" "$log" ||
    echo "note: $log has no main passes (SlurmctldDebug=debug missing in $SLURM_CONF)" >&2
  grep -q "completed testing" "$log" ||
    echo "note: $log has no backfill cycles (DebugFlags=Backfill missing in $SLURM_CONF)" >&2
  awk -v epoch="$epoch" '
    function secs(   ts, d) {  # [YYYY-MM-DDTHH:MM:SS.mmm] -> seconds after epoch
      ts = substr($1, 2, 23); gsub(/[-T:]/, " ", ts)
      split(ts, d, " ")
      return sprintf("%.3f", mktime(d[1] " " d[2] " " d[3] " " d[4] " " d[5] " " int(d[6])) + (d[6] - int(d[6])) - epoch)
    }
    function stamp(text,   d) {  # YYYY-MM-DDTHH:MM:SS -> seconds after epoch
      gsub(/[-T:]/, " ", text); split(text, d, " ")
      return mktime(d[1] " " d[2] " " d[3] " " d[4] " " d[5] " " d[6]) - epoch
    }
    function jobid(   i) { for (i = 1; i <= NF; ++i) if ($i ~ /^JobId=/) return substr($i, 7); return "" }
    BEGIN { print "event,t,detail"; print "clock_epoch," epoch "," }
    /slurmctld version .* started on cluster/ { print "controller_start," secs() ","; next }
    /backfill: beginning/ { print "backfill_begin," secs() ","; next }
    /backfill: completed testing/ { split($0, a, "completed testing "); split(a[2], b, "[(]")
                                    print "backfill_end," secs() "," b[1]; next }
    /Running job scheduler for full queue/ { print "main_pass," secs() ",full"; next }
    /Running job scheduler for default depth/ { print "main_pass," secs() ",default"; next }
    /sched: Allocate JobId=/ { print "start," secs() "," jobid() " main"; next }
    /backfill: .*Started JobId=/ { print "start," secs() "," jobid() " backfill"; next }
    /_job_complete: JobId=.* WEXITSTATUS/ { print "end," secs() "," jobid(); next }
    /_slurm_rpc_submit_batch_job: JobId=/ { print "submit," secs() "," jobid(); next }
    /_dump_job_sched: JobId=/ { t = $8; sub(/,$/, "", t); print "plan," secs() "," jobid() " at " stamp(t) " on " $(NF - 3); next }
  ' "$log" > "$OUT/controller_timing.csv"
  collect_epilogs "${node_logs[@]}" >> "$OUT/controller_timing.csv"
}

# When each node of each job of this run answered the job's termination (epilog events,
# sorted by time). A node whose job has no step left and no epilog to run answers the
# terminate RPC as already complete (_rpc_terminate_job, slurmd/req.c): at SlurmdDebug=debug
# only "credential for job N revoked" is logged, before the node looks for steps to signal;
# at debug2 "set revoke expiration for jobid N" follows the answer's send, and is the time
# taken. Otherwise the node sends an epilog-complete message once the steps are gone and
# its epilog ran ("completed epilog for jobid N", the send's time; "sent epilog complete
# msg" is logged once the controller took it in, 0-2 ms later as a rule but 13 ms once when
# the controller was busy: its pass had started before that line); the node stays
# COMPLETING until then. Lab logs
# keep other runs' lines, whose job ids repeat: only lines from this run's controller start
# to a minute after its last logged event count.
collect_epilogs() {
  (($# > 0)) || return 0
  grep -q "credential for job .* revoked" "$@" ||
    { echo "note: no job terminations in the slurmd logs (SlurmdDebug=debug2 missing)" >&2; return 0; }
  local since until
  since=$(awk -F, '$1 == "controller_start" { s = $2 } END { print s }' "$OUT/controller_timing.csv")
  until=$(awk -F, 'NR > 2 && $2 + 0 > m { m = $2 + 0 } END { print m + 60 }' "$OUT/controller_timing.csv")
  awk -v epoch="$(cat "$OUT/clock_epoch")" -v since="$since" -v until="$until" -v kRevokeToSend="$REVOKE_TO_SEND" '
    function secs(   ts, d) {
      ts = substr($1, 2, 23); gsub(/[-T:]/, " ", ts)
      split(ts, d, " ")
      return mktime(d[1] " " d[2] " " d[3] " " d[4] " " d[5] " " int(d[6])) + (d[6] - int(d[6])) - epoch
    }
    function node(   n) { n = FILENAME; sub(/.*slurmd-/, "", n); sub(/[.]log$/, "", n); return n }
    /credential for job [0-9]+ revoked/ || /sent epilog complete msg/ || /set revoke expiration for jobid/ ||
    /completed epilog for jobid/ {
      t = secs(); if ((since != "" && t < since) || t > until) next
      if ($0 ~ /revoked/) { for (i = 1; i <= NF; ++i) if ($i == "job") id = $(i + 1)
                            revoked[id " " node()] = t }
      else if ($0 ~ /completed epilog/) { for (i = 1; i <= NF; ++i) if ($i == "jobid") id = $(i + 1)
                                          done[id " " node()] = t }
      else if ($0 ~ /expiration/) { for (i = 1; i <= NF; ++i) if ($i == "jobid") id = $(i + 1)
                                    if (!((id " " node()) in replied)) replied[id " " node()] = t }
      else { for (i = 1; i <= NF; ++i) if ($i ~ /^JobId=/) { id = substr($i, 7); sub(/:$/, "", id) }
             sent[id " " node()] = ((id " " node()) in done) ? done[id " " node()] : t }
    }
    END {
      for (k in revoked)
        if (k in sent) printf "epilog,%.3f,%s message\n", sent[k], k
        else printf "epilog,%.3f,%s answer\n", (k in replied) ? replied[k] : revoked[k] + kRevokeToSend, k
      for (k in sent) if (!(k in revoked)) printf "epilog,%.3f,%s message\n", sent[k], k
    }' "$@" | sort -t, -k2,2n -k3,3
}

# The model replays the run on the real controller's clock (clock=controller): its start
# (whole seconds after the clock epoch, as slurmctld's time() counts) and the epoch itself
# (wall-clock rounding). MODEL_CLOCK=grid (or default) runs the model's default clock
# instead (clock=grid, the reproduction tables' timing).
clock_options() {
  case "${MODEL_CLOCK:-real}" in
    real) ;;
    grid|default) return 0 ;;
    *) echo "MODEL_CLOCK=$MODEL_CLOCK: expected real, grid or default" >&2; return 1 ;;
  esac
  local epoch start
  epoch=$(cat "$OUT/clock_epoch")
  start=$(awk -F, '$1 == "controller_start" { s = $2 } END { if (s != "") printf "%d", (s < 0 && s != int(s)) ? int(s) - 1 : int(s) }' \
    "$OUT/controller_timing.csv")
  [[ -n "$start" ]] || { echo "$OUT/controller_timing.csv: no controller_start line" >&2; return 1; }
  # The controller's last main pass before the run's first submission and in a second up to
  # the epoch's (once its nodes registered: it comes up to a few ms after the epoch too),
  # whole seconds.
  local startup
  startup=$(awk -F, '$1 == "submit" { done = 1 }
      $1 == "main_pass" && !done && $2 < 1 { s = $2 }
      END { if (s != "") printf "%d", (s < 0 && s != int(s)) ? int(s) - 1 : int(s) }' \
    "$OUT/controller_timing.csv")
  local subsecond=""
  if [[ "${MODEL_SUBSECOND:-1}" != 0 ]]; then
    split_main_passes
    backfill_cycles
    subsecond=$(subsecond_options)
    [[ "${MODEL_EPILOG_MS:-8}" != 0 ]] && subsecond="$subsecond,epilog_ms=${MODEL_EPILOG_MS:-8}"
    [[ -s "$OUT/loop_ticks.txt" ]] && subsecond="$subsecond,loop_ticks=$(cd "$OUT" && pwd)/loop_ticks.txt"
    # The loop's passes as logged (default), or where the model's requests put them.
    [[ -s "$OUT/loop_ticks.txt" && "${MODEL_LOOP_PASSES:-logged}" == predicted ]] &&
      subsecond="$subsecond,loop_passes=predicted"
    [[ -s "$OUT/agent_passes.txt" ]] && subsecond="$subsecond,agent_passes=$(cd "$OUT" && pwd)/agent_passes.txt"
    [[ -s "$OUT/full_passes.txt" && "${MODEL_FULL_PASSES:-real}" == real ]] &&
      subsecond="$subsecond,full_passes=$(cd "$OUT" && pwd)/full_passes.txt"
    [[ -s "$OUT/backfill_cycles.txt" && "${MODEL_BACKFILL_CYCLES:-real}" == real ]] &&
      subsecond="$subsecond,backfill_cycles=$(cd "$OUT" && pwd)/backfill_cycles.txt"
  fi
  echo "--opt clock=controller,controller_start=$start,wall_clock=$epoch${startup:+,startup_pass=$startup}${subsecond:+,$subsecond}"
}

# The run's main passes in µs after the epoch, split by what ran them: the background loop
# (OUT/loop_ticks.txt: its ticks, as the passes show them; its period varies with load) or
# the scheduling thread woken directly (OUT/agent_passes.txt: an epilog completion calls
# schedule()). The loop runs a default-depth pass only batch_sched_delay (3 s) after its
# previous pass, counted in time()'s whole seconds (read a few ms before the pass is
# logged); a default-depth pass sooner is not its, nor is one within 5 ms after a node's
# epilog-complete message (that RPC's own pass).
split_main_passes() {
  awk -F, -v loop="$OUT/loop_ticks.txt" -v agent="$OUT/agent_passes.txt" -v full="$OUT/full_passes.txt" '
    BEGIN { printf "" > loop; printf "" > agent; printf "" > full }
    function us(t) { return sprintf("%d", (t < 0) ? t * 1e6 - 0.5 : t * 1e6 + 0.5) }
    function sec(t) { return (t < 0 && t != int(t)) ? int(t) - 1 : int(t) }
    NR == FNR { if ($1 == "epilog" && $3 ~ / message$/) message[++m] = $2 + 0; next }
    function after_message(t,   i) {
      for (i = 1; i <= m; ++i) if (t - message[i] >= 0 && t - message[i] <= 0.005) return 1
      return 0
    }
    # The loop read time() a few ms before its pass was logged: after a pass logged within
    # 10 ms of a whole second (0-9 ms at the log'"'"'s resolution) its next one can come 2 s
    # later (3 s by that clock).
    function too_soon(t,   gap) {
      gap = sec(t) - sec(last)
      return gap < 3 && !(gap == 2 && last - sec(last) < 0.0095)
    }
    $1 == "main_pass" {
      t = $2 + 0
      if ($3 != "full" && last != "" && (too_soon(t) || after_message(t))) { print us(t) > agent; next }
      if ($3 == "full") print us(t) > full
      print us(t) > loop; last = t
    }' "$OUT/controller_timing.csv" "$OUT/controller_timing.csv"
}

# The run's backfill cycles (OUT/backfill_cycles.txt: begin and end in µs after the epoch):
# the agent sleeps bf_interval from a cycle's end, so their phase drifts by each cycle's
# length; the model takes their times from here (MODEL_BACKFILL_CYCLES=phase: the first
# cycle's phase for all).
backfill_cycles() {
  awk -F, 'function us(t) { return sprintf("%d", (t < 0) ? t * 1e6 - 0.5 : t * 1e6 + 0.5) }
    $1 == "backfill_begin" { b = $2 }
    $1 == "backfill_end" && b != "" { print us(b), us($2); b = "" }' \
    "$OUT/controller_timing.csv" > "$OUT/backfill_cycles.txt"
}

# The controller's sub-second timing (docs/slurm-model.md, "Sub-second timing"): its main
# loop's period and one tick (a line through the main passes: the tick count between two
# passes is their gap over 1.005 s, rounded; least squares, then shifted by the median
# residual), the backfill agent's phase (its first cycle's), and the median time from a
# job's start + run time to its end; and the main passes themselves as the loop's ticks
# (OUT/loop_ticks.txt; between two, the model spreads the ticks evenly). MODEL_SUBSECOND=0
# leaves all of it out (whole seconds).
subsecond_options() {
  awk -F, -v jobs="$OUT/jobs.txt" '
    FILENAME == jobs { if ($0 !~ /^#/) { split($0, f, " "); run[f[1]] = f[3] }; next }
    FILENAME ~ /loop_ticks.txt$/ { p[++n] = $1 / 1e6; next }
    $1 == "backfill_begin" && bf == "" { bf = $2 + 0 }
    $1 == "main_pass" { main = $2 + 0 }
    $1 == "backfill_begin" { cycle = $2 + 0 }
    $1 == "start" { split($3, f, " "); st[f[1]] = (f[2] == "backfill") ? cycle : main }
    $1 == "end" { en[$3] = $2 + 0 }
    function median(a, m,   i, j, t) {  # sorts a[1..m] in place
      for (i = 2; i <= m; ++i) {
        t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; --j) a[j + 1] = a[j]; a[j + 1] = t
      }
      return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
    }
    function round(x) { return x < 0 ? -int(-x + 0.5) : int(x + 0.5) }
    END {
      out = ""
      if (n >= 2) {
        k[1] = 0
        for (i = 2; i <= n; ++i) k[i] = k[i - 1] + round((p[i] - p[i - 1]) / 1.005)
        sk = sp = skk = skp = 0
        for (i = 1; i <= n; ++i) { sk += k[i]; sp += p[i]; skk += k[i] * k[i]; skp += k[i] * p[i] }
        if (n * skk - sk * sk > 0) {
          P = (n * skp - sk * sp) / (n * skk - sk * sk); t0 = (sp - P * sk) / n
          for (i = 1; i <= n; ++i) r[i] = p[i] - (t0 + k[i] * P)
          t0 += median(r, n)
          if (P >= 0.5 && P <= 2)
            out = sprintf("loop_period_us=%d,loop_tick_us=%d", round(P * 1e6), round(t0 * 1e6))
        }
      }
      if (bf != "") {
        ph = bf - int(bf); if (ph < 0) ph += 1
        out = out (out == "" ? "" : ",") sprintf("backfill_ms=%d", int(ph * 1000))
      }
      m = 0
      for (j in en) if ((j in st) && (j in run)) lat[++m] = en[j] - st[j] - run[j]
      if (m > 0) {
        L = median(lat, m)
        out = out (out == "" ? "" : ",") sprintf("end_latency_ms=%d", (L > 0 ? round(L * 1000) : 0))
      }
      print out
    }' "$OUT/jobs.txt" "$OUT/loop_ticks.txt" "$OUT/controller_timing.csv"
}

# OUT/model_jobs.txt: jobs.txt with each job's submit time as the controller recorded it:
# from slurmctld's log (controller_timing.csv's submit events) in seconds after the epoch
# and milliseconds into that second (submit_ms=; not with MODEL_SUBSECOND=0), else whole
# seconds from the jobcomp file.
# A burst of sbatch calls reaches the controller later than the file says, so this is the
# experiment that really ran. MODEL_SUBMIT=file keeps the file's times. Each job also gets
# its end latency (end_latency_ms=, from the start of the pass that started it; not with
# MODEL_END_LATENCY=median) and its epilog (epilog_ms=, from its end to its last node's
# epilog completion, and epilog_by=, whether that node answered or sent a message, and
# epilog_nodes=, each node's own; not with MODEL_EPILOG=option, which leaves epilog_ms to
# the option).
model_jobs() {
  if [[ "${MODEL_SUBMIT:-real}" == file || ! -f "$OUT/clock_epoch" ]]; then
    cp "$OUT/jobs.txt" "$OUT/model_jobs.txt"
    return
  fi
  if [[ "${MODEL_SUBSECOND:-1}" != 0 ]] && grep -q '^submit,' "$OUT/controller_timing.csv" 2>/dev/null; then
    awk -F, -v own_end="${MODEL_END_LATENCY:-job}" -v own_epilog="${MODEL_EPILOG:-job}" \
      -v kRevokeToSend="$REVOKE_TO_SEND" '
      function ms(t) { return (t < 0) ? 0 : int(t * 1000 + 0.5) }
      NR == FNR { if ($1 == "submit") at[$3] = ms($2)
                  if ($1 == "epilog") { split($3, f, " "); t = $2 + (f[3] == "" ? kRevokeToSend : 0)
                                        if (!(f[1] in ep) || t > ep[f[1]]) { ep[f[1]] = t; by[f[1]] = f[3] }
                                        if (f[3] != "") { k = ++nn[f[1]]; nname[f[1], k] = f[2]
                                                          nt[f[1], k] = t; nby[f[1], k] = f[3] } }
                  if ($1 == "main_pass") main = $2 + 0
                  if ($1 == "backfill_begin") bf = $2 + 0
                  if ($1 == "start") { split($3, f, " "); st[f[1]] = (f[2] == "backfill") ? bf : main }
                  if ($1 == "end") en[$3] = $2 + 0
                  next }
      /^#/ { print; next }
      { id = $1; run = $3
        if (id in at) { $2 = int(at[id] / 1000); $0 = $0 " submit_ms=" at[id] % 1000 }
        if (own_end == "job" && (id in st) && (id in en)) $0 = $0 " end_latency_ms=" ms(en[id] - st[id] - run)
        if (own_epilog == "job" && (id in ep) && (id in en)) {
          $0 = $0 " epilog_ms=" ms(ep[id] - en[id])
          if (by[id] != "") $0 = $0 " epilog_by=" by[id]
          for (k = 1; k <= nn[id]; ++k)
            $0 = $0 (k == 1 ? " epilog_nodes=" : ",") nname[id, k] ":" ms(nt[id, k] - en[id]) \
                 (nby[id, k] == "message" ? "m" : "")
        }
        print }' \
      "$OUT/controller_timing.csv" FS=' ' "$OUT/jobs.txt" > "$OUT/model_jobs.txt"
    return
  fi
  awk -F, -v epoch="$(cat "$OUT/clock_epoch")" 'NR == FNR { at[$1] = $2 - epoch; next }
    /^#/ { print; next }
    { if ($1 in at) $2 = at[$1]; print }' "$OUT/real_raw.csv" FS=' ' "$OUT/jobs.txt" > "$OUT/model_jobs.txt"
}

# OUT/model_options: the options the model ran with (the reports quote them);
# OUT/model_plans.csv: the model's backfill reservations, pass by pass (time,job,
# planned_start,nodes), beside controller_timing.csv's real "plan" rows.
run_model() {
  local clock
  clock=$(clock_options)
  model_jobs
  echo "$clock ${MODEL_OPTS:-}" | sed 's/^ *//; s/ *$//' > "$OUT/model_options"
  # shellcheck disable=SC2086
  "$HETSCHED" simulate --cluster "$SLURM_CONF" --workload "$OUT/model_jobs.txt" --scheduler backfill \
    $clock ${MODEL_OPTS:-} --out "$OUT/model" --dump-plans "$OUT/model_plans.csv" >/dev/null
}


# OUT/per_job.csv (id,real_start,model_start,abs_delta,same_nodes) and the summary line.
compare() {
  compare_model "$OUT/model/jobs.csv" "$OUT/per_job.csv" | tee "$OUT/summary.txt"
}

# A model's jobs.csv ($1) against the real run: per-job rows into $2, the summary line out.
compare_model() {
  awk -F, "$NODE_SET_AWK"'
    NR == FNR { if (FNR > 1) { start[$1] = $2; nodes[$1] = $4 } next }
    FNR == 1 { print "id,real_start,model_start,abs_delta,same_nodes" > per_job; next }
    {
      d = $6 - start[$1]; if (d < 0) d = -d
      split("", r); split("", m)
      add_nodes(nodes[$1], r); model_set(model_allocation($0), m)
      same_here = same_set(r, m)
      print $1 "," start[$1] "," $6 "," d "," same_here > per_job
      sum += d; n++; if (d <= 5) within5++; if (d <= 30) within30++; if (d > worst) worst = d
      same += same_here
    }
    END {
      printf "jobs %d  mean |start difference| %.1f s  within 5 s: %d  within 30 s: %d  worst %d s  same nodes: %d\n",
             n, sum / n, within5, within30, worst, same
    }' per_job="$2" "$OUT/real.csv" "$1"
}

# OUT/ties.csv: the epilog reports within a millisecond of a pass before the run's first
# difference, and jobs' answers taken in up to TIE_ANSWER_MS (default 12) before one, each
# moved alone to the pass's other side and re-modelled (ties-lib.sh); TIE_LIMIT (default 8)
# caps how many, nearest first.
tie_check() {
  local first clock tmp n=0 pass_ms kind job node report sent_ms d moved summary
  first=$(first_difference "$OUT/per_job.csv")
  echo "pass_s,pass,job,node,report,sent_s,model_saw,moved_ms,jobs,starts_within_5s,same_nodes" > "$OUT/ties.csv"
  if [[ -z "$first" ]]; then
    echo "no difference between the run and its model: no tie to check"
    return
  fi
  clock=$(clock_options)
  tmp=$(mktemp -d)
  while read -r pass_ms kind job node report sent_ms d; do
    ((n++ < ${TIE_LIMIT:-8})) || break
    moved=$((d >= 0 ? d + 1 : -1))
    shift_report "$OUT/model_jobs.txt" "$job" "$node" "$moved" > "$tmp/jobs.txt"
    # shellcheck disable=SC2086
    "$HETSCHED" simulate --cluster "$SLURM_CONF" --workload "$tmp/jobs.txt" --scheduler backfill \
      $clock ${MODEL_OPTS:-} --out "$tmp/model" >/dev/null 2>&1 || { echo "model failed" >&2; continue; }
    summary=$(compare_model "$tmp/model/jobs.csv" "$tmp/per_job.csv")
    awk -v row="$pass_ms,$kind,$job,$node,$report,$sent_ms,$d,$moved" '
      { for (i = 1; i <= NF; ++i) { if ($i == "jobs") n = $(i + 1); if ($i == "5") w = $(i + 2)
                                    if ($i == "nodes:") s = $(i + 1) } }
      END { split(row, f, ","); printf "%.3f,%s,%s,%s,%s,%.3f,%s,%+d,%d,%d,%d\n",
                f[1] / 1000, f[2], f[3], f[4], f[5], f[6] / 1000, (f[7] >= 0) ? "yes" : "no", f[8], n, w, s }' \
      <<< "$summary" >> "$OUT/ties.csv"
  done < <(tie_candidates "$OUT/controller_timing.csv" "$first" "$TIE_ANSWER_MS")
  rm -rf "$tmp"
  echo "first difference at t = $first s; $(($(wc -l < "$OUT/ties.csv") - 1)) tie(s) re-modelled: $OUT/ties.csv"
}

# Re-read the controller's timing from the logs fidelity-suite.sh keeps beside a run
# (OUT/../slurmctld.log, OUT/../slurmd-logs/), so a better reading applies to stored runs.
recollect_timing() {
  CONTROLLER_LOG="$OUT/../slurmctld.log" NODE_LOG_DIR="$OUT/../slurmd-logs" collect_timing
}

if [[ "${1:-}" == "--timing" ]]; then
  OUT=$2
  recollect_timing
  split_main_passes
  exit
elif [[ "${1:-}" == "--remodel" ]]; then
  OUT=$2
  SLURM_CONF=${3:-$OUT/../slurm.conf}
  # Runs stored with their nodes' logs, or before the end events were collected: read the
  # timing again from the kept logs.
  if [[ -f "$OUT/../slurmctld.log" ]] &&
     { [[ -d "$OUT/../slurmd-logs" ]] || ! grep -q '^end,' "$OUT/controller_timing.csv"; }; then
    recollect_timing
  fi
  run_model
  compare
  exit
elif [[ "${1:-}" == "--ties" ]]; then
  OUT=$2
  SLURM_CONF=${3:-$OUT/../slurm.conf}
  [[ -f "$OUT/model_jobs.txt" ]] || model_jobs
  tie_check
  exit
elif [[ "${1:-}" == "--collect" ]]; then
  OUT=$2
else
  JOBS=$1
  OUT=$2
  mkdir -p "$OUT"
  prepare_jobs
  SAME_IDS=1 submit_timed || exit 1   # the caller stops the lab, and its jobs with it
  wait_until_done
fi
collect_real
collect_timing
run_model
compare
