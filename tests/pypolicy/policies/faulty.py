"""Policies that misbehave, for the tests of the py: boundary."""
import time

import hetsched


class Raises:
    """Raises once jobs are waiting."""

    def decide(self, view, events):
        if view.pending:
            return 1 // 0
        return None


class OverAllocates:
    """Places every waiting job as if the cluster were idle: sooner or later two jobs share
    a node's only core."""

    def __init__(self):
        self.started = 0

    def decide(self, view, events):
        decisions = hetsched.Decisions()
        idle = hetsched.ClusterState(view.cluster)
        for job in view.pending:
            units = hetsched.job_units(view.job(job))
            alloc = hetsched.place_units(view.cluster, idle, units)
            if alloc is not None:
                decisions.start(job, alloc)
        self.started += len(decisions.starts)
        return decisions


class WrongType:
    def decide(self, view, events):
        return [1, 2, 3]


class RejectsAll:
    """Rejects every job with a reason built from its options (they arrive as strings)."""

    def __init__(self, label="none", repeat="1"):
        self.reason = label * int(repeat)

    def decide(self, view, events):
        decisions = hetsched.Decisions()
        for job in view.pending:
            decisions.reject(job, self.reason)
        return decisions


class ChecksItself:
    """Asks the checker about a bad decision, then starts nothing; the answers are kept."""

    answers = []

    def decide(self, view, events):
        bad = hetsched.Decisions()
        for job in view.pending:
            bad.start(job, hetsched.Allocation([hetsched.NodeShare(node=0, cores=10**6)]))
        ChecksItself.answers.append(hetsched.decision_problem(view, bad))
        decisions = hetsched.Decisions()
        for job in view.pending:
            decisions.reject(job, "checked")
        return decisions


class RaisesInItsFirstPass:
    """Knows a job only from its Submitted event; raises in its first pass, then starts the
    jobs it heard of, first fit."""

    def __init__(self):
        self.heard = []
        self.passes = 0

    def fail_first_pass(self):
        raise RuntimeError("the policy's first pass fails")

    def decide(self, view, events):
        self.passes += 1
        if self.passes == 1:
            self.fail_first_pass()
        for event in events:
            if event.kind == hetsched.EventKind.Submitted and event.job not in self.heard:
                self.heard.append(event.job)
        decisions = hetsched.Decisions()
        free = view.free.copy()
        for job in view.pending:
            if job not in self.heard:
                continue
            alloc = hetsched.place_units(view.cluster, free, hetsched.job_units(view.job(job)))
            if alloc is not None:
                free.take(alloc)
                decisions.start(job, alloc)
        return decisions


class SpinsInItsFirstPass(RaisesInItsFirstPass):
    """Spins in its first pass and swallows the first cut-off, as a policy stuck in a loop
    with a bare `except:` would; later passes as RaisesInItsFirstPass. It
    gives up after 20 s, so that a test of the cut-off fails rather than hangs."""

    def fail_first_pass(self):
        give_up = time.monotonic() + 20
        try:
            while time.monotonic() < give_up:
                pass
        except hetsched.PassCutOff:
            pass
        while time.monotonic() < give_up:
            pass
        raise RuntimeError("spun for 20 s without being cut off")


class SleepsInItsFirstPass(RaisesInItsFirstPass):
    """Sleeps 60 s in its first pass, as a policy waiting for an answer that never comes
    would; later passes as RaisesInItsFirstPass."""

    def fail_first_pass(self):
        time.sleep(60)
        raise RuntimeError("slept 60 s without being cut off")


class NamesStrangers:
    """Rejects a job that does not exist and starts one twice, beside a good start."""

    def decide(self, view, events):
        decisions = hetsched.Decisions()
        decisions.reject(10**6, "no such job")
        if view.pending:
            job = view.pending[0]
            alloc = hetsched.place_units(view.cluster, view.free, hetsched.job_units(view.job(job)))
            if alloc is not None:
                decisions.start(job, alloc)
                decisions.start(job, alloc)
                decisions.reject(job, "rejected after its start")
        return decisions
