"""FCFS with one of Netti et al.'s allocators kept by hetsched (weighted, pweighted, ...):
the allocator sees the whole queue once per pass (weighted sets its resource weights from
it) and every real attempt to start a job (pweighted's priority counters). With the same
allocator this is the C++ `fifo+<allocator>` schedule, job for job.

    hetsched simulate --scheduler py:examples/python/weighted_fcfs.py:WeightedFcfs:allocator=pweighted
"""
import hetsched
from job_book import JobBook


class WeightedFcfs:
    supports = hetsched.RequestSupport(node_mask=True)

    def __init__(self, allocator="weighted", critical_types="gpu,mic"):
        self.allocator = hetsched.Allocator(allocator, critical_types)
        self.book = JobBook()

    def decide(self, view, events):
        self.book.follow(events)
        decisions = hetsched.Decisions()
        free = view.free.copy()
        waiting = list(self.book.waiting(view, decisions))
        self.allocator.begin_pass(view.cluster, free, [(job, units, predicted) for job, units, _, predicted in waiting])
        for job, units, mask, _ in waiting:
            alloc = self.allocator.allocate(view.cluster, free, units, mask)
            if alloc is None:
                break
            free.take(alloc)
            decisions.start(job, alloc)
        return decisions
