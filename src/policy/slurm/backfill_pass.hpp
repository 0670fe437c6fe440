#pragma once
// One pass of Slurm's sched/backfill (backfill.c, _attempt_backfill) as modelled here:
// pending jobs in queue order, each either started now (if it fits without touching any
// reservation), or given a reservation of whole nodes at its earliest start, found by
// releasing running jobs in the order of their time-limit ends in growing groups
// (select/cons_tres will-run test). `reserve_depth` limits reservations per partition:
// 0 = every tested job (conservative, Slurm's default), 1 = EASY.
#include <deque>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "policy/slurm/node_space.hpp"
#include "policy/slurm/pass_state.hpp"

namespace hs::slurm {

struct BackfillConfig {
  Time window = 1440 * 60;     // bf_window
  Time resolution = 60;        // bf_resolution
  std::size_t max_job_test = 500;  // bf_max_job_test
  int reserve_depth = 0;       // bf_job_part_count_reserve (0 = unlimited)
  std::int64_t epoch = 0;      // Unix time of t = 0: Slurm rounds the wall clock
  Time kill_wait = 30;         // KillWait: a running job past its limit is expected to end
                               // this long after it (cons_common's _guess_job_end)
  bool ties_by_job_id = false;  // will-run: jobs ending together in job id order (else in
                                // the order they started)
};

struct PlannedStart {
  JobRef job;
  Time start;                  // exact (unrounded) planned start
  std::vector<NodeIndex> nodes;
};

struct BackfillStats {
  std::size_t tested = 0;
  std::size_t started = 0;
  std::size_t reserved = 0;
  bool stopped_early = false;  // nothing later in the queue could have started
};

class BackfillPass {
 public:
  explicit BackfillPass(const BackfillConfig& config) : config_(config) {}
  // Once per replay, before the first run: what the passes need from the cluster.
  void attach(const Cluster& cluster);
  BackfillStats run(PassState& state, const std::vector<JobRef>& order,
                    const PartitionIndex& partitions, std::span<const RunningJob> running);
  // Reservations made by the last run, in the order they were made.
  const std::vector<PlannedStart>& plan() const { return plan_; }
  const BackfillConfig& config() const { return config_; }

 private:
  struct Running {
    Time end;  // start + time limit
    JobRef job;
    const Allocation* alloc;
  };
  // The will-run test's order: by end; jobs ending together in job id order with
  // ties_by_job_id, else as they came (the sort is stable).
  bool ends_before(const Running& a, const Running& b) const {
    return a.end != b.end ? a.end < b.end : config_.ties_by_job_id && a.job < b.job;
  }
  void collect_running(const PassState& s, std::span<const RunningJob> running);
  void collect_candidates(const PassState& s, const std::vector<JobRef>& order);
  bool could_start_now(const PassState& s, std::size_t k) const;
  bool nothing_more_can_start(const PassState& s, std::size_t next);
  void test_job(PassState& s, JobRef j, const PartitionIndex& partitions, BackfillStats& st);
  std::optional<Allocation> select_on(const PassState& s, const ClusterState& state, JobRef j);
  // Cheap necessary condition for a selection to succeed: enough free CPUs on candidate
  // nodes that could host the job at all, enough such nodes, and enough CPUs on the
  // max_nodes of them with the most free cores (a node's offer never exceeds its free
  // cores). Kept up to date while running jobs are released so the full selection runs
  // only when it may succeed.
  struct Capacity {
    std::int64_t cpus = 0;
    std::int32_t nodes = 0;
    std::vector<std::int32_t> by_cores;  // such nodes per count of free cores
  };
  struct Shape {  // what the quick capacity test needs to know about the job under test
    std::int32_t per_node = 1, cpus = 1, nodes = 1, max_nodes = 1;
    GresCounts gres{};
    bool any_gres = false;
  };
  static Shape shape_of(const PassState& s, JobRef j);
  bool could_host(const NodeFree& f) const;
  void count_node(Capacity& c, const NodeFree& f, int sign) const;
  Capacity capacity(const ClusterState& state) const;
  Capacity capacity_now(const PassState& s);
  bool may_fit(const Capacity& c) const;
  void release(ClusterState& future, const Allocation& alloc, Capacity& c) const;
  std::optional<Time> earliest_future_start(const PassState& s, JobRef j, Capacity c, Time cutoff,
                                            std::optional<Allocation>& alloc);
  std::optional<Time> release_until_fit(const PassState& s, JobRef j, Capacity c, Time cutoff,
                                        std::optional<Allocation>& alloc);
  void note_test(const PassState& s, const ClusterState& state, JobRef j);
  void start_now(PassState& s, JobRef j, Allocation alloc, BackfillStats& st);
  void add_reservation(const PassState& s, JobRef j, Time start, const Allocation& alloc);
  std::pair<Time, Time> reserved_interval(Time start, Time limit) const;
  Time round_down(Time t, Time step) const;  // on the wall clock (config_.epoch)
  void load_mask(int node_count);  // mask() = candidates_ as one char per node

  BackfillConfig config_;
  NodeSpace space_;
  std::vector<Running> running_;         // ascending end
  std::deque<Allocation> owned_;         // allocations of jobs started in this call
  std::vector<JobRef> jobs_;             // the jobs this pass tests
  std::vector<Time> first_reserved_;     // per node: earliest reservation start, or kNoTime
  std::vector<NodeIndex> reserved_list_;  // nodes with a reservation in this pass
  std::int64_t unreserved_free_ = 0;     // free cores on nodes without any reservation
  std::vector<std::size_t> reservations_;  // per partition
  NodeBits candidates_, reserved_nodes_;
  // candidates_ as one char per node (load_mask), from a few recent candidate sets: jobs
  // of one pass switch between a few of them.
  struct MaskEntry {
    std::vector<std::uint64_t> words;
    std::vector<char> mask;
  };
  static constexpr std::size_t kMasks = 4;
  std::vector<MaskEntry> masks_;
  std::size_t next_mask_ = 0;
  std::size_t mask_at_ = 0;  // the entry load_mask chose last
  std::span<const char> mask() const { return masks_[mask_at_].mask; }
  // Capacities on the free nodes per job shape and candidate set; cleared whenever the
  // free nodes change.
  struct CapacityMemo {
    std::int32_t per_node;
    GresCounts gres;
    bool any_gres;
    std::vector<std::uint64_t> words;  // the candidates
    Capacity capacity;
  };
  static constexpr std::size_t kMemoSize = 16;
  std::vector<CapacityMemo> memo_;
  std::span<const NodeIndex> part_nodes_;  // the partition of the job under test
  // *s.free with running jobs released for a will-run test. Copied at a pass's first test,
  // then kept equal to *s.free between tests (the releases are taken back, starts taken
  // too): copying the whole state per test cost more than the test on a large machine.
  std::optional<ClusterState> future_;
  bool future_synced_ = false;
  std::vector<const Allocation*> released_;  // by the running test, in order
  std::vector<PlannedStart> plan_;
  Shape shape_;
  std::int32_t max_cores_ = 0;           // most cores of any node (attach)
  std::size_t possible_ = 0;             // first job that may still start now
  bool changed_ = true;
};

}  // namespace hs::slurm
