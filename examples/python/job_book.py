"""What a policy learns about each waiting job at first sight, shared by the examples.

A job becomes units (Netti et al.: k identical pieces of cores, gres and memory) and a node
mask (its partition, -C, -x). A job that cannot be expressed as units, or whose units do not
fit even the idle cluster, is rejected once with the reason: the C++ heuristic schedulers do
the same, so the schedules can be compared job for job. A policy hands each pass's events to
`follow` first.
"""
import hetsched


_UNSEEN = object()


class JobBook:
    def __init__(self):
        self._known = {}  # job ref -> (units, mask, predicted duration), or None when rejected
        self._idle = None

    def follow(self, events):
        """Takes in the pass's events. A replay submits each job once and keeps its nodes, but
        under the bridge a job may be submitted again with a changed request, leave the queue,
        or see its partition's nodes change: what was learnt of it is then learnt afresh."""
        for event in events:
            if event.kind == hetsched.EventKind.NodesChanged:
                self._known.clear()
                self._idle = None
            elif event.kind in (hetsched.EventKind.Submitted, hetsched.EventKind.Withdrawn):
                self._known.pop(event.job, None)

    def waiting(self, view, decisions):
        """The pending jobs the policy may start, in submit order, as (job, units, mask,
        predicted); a generator, so a policy that stops early looks at no more jobs."""
        if self._idle is None:
            self._idle = hetsched.ClusterState(view.cluster)
        known = self._known
        for job in view.pending:
            entry = known.get(job, _UNSEEN)
            if entry is _UNSEEN:
                entry = known[job] = self._first_sight(view, job, decisions)
            if entry is not None:
                yield (job,) + entry

    def _first_sight(self, view, job, decisions):
        info = view.job(job)
        try:
            units = hetsched.job_units(info)
        except ValueError as why:
            decisions.reject(job, "not expressible as units: %s" % why)
            return None
        mask = hetsched.node_mask(view.cluster, info)
        if not hetsched.units_feasible(view.cluster, self._idle, units, mask):
            decisions.reject(job, "its units cannot be placed even on the idle cluster")
            return None
        predicted = max(1, info.req.time_limit)  # the user's walltime
        return units, mask, predicted
