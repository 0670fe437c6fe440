"""Python policies against the C++ policies of the same meaning, on an SWF trace: jobs/s of
each replay (wall time of the whole replay, policy calls included) and whether the schedules
are identical (schedule digest). A benchmark that prints numbers, not a test.

    PYTHONPATH=build/python:examples/python python3 bench/bench_python_policies.py \
        [--cluster sdsc-sp2] [--trace ../shared/data/traces/SDSC-SP2-1998-4.2-cln.swf.gz] [--jobs N]
"""
import argparse
import json
import os
import resource
import subprocess
import sys

import hetsched
from easy import Easy
from fcfs import Fcfs

HERE = os.path.dirname(os.path.abspath(__file__))
PAIRS = [("fcfs", Fcfs, "fifo+ff"), ("easy", Easy, "easy+ff")]


def commit():
    try:
        return subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def replay(cluster, workload, scheduler):
    out = hetsched.run(cluster, workload, scheduler)
    jobs = len(out["jobs"])
    return {"scheduler": out["scheduler"], "jobs": jobs, "seconds": round(out["wall_seconds"], 3),
            "jobs_per_s": round(jobs / max(out["wall_seconds"], 1e-9), 1), "digest": out["digest"],
            "checker_ok": out["ok"]}


def main():
    default_trace = os.path.join(HERE, "..", "..", "shared", "data", "traces", "SDSC-SP2-1998-4.2-cln.swf.gz")
    ap = argparse.ArgumentParser()
    ap.add_argument("--cluster", default="sdsc-sp2")
    ap.add_argument("--trace", default=default_trace)
    ap.add_argument("--only", choices=[p[0] for p in PAIRS])
    args = ap.parse_args()
    cluster = hetsched.load_cluster(args.cluster)
    workload = hetsched.load_workload(args.trace, cluster)
    results = []
    for name, policy, spec in PAIRS:
        if args.only and name != args.only:
            continue
        cxx = replay(cluster, workload, spec)
        py = replay(cluster, workload, policy())
        results.append({"policy": name, "cxx": cxx, "python": py, "identical": cxx["digest"] == py["digest"],
                        "python_slowdown": round(py["seconds"] / max(cxx["seconds"], 1e-9), 1)})
        print("%-5s C++ %-18s %8.1f jobs/s  Python %-22s %8.1f jobs/s  identical=%s" %
              (name, spec, cxx["jobs_per_s"], py["scheduler"], py["jobs_per_s"], results[-1]["identical"]),
              flush=True)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"commit": commit(), "cluster": args.cluster, "trace": os.path.basename(args.trace),
                      "python": sys.version.split()[0], "peak_rss_mb": round(peak_mb, 1),
                      "results": results}, indent=1))


if __name__ == "__main__":
    main()
