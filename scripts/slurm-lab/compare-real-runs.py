#!/usr/bin/env python3
"""Two real runs of one job file compared job by job, as the fidelity suite compares the
model with a real run: share of jobs on the same node set, starts within 5 s, the
|Δstart| median / p90 / max, and mean wait, mean slowdown, makespan and utilization of
both with the relative difference (B − A).

    compare-real-runs.py RUN_A RUN_B [ALL_CORES]

RUN_A, RUN_B: fidelity.sh output directories (real.csv, model_jobs.txt or jobs.txt).
ALL_CORES: the lab's cores, for utilization (default 128: 16 nodes of 8 cores).
"""
import csv
import re
import sys


def hosts(expr):
    """n[1-3+7] or n[1-3,7] or n5 -> {'n1', 'n2', 'n3', 'n7'} (real.csv writes ',' as '+')."""
    out = set()
    for part in re.findall(r'[^,\[]+(?:\[[^\]]*\])?', expr):
        m = re.match(r'([^\[]+)\[([^\]]*)\]', part)
        if not m:
            out.add(part)
            continue
        prefix, ranges = m.groups()
        for r in ranges.replace('+', ',').split(','):
            lo, _, hi = r.partition('-')
            for i in range(int(lo), int(hi or lo) + 1):
                out.add(prefix + str(i).zfill(len(lo)))
    return frozenset(out)


def load(run):
    jobs = {r['id']: (int(r['start']), int(r['end']), hosts(r['nodes']))
            for r in csv.DictReader(open(run + '/real.csv'))}
    submit, cores = {}, {}
    try:
        lines = open(run + '/model_jobs.txt').readlines()
    except OSError:
        lines = open(run + '/jobs.txt').readlines()
    for line in lines:
        if line.startswith('#'):
            continue
        w = line.split()
        submit[w[0]] = int(w[1])
        cores[w[0]] = next((int(w[i + 1]) for i in range(3, len(w) - 1) if w[i] == '-n'), 1)
    return jobs, submit, cores


def aggregates(jobs, submit, cores, all_cores):
    waits = [jobs[j][0] - submit[j] for j in jobs]
    runs = [max(jobs[j][1] - jobs[j][0], 1) for j in jobs]
    slowdown = sum((w + r) / r for w, r in zip(waits, runs)) / len(jobs)
    first = min(submit[j] for j in jobs)
    span = max(e for _, e, _ in jobs.values()) - first
    work = sum(cores[j] * (jobs[j][1] - jobs[j][0]) for j in jobs)
    return sum(waits) / len(jobs), slowdown, span, work / (all_cores * span)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    a, sub_a, cores_a = load(sys.argv[1])
    b, sub_b, cores_b = load(sys.argv[2])
    all_cores = int(sys.argv[3]) if len(sys.argv) > 3 else 128
    ids = sorted(set(a) & set(b), key=int)
    n = len(ids)
    deltas = sorted(abs(a[i][0] - b[i][0]) for i in ids)
    same = sum(a[i][2] == b[i][2] for i in ids)
    within = sum(d <= 5 for d in deltas)
    print(f"jobs {n}  same node set {100 * same / n:.1f} %  starts <= 5 s {100 * within / n:.1f} %"
          f"  |start difference| median / p90 / max {deltas[(n - 1) // 2]} / "
          f"{deltas[int(0.9 * n + 0.999) - 1]} / {deltas[-1]} s")
    names = ["mean wait", "mean slowdown", "makespan", "utilization"]
    for name, x, y in zip(names, aggregates(a, sub_a, cores_a, all_cores),
                          aggregates(b, sub_b, cores_b, all_cores)):
        print(f"  {name}: {x:.3f} / {y:.3f} ({100 * (y - x) / x:+.1f} %)")


if __name__ == '__main__':
    main()
