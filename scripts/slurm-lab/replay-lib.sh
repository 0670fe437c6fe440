# Shared by fidelity.sh, fidelity-suite.sh and bridge-run.sh: turning a hetsched job file into sbatch
# submissions on the lab, waiting for them, and reading back what Slurm did.
# Expects JOBS (input job file), OUT (output directory) and SLURM_CONF to be set.
# SUBMIT_FLAGS (e.g. -H to submit held for `hetsched bridge`) is added to every sbatch.

# Limits in whole minutes ("-t HH:MM:SS" -> "-t M", rounded up). A node count without an
# upper end ("-N 4-", which sbatch and now the job-file reader refuse; older files read it as
# exactly that many nodes) becomes "-N 4" for both sides.
prepare_jobs() {
  awk '/^#/ {print; next} {
  for (i = 1; i <= NF; ++i) {
    if ($i == "-t") { split($(i+1), p, ":"); s = p[1] * 3600 + p[2] * 60 + p[3]; $(i+1) = int((s + 59) / 60) }
    if ($i == "-N" && $(i+1) ~ /-$/) sub(/-$/, "", $(i+1))
  }
  print
}' "$JOBS" > "$OUT/jobs.txt"
}

# One job line's options ("id submit runtime opts...") -> sbatch, with the runtime as a sleep.
# With SAME_IDS=1 (fidelity.sh, whose reports read Slurm's job ids as the file's) a job id
# other than the line's (the lab was not fresh, or something else submitted or asked for an
# id: even sbatch --test-only takes one) would pair every later job with another's record,
# so it stops the run.
submit_line() {
  local id=$1 runtime=$2 rest=$3 opts=() word got
  for word in $rest; do
    case "$word" in
      user=*|moldable=*) ;;
      partition=*) opts+=(-p "${word#partition=}") ;;
      name=*) opts+=(-J "${word#name=}") ;;
      # Slurm has no gres ranges: the minimum for Slurm, the range for the bridge.
      --gres=*:[0-9]*-[0-9]*)
        local spec=${word#--gres=} name=${word#--gres=}
        name=${name%%:*}
        opts+=("--gres=${spec%-*}" "--comment=hetsched:$name=${spec##*:}") ;;
      *) opts+=("$word") ;;
    esac
  done
  got=$(timeout 10 sbatch --parsable -o /dev/null ${SUBMIT_FLAGS:-} "${opts[@]}" --wrap "sleep $runtime")
  got=${got%%;*}
  if [[ "${SAME_IDS:-0}" == 1 && "$got" != "$id" ]]; then
    echo "job $id of $OUT/jobs.txt got Slurm job id '${got:-none}': Slurm's ids no longer name the file's jobs; run stopped" >&2
    return 1
  fi
}

submit_all() {
  local id submit runtime rest
  while read -r id submit runtime rest; do
    [[ "$id" == \#* || -z "$id" ]] && continue
    submit_line "$id" "$runtime" "$rest" || return 1
  done < "$OUT/jobs.txt"
}

now_ms() { date +%s%3N; }

# Submits every job of OUT/jobs.txt at its submit time after the run's start, a whole
# second (written to OUT/clock_epoch) so that Slurm's one-second clock and the file's
# seconds line up. Jobs must be in submit order (ids then equal Slurm's on a fresh lab).
submit_timed() {
  local epoch=$(( $(date +%s) + 2 )) id submit runtime rest last=0 line=0 wait_ms
  echo "$epoch" > "$OUT/clock_epoch"
  while read -r id submit runtime rest; do
    line=$(( line + 1 ))
    [[ "$id" == \#* || -z "$id" ]] && continue
    if [[ ! "$submit" =~ ^[0-9]+$ ]] || (( submit < last )); then
      echo "$OUT/jobs.txt:$line: submit '$submit' of job $id is not a whole number of seconds in order" >&2
      return 1
    fi
    last=$submit
    wait_ms=$(( (epoch + submit) * 1000 + 20 - $(now_ms) ))
    (( wait_ms > 0 )) && sleep "$(( wait_ms / 1000 )).$(printf %03d $(( wait_ms % 1000 )))"
    submit_line "$id" "$runtime" "$rest" || return 1
  done < "$OUT/jobs.txt"
}

wait_until_done() {
  while [[ -n "$(timeout 10 squeue -h -o %i)" ]]; do sleep 5; done
  sleep 2
}

# jobcomp lines -> real.csv: id,start,end,nodes in seconds after OUT/clock_epoch (when a
# timed run wrote it) or else the first submission
# ("+" separates node ranges inside a node list).
collect_real() {
  awk '{
    for (i = 1; i <= NF; ++i) { split($i, kv, "="); f[kv[1]] = substr($i, length(kv[1]) + 2) }
    for (k in t) delete t[k]
    split("SubmitTime StartTime EndTime", keys, " ")
    for (k = 1; k <= 3; ++k) { cmd = "date -d " f[keys[k]] " +%s"; cmd | getline t[k]; close(cmd) }
    nodes = f["NodeList"]; gsub(/,/, "+", nodes)
    print f["JobId"] "," t[1] "," t[2] "," t[3] "," nodes
  }' "$(dirname "$SLURM_CONF")/jobcomp.txt" | sort -t, -k1,1n > "$OUT/real_raw.csv"
  local epoch=""
  [[ -f "$OUT/clock_epoch" ]] && epoch=$(cat "$OUT/clock_epoch")
  awk -F, -v t0="$epoch" 'NR == FNR { if (t0 == "" || $2 < t0) t0 = $2; next }
    FNR == 1 { print "id,start,end,nodes" }
    { print $1 "," $3 - t0 "," $4 - t0 "," $5 }' "$OUT/real_raw.csv" "$OUT/real_raw.csv" > "$OUT/real.csv"
}

# Node lists as sorted, space-separated node names. Slurm's (real.csv): "n[1-5+11-12+15]"
# or "n3" ("+" for the commas of a NodeList); the model's allocation column: entries
# "NODES:resources" joined by ";", NODES being "n3" or "n[1-4,10-12]" (the CSV quotes an
# allocation with commas). Names are prefix + number.
NODE_SET_AWK='
  function add_nodes(spec, set,   pre, body, parts, i, n, r, k, lo, hi) {
    if (!match(spec, /\[.*\]/)) { set[spec] = 1; return }
    pre = substr(spec, 1, RSTART - 1); body = substr(spec, RSTART + 1, RLENGTH - 2)
    n = split(body, parts, /[+,]/)
    for (i = 1; i <= n; ++i) {
      if (split(parts[i], r, "-") == 2) { lo = r[1]; hi = r[2] } else { lo = hi = parts[i] }
      for (k = lo + 0; k <= hi + 0; ++k) set[pre k] = 1
    }
  }
  function model_allocation(line,   rest, q) {  # a jobs.csv line -> its allocation field
    rest = line
    for (q = 0; q < 13; ++q) rest = substr(rest, index(rest, ",") + 1)
    if (substr(rest, 1, 1) == "\"") { rest = substr(rest, 2); return substr(rest, 1, index(rest, "\"") - 1) }
    return substr(rest, 1, index(rest ",", ",") - 1)
  }
  function model_set(alloc, set,   parts, n, i, c) {
    n = split(alloc, parts, ";")
    for (i = 1; i <= n; ++i) { c = parts[i]; sub(/:[^:]*$/, "", c); add_nodes(c, set) }
  }
  function same_set(a, b,   k) {
    for (k in a) if (!(k in b)) return 0
    for (k in b) if (!(k in a)) return 0
    return 1
  }'
