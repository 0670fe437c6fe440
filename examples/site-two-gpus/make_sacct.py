#!/usr/bin/env python3
"""Writes sacct.txt: a synthetic two-day accounting dump of this example site, in the format
`sacct -a -X --parsable2 --format=...` prints (docs/input-formats.md; ReqMem and TRES mem=
for the whole job, as Slurm 22.05 writes them). Deterministic (seed 7).
CPU jobs, GPU jobs asking for an A100, a V100 or any GPU, array tasks, jobs with -C and
--exclusive, a job cancelled while pending and timed-out jobs."""
import random
from datetime import datetime, timedelta

FIELDS = ("JobID|JobName|User|Account|Partition|QOS|Submit|Eligible|Start|End|Elapsed|"
          "Timelimit|State|NNodes|NCPUS|ReqCPUS|ReqMem|ReqTRES|AllocTRES|ReqNodes|NodeList|"
          "Constraints|Flags")
T0 = datetime(2026, 3, 2, 8, 0, 0)
rng = random.Random(7)


def stamp(seconds):
    return (T0 + timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S")


def hms(seconds):
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def limit_text(seconds):
    days, rest = divmod(seconds, 86400)
    return ("%d-" % days if days else "") + hms(rest)


def job(jobid, name, user, part, submit, run, limit, nodes, cpus, mem_gb, gpus=0, kind="",
        constraint="", state="COMPLETED"):
    gres = ""
    if gpus:
        gres = ",gres/gpu=%d" % gpus + (",gres/gpu:%s=%d" % (kind, gpus) if kind else "")
    tres = "billing=%d,cpu=%d%s,mem=%dG,node=%d" % (cpus, cpus, gres, mem_gb, nodes)
    if state.startswith("CANCELLED") and run == 0:
        return "|".join([jobid, name, user, "acct", part, "normal", stamp(submit), stamp(submit),
                         "None", stamp(submit + 600), "00:00:00", limit_text(limit), state,
                         str(nodes), str(cpus), str(cpus), "%dG" % mem_gb, tres, "", str(nodes),
                         "None assigned", constraint, ""])
    start = submit  # the site's own schedule is not replayed; only submit and run matter
    prefix = "cpu" if part == "cpu" else ("v100n" if kind == "v100" or constraint else "a100n")
    nodelist = prefix + ("01" if nodes == 1 else "[01-%02d]" % nodes)
    return "|".join([jobid, name, user, "acct", part, "normal", stamp(submit), stamp(submit),
                     stamp(start), stamp(start + run), hms(run), limit_text(limit), state,
                     str(nodes), str(cpus), str(cpus), "%dG" % mem_gb, tres, tres,
                     str(nodes),
                     nodelist, constraint, "SchedMain"])


def main():
    lines = [FIELDS]
    t = 0
    jobid = 5000
    users = ["u%02d" % i for i in range(1, 13)]
    while t < 2 * 86400:
        t += int(rng.expovariate(1 / 240.0))
        jobid += 1
        user = rng.choice(users)
        r = rng.random()
        limit = rng.choice([1800, 3600, 4 * 3600, 12 * 3600, 86400])
        run = max(60, int(limit * rng.uniform(0.1, 0.95)))
        state = "COMPLETED"
        if rng.random() < 0.05:
            run, state = limit, "TIMEOUT"
        if r < 0.5:  # CPU job, 1-8 nodes of 32 cores
            nodes = rng.choice([1, 1, 1, 2, 4, 8])
            cpus = nodes * 32 if rng.random() < 0.6 else rng.choice([4, 8, 16])
            nodes = max(1, (cpus + 31) // 32) if cpus < 32 else nodes
            lines.append(job(str(jobid), "sim", user, "cpu", t, run, limit, nodes, cpus,
                             4 * cpus, state=state))
        elif r < 0.6:  # an array of 4-8 small CPU tasks
            for k in range(rng.randint(4, 8)):
                lines.append(job("%d_%d" % (jobid, k), "sweep", user, "cpu", t, run // 2 + 60,
                                 limit, 1, 4, 8))
        elif r < 0.75:  # A100 jobs
            gpus = rng.choice([1, 2, 4])
            lines.append(job(str(jobid), "train", user, "gpu", t, run, min(limit, 86400), 1,
                             8 * gpus, 32 * gpus, gpus, "a100", state=state))
        elif r < 0.85:  # V100 jobs
            gpus = rng.choice([1, 2, 4])
            lines.append(job(str(jobid), "infer", user, "gpu", t, run, min(limit, 86400), 1,
                             4 * gpus, 16 * gpus, gpus, "v100", state=state))
        elif r < 0.95:  # any GPU, sometimes with a feature constraint
            gpus = rng.choice([1, 2])
            lines.append(job(str(jobid), "any", user, "gpu", t, run, min(limit, 86400), 1,
                             4 * gpus, 16 * gpus, gpus, constraint=rng.choice(["", "v100"]),
                             state=state))
        else:  # a multi-node A100 job, or one cancelled while pending
            if rng.random() < 0.3:
                lines.append(job(str(jobid), "gave-up", user, "gpu", t, 0, 3600, 2, 64, 256, 8,
                                 "a100", state="CANCELLED by 1001"))
            else:
                lines.append(job(str(jobid), "big-train", user, "gpu", t, run, min(limit, 86400),
                                 2, 64, 256, 8, "a100", state=state))
    with open("sacct.txt", "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
