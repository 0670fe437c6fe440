"""FCFS: jobs in submit order, each placed first fit over the nodes' 1-D order; the first job
that cannot start blocks every later one. The same schedule as the C++ `fifo+ff`.

    hetsched simulate --scheduler py:examples/python/fcfs.py:Fcfs
"""
import hetsched
from job_book import JobBook


class Fcfs:
    supports = hetsched.RequestSupport(node_mask=True)  # honours -C and -x via the node mask

    def __init__(self):
        self.book = JobBook()

    def decide(self, view, events):
        self.book.follow(events)
        decisions = hetsched.Decisions()
        free = view.free.copy()
        for job, units, mask, _ in self.book.waiting(view, decisions):
            alloc = hetsched.place_units(view.cluster, free, units, None, mask)
            if alloc is None:
                break
            free.take(alloc)
            decisions.start(job, alloc)
        return decisions
