# shellcheck shell=bash
# Sub-millisecond ties of a fidelity run (sourced by fidelity.sh --ties).
#
# slurmctld's logs date everything to the millisecond, and a node's epilog report and a
# scheduling pass of the same or the next millisecond race for the job lock: which one
# won cannot be read from the logs (docs/slurm-lab.md, "One millisecond, either way").
# The model takes a message in 2 ms after its send, and a job's answers to the terminate
# request together 1 ms after its last answer (one agent thread gets all the replies back
# at once); a pass sees what was taken in by its own millisecond. When a run and its model
# part, these functions list the reports within a millisecond of a pass shortly before the
# first difference and replay the model once per report with it moved to the other side of
# the pass (a job's answers all together: node "*"), so a report can tell a race from a
# gap in the model. A job's answers can also reach the controller's state later than their
# send plus a millisecond: on an esp-het run (session 56) a pass 9 ms after a job's last
# answer did not have its nodes, though other passes 3-11 ms after an answer did (held up
# behind a lock, it seems; the logs do not say). So answers taken in up to a few ms before a
# pass are listed too.

# How many ms before a pass fidelity.sh --ties looks for a job's answers taken in.
TIE_ANSWER_MS=${TIE_ANSWER_MS:-12}

# The second of the run's first difference: the earliest start, real or modelled, of a job
# that started at another time or on other nodes. Empty when the model matches the run.
first_difference() {  # $1: per_job.csv
  awk -F, 'NR > 1 && ($4 != 0 || $5 != 1) {
      t = ($2 < $3) ? $2 : $3
      if (first == "" || t < first) first = t
    }
    END { print first }' "$1"
}

# Epilog reports within a millisecond of a main pass or backfill cycle in the seconds up
# to the first difference ($2), nearest first: pass_ms pass job node report sent_ms d_ms,
# where d_ms is the pass's millisecond minus the report's taken-in millisecond (the model
# saw the report when d_ms >= 0). A job's answers are one row, node "*", sent at its last;
# they are listed up to $3 ms (default 1) before a pass.
tie_candidates() {  # $1: controller_timing.csv, $2: first difference (s), $3: answers' reach (ms)
  awk -F, -v first="$2" -v reach="${3:-1}" '
    function ms(t) { return int(t * 1000 + (t < 0 ? -0.5 : 0.5)) }
    $1 == "main_pass" { pass[++np] = ms($2); kind[np] = "main" }
    $1 == "backfill_begin" { pass[++np] = ms($2); kind[np] = "backfill" }
    $1 == "epilog" {
      split($3, f, " ")
      if (f[3] == "message") {
        rep[++nr] = f[1] " " f[2] " message"; sent[nr] = ms($2); taken[nr] = sent[nr] + 2
      } else if (f[3] == "answer") {
        if (!(f[1] in group)) { group[f[1]] = ++nr; rep[nr] = f[1] " * answer"; sent[nr] = ms($2) }
        r = group[f[1]]
        if (ms($2) > sent[r]) sent[r] = ms($2)
        taken[r] = sent[r] + 1
      }
    }
    END {
      lo = (first - 5) * 1000; hi = (first + 1) * 1000
      for (p = 1; p <= np; ++p) {
        if (pass[p] < lo || pass[p] >= hi) continue
        for (r = 1; r <= nr; ++r) {
          d = pass[p] - taken[r]
          if (d >= -1 && (d <= 1 || (d <= reach && rep[r] ~ / answer$/))) print pass[p], kind[p], rep[r], sent[r], d
        }
      }
    }' "$1" | awk -v first="$2" '{ g = first * 1000 - $1; if (g < 0) g = -g; print g, $0 }' |
    LC_ALL=C sort -n -k1,1 -k2,2 | cut -d' ' -f2-
}

# model_jobs.txt with one node's epilog report of one job moved by $4 ms, or with node "*"
# all of the job's answers (the job's own epilog_ms follows: its last node's).
shift_report() {  # $1: model_jobs.txt, $2: job, $3: node or "*", $4: shift (ms)
  awk -v job="$2" -v node="$3" -v shift="$4" '
    /^#/ || $1 != job { print; next }
    {
      last = -1
      for (i = 1; i <= NF; ++i) {
        if ($i !~ /^epilog_nodes=/) continue
        n = split(substr($i, 14), e, ",")
        out = ""
        for (k = 1; k <= n; ++k) {
          split(e[k], f, ":")
          tag = (f[2] ~ /m$/) ? "m" : ""; v = f[2] + 0
          if (f[1] == node || (node == "*" && tag == "")) { v += shift; if (v < 0) v = 0 }
          if (v > last) last = v
          out = out (k > 1 ? "," : "") f[1] ":" v tag
        }
        $i = "epilog_nodes=" out
      }
      if (last >= 0)
        for (i = 1; i <= NF; ++i) if ($i ~ /^epilog_ms=/) $i = "epilog_ms=" last
      print
    }' "$1"
}
