"""A GPU-aware allocator under FCFS: every job is placed first on the nodes that have no GPU
free (in the 1-D order), and only then on nodes with free GPUs, so CPU-only jobs leave GPU
nodes to the jobs that need them. On a cluster whose only critical resource is the GPU this
is the C++ `balanced` allocator of Netti et al.: the same schedule as `fifo+balanced`.

    hetsched simulate --scheduler py:examples/python/gpu_aware.py:GpuAwareFcfs
"""
import hetsched
from job_book import JobBook


class GpuAwareFcfs:
    supports = hetsched.RequestSupport(node_mask=True)

    def __init__(self, gres="gpu"):
        self.gres = gres
        self.book = JobBook()

    def node_order(self, cluster, free):
        gpu = cluster.gres_index(self.gres)
        if gpu < 0:
            return None  # no GPUs here: the 1-D order
        return sorted(range(cluster.node_count()), key=lambda n: free.node(n).gres[gpu] > 0)

    def decide(self, view, events):
        self.book.follow(events)
        decisions = hetsched.Decisions()
        free = view.free.copy()
        for job, units, mask, _ in self.book.waiting(view, decisions):
            order = self.node_order(view.cluster, free)
            alloc = hetsched.place_units(view.cluster, free, units, order, mask)
            if alloc is None:
                break
            free.take(alloc)
            decisions.start(job, alloc)
        return decisions
