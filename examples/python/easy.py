"""EASY backfill: jobs start in submit order until one cannot; that head job reserves the
earliest time its units fit once running jobs end at start + walltime (the shadow time),
on the nodes first fit picks then. A later job may start now if it ends by the shadow time
by its walltime, or if it leaves the head's reserved resources untouched. Placement is
first fit over the 1-D order. The same schedule as the C++ `easy+ff` (walltime predictor).

    hetsched simulate --scheduler py:examples/python/easy.py:Easy
"""
import hetsched
from job_book import JobBook

NO_TIME = hetsched.NO_TIME


class Easy:
    supports = hetsched.RequestSupport(node_mask=True)

    def __init__(self):
        self.book = JobBook()

    def decide(self, view, events):
        self.book.follow(events)
        pass_ = _Pass(view, self.book)
        queue = pass_.queue
        i = 0
        while i < len(queue) and pass_.try_start(queue[i]):
            i += 1
        if i < len(queue):
            pass_.reserve(queue[i])
            for entry in queue[i + 1:]:
                pass_.backfill(entry)
        return pass_.decisions


class _Pass:
    def __init__(self, view, book):
        self.view = view
        self.cluster = view.cluster
        self.decisions = hetsched.Decisions()
        self.queue = list(book.waiting(view, self.decisions))
        self.free = view.free.copy()
        self.started = []  # (expected end, allocation) of jobs started in this pass
        self.shadow = NO_TIME
        self.spare = None  # free at the shadow time minus the head job's share

    def place(self, entry, state):
        _, units, mask, _ = entry
        return hetsched.place_units(self.cluster, state, units, None, mask)

    def commit(self, entry, alloc):
        job, _, _, predicted = entry
        self.free.take(alloc)
        self.decisions.start(job, alloc)
        self.started.append((self.view.now + predicted, alloc))

    def try_start(self, entry):
        alloc = self.place(entry, self.free)
        if alloc is None:
            return False
        self.commit(entry, alloc)
        return True

    def expected_end(self, running):
        predicted_end = running.start + max(1, self.view.job(running.job).req.time_limit)
        if predicted_end > self.view.now:
            return predicted_end
        return max(running.limit_end, self.view.now + 1)

    def reserve(self, head):
        releases = [(self.expected_end(r), r.alloc) for r in self.view.running] + self.started
        releases.sort(key=lambda release: release[0])  # stable: start order on ties
        future = self.free.copy()
        k = 0
        while k < len(releases):
            t = releases[k][0]
            while k < len(releases) and releases[k][0] == t:
                future.release(self.cluster, releases[k][1])
                k += 1
            alloc = self.place(head, future)
            if alloc is not None:
                future.take(alloc)
                self.shadow, self.spare = t, future
                return

    def backfill(self, entry):
        alloc = self.place(entry, self.free)
        if alloc is None:
            return
        ends_in_time = self.shadow == NO_TIME or self.view.now + entry[3] <= self.shadow
        if not ends_in_time and not self.spare.can_hold(alloc):
            alloc = self.place(entry, hetsched.lesser_state(self.free, self.spare))
            if alloc is None:
                return  # held back by the reservation
        if not ends_in_time:
            self.spare.take(alloc)
        self.commit(entry, alloc)
