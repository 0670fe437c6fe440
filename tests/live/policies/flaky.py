"""A policy that misbehaves on purpose, for the live bridge matrix.

While the file `flag` exists, every pass raises (a bug, a missing input); while the file
`spin` exists, every pass loops until that file is gone (a policy stuck). Otherwise it starts
waiting jobs in submit order; with `idle_placement=1` it places each one as if the cluster
were idle (first fit), so it keeps proposing nodes other jobs hold, which the bridge's own
check must turn down while they are busy.
"""
import os

import hetsched


class Flaky:
    def __init__(self, flag, idle_placement="0", spin=""):
        self.flag = flag
        self.spin = spin
        self.idle_placement = idle_placement == "1"

    def decide(self, view, events):
        while self.spin and os.path.exists(self.spin):
            pass
        if os.path.exists(self.flag):
            raise RuntimeError("flag file " + self.flag + " exists")
        decisions = hetsched.Decisions()
        free = view.free.copy()
        idle = hetsched.ClusterState(view.cluster)
        for job in view.pending:
            units = hetsched.job_units(view.job(job))
            alloc = hetsched.place_units(view.cluster, idle if self.idle_placement else free, units)
            if alloc is None:
                continue
            if free.can_hold(alloc):
                free.take(alloc)
            decisions.start(job, alloc)
        return decisions
