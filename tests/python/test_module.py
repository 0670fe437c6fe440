"""The `hetsched` Python module: boundary types, building blocks, the driver, and the
examples/python policies against the C++ policies of the same meaning (ctest: python_module)."""
import os
import sys
import unittest

import hetsched

SOURCE = os.environ.get("HETSCHED_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SOURCE, "tests", "pypolicy", "policies"))

import faulty  # noqa: E402
from easy import Easy  # noqa: E402
from fcfs import Fcfs  # noqa: E402
from gpu_aware import GpuAwareFcfs  # noqa: E402
from weighted_fcfs import WeightedFcfs  # noqa: E402


class Inputs:
    def __init__(self, cluster, workload, seed=1):
        self.cluster = hetsched.load_cluster(cluster)
        self.workload = hetsched.load_workload(workload, self.cluster, seed)


ESP_S = Inputs("S", "esp-het")


class BoundaryTypes(unittest.TestCase):
    def test_cluster_and_workload(self):
        c = ESP_S.cluster
        self.assertEqual(c.node_count(), 128)
        self.assertEqual(c.gres_types, ["gpu"])
        self.assertEqual(c.node(0).cores, 8)
        self.assertEqual(c.node(0).gres[0], 2)
        self.assertGreater(len(ESP_S.workload), 100)
        self.assertGreater(ESP_S.workload.job(0).req.ntasks, 0)

    def test_states_refuse_bad_allocations_with_python_errors(self):
        c = ESP_S.cluster
        state = hetsched.ClusterState(c)
        alloc = hetsched.Allocation([hetsched.NodeShare(node=3, cores=8, gres=[2])])
        self.assertTrue(state.can_hold(alloc))
        state.take(alloc)
        self.assertEqual(state.node(3).cores, 0)
        with self.assertRaises(ValueError):
            state.take(alloc)
        with self.assertRaises(IndexError):
            state.take(hetsched.Allocation([hetsched.NodeShare(node=999, cores=1)]))
        state.release(c, alloc)
        with self.assertRaises(ValueError):
            state.release(c, alloc)  # more than the node has

    def test_request_checker(self):
        c, job = ESP_S.cluster, ESP_S.workload.job(0)
        units = hetsched.job_units(job)
        alloc = hetsched.place_units(c, hetsched.ClusterState(c), units)
        self.assertIsNone(hetsched.allocation_problem(c, job, alloc))
        short = hetsched.Allocation(alloc.shares[:-1] if len(alloc.shares) > 1 else
                                    [hetsched.NodeShare(node=0, cores=alloc.shares[0].cores - 1)])
        self.assertIsNotNone(hetsched.allocation_problem(c, job, short))


    def test_slurm_selection_and_allocator_orders(self):
        c, job = ESP_S.cluster, ESP_S.workload.job(0)
        idle = hetsched.ClusterState(c)
        alloc = hetsched.slurm_select(c, idle, job, hetsched.node_mask(c, job))
        self.assertIsNotNone(alloc)
        self.assertIsNone(hetsched.allocation_problem(c, job, alloc))
        full = idle.copy()
        full.take(hetsched.Allocation([hetsched.NodeShare(node=n, cores=8, gres=[2]) for n in range(c.node_count())]))
        self.assertIsNone(hetsched.slurm_select(c, full, job))
        units = hetsched.job_units(job)
        self.assertEqual(hetsched.allocator_order("ff", c, idle, units), list(range(c.node_count())))
        busy = idle.copy()
        busy.take(hetsched.Allocation([hetsched.NodeShare(node=5, cores=1, gres=[2])]))
        self.assertEqual(hetsched.allocator_order("balanced", c, busy, units, "gpu")[0], 5)
        self.assertEqual(hetsched.allocator_order("bf", c, busy, units)[0], 5)
        with self.assertRaises(ValueError):
            hetsched.allocator_order("weighted", c, idle, units)


class WindowSolver(unittest.TestCase):
    # Two nodes of 4 cores; job 0 wants 4 cores (both bids), jobs 1 and 2 want 2 cores each on
    # node 0. The optimum starts job 0 on node 1 beside jobs 1 and 2 on node 0: 3 + 2 + 2.
    def window(self):
        use = hetsched.NodeUse
        bids = [hetsched.Bid(0, 3.0, [use(0, [4])]), hetsched.Bid(0, 3.0, [use(1, [4])]),
                hetsched.Bid(1, 2.0, [use(0, [2])]), hetsched.Bid(2, 2.0, [use(0, [2])])]
        return hetsched.WindowProblem(jobs=3, nodes=2, dims=1, capacity=[4, 4], bids=bids)

    def test_every_solver_finds_the_checked_optimum(self):
        self.assertIn("lagrangian", hetsched.window_solvers())
        for name in ("lagrangian", "exhaustive"):
            answer = hetsched.solve_window(self.window(), solver=name)
            self.assertEqual(answer["objective"], 7.0, name)
            self.assertEqual(answer["bid_of_job"], [1, 2, 3], name)
            self.assertIsNone(answer["check"], name)
            self.assertGreaterEqual(answer["bound"], 7.0 - 1e-9, name)
        self.assertEqual(hetsched.solve_window(self.window(), solver="exhaustive")["status"], "optimal")

    def test_the_independent_check_refuses_bad_answers(self):
        w = self.window()
        self.assertIsNone(hetsched.check_window_answer(w, [1, 2, 3], 7.0))
        self.assertIsNotNone(hetsched.check_window_answer(w, [0, 2, -1], 5.0))  # node 0 over 4 cores
        self.assertIsNotNone(hetsched.check_window_answer(w, [1, 2, 3], 8.0))   # wrong objective
        self.assertIsNotNone(hetsched.check_window_answer(w, [2, -1, -1], 2.0))  # another job's bid

    def test_bad_windows_are_python_errors(self):
        with self.assertRaises(ValueError):
            hetsched.WindowProblem(jobs=1, nodes=2, dims=1, capacity=[4], bids=[])
        with self.assertRaises(Exception):
            hetsched.solve_window(self.window(), solver="no-such-solver")


class PolicyErrors(unittest.TestCase):
    def test_raise_names_policy_time_and_job(self):
        with self.assertRaises(hetsched.PolicyError) as ctx:
            hetsched.run(ESP_S.cluster, ESP_S.workload, faulty.Raises())
        text = str(ctx.exception)
        self.assertIn("py:Raises, pass at time 0", text)
        self.assertIn("first job", text)
        self.assertIn("ZeroDivisionError", text)

    def test_over_allocation_is_refused(self):
        sp2 = Inputs("sdsc-sp2", "esp")
        policy = faulty.OverAllocates()
        with self.assertRaises(hetsched.PolicyError) as ctx:
            hetsched.run(sp2.cluster, sp2.workload, policy)
        self.assertIn("allocation exceeds free resources", str(ctx.exception))
        self.assertIn("nothing of this pass was applied", str(ctx.exception))

    def test_checker_answers_inside_decide(self):
        faulty.ChecksItself.answers.clear()
        out = hetsched.run(ESP_S.cluster, ESP_S.workload, faulty.ChecksItself())
        self.assertTrue(out["ok"])
        self.assertTrue(faulty.ChecksItself.answers)
        self.assertIn("violates the request", faulty.ChecksItself.answers[0])


class SameScheduleAsCxx(unittest.TestCase):
    def assertSameSchedule(self, inputs, python_policy, spec):
        py = hetsched.run(inputs.cluster, inputs.workload, python_policy)
        cxx = hetsched.run(inputs.cluster, inputs.workload, spec)
        self.assertTrue(py["ok"], py["violations"][:3])
        self.assertEqual(len(py["jobs"]), len(cxx["jobs"]))
        for a, b in zip(py["jobs"], cxx["jobs"]):
            self.assertEqual((a["id"], a["status"], a["start"], a["nodes"]),
                             (b["id"], b["status"], b["start"], b["nodes"]))
        self.assertEqual(py["digest"], cxx["digest"])
        return cxx

    def test_fcfs_is_fifo_ff(self):
        self.assertSameSchedule(ESP_S, Fcfs(), "fifo+ff")

    def test_easy_is_easy_ff(self):
        easy = self.assertSameSchedule(ESP_S, Easy(), "easy+ff")
        fifo = hetsched.run(ESP_S.cluster, ESP_S.workload, "fifo+ff")
        self.assertNotEqual(easy["digest"], fifo["digest"])  # backfilling did something

    def test_easy_on_one_core_nodes(self):
        self.assertSameSchedule(Inputs("sdsc-sp2", "esp", seed=2), Easy(), "easy+ff")

    def test_gpu_aware_is_fifo_balanced(self):
        eurora = Inputs("eurora", "eurora:days=1")
        balanced = self.assertSameSchedule(eurora, GpuAwareFcfs(), "fifo+balanced:critical-types=gpu")
        first_fit = hetsched.run(eurora.cluster, eurora.workload, "fifo+ff")
        self.assertNotEqual(balanced["digest"], first_fit["digest"])

    def test_weighted_allocators_kept_by_hetsched(self):
        eurora = Inputs("eurora", "eurora:days=1")
        weighted = self.assertSameSchedule(eurora, WeightedFcfs("weighted"), "fifo+weighted")
        self.assertSameSchedule(eurora, WeightedFcfs("pweighted", "gpu"), "fifo+pweighted:critical-types=gpu")
        first_fit = hetsched.run(eurora.cluster, eurora.workload, "fifo+ff")
        self.assertNotEqual(weighted["digest"], first_fit["digest"])
        with self.assertRaises(Exception):
            hetsched.Allocator("no-such-allocator")


if __name__ == "__main__":
    unittest.main()
