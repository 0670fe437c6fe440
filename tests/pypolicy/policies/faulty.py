"""Policies that misbehave, for the tests of the py: boundary."""
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
