#pragma once
// Bid generation of AUCSCHED1-3 (thesis Fig. 4.5): for each window job, bid classes A
// (contiguous, aligned to a nodeset end), B (contiguous, inside a nodeset) and C (several
// neighbouring nodesets, only without --contiguous), plus optional Slurm bids, within
// MAXBIDSPERJOB and MAXBIDS.
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "model/cluster.hpp"
#include "policy/window/candidate.hpp"
#include "policy/window/preference.hpp"
#include "policy/window/window_job.hpp"
#include "sim/cluster_state.hpp"

namespace hs::window {

struct AuctionConfig {
  int max_bids_per_job = 15;
  int max_bids = 150;
  bool gres_ranges = false;   // AUCSCHED2/3: bids for every gres count in [min, max]
  bool per_switch = false;    // AUCSCHED3: nodesets under each leaf switch
  bool slurm_bids = false;    // AUCSCHED1: add the Slurm model's own choice per job
  PreferenceTable table = PreferenceTable::Aucsched1;
};

struct AuctionInput {
  const Cluster* cluster = nullptr;
  const ClusterState* state = nullptr;       // free resources now
  std::span<const WindowJob> window;         // priority order
  std::span<const Job* const> jobs;          // parallel to window
  std::span<const std::vector<char>> masks;  // per window job: nodes it may use
  const FreeArrays* free = nullptr;  // `state` as arrays when the caller has them (else built)
  std::uint64_t free_serial = 0;     // with a BidMemo: `state`'s FreeStateSerials number
};

// Bids for one job from the nodesets at gres level g: A bids, then B, then C, appended to
// `out` until `budget` bids were added. Returns how many were added. Exposed for tests.
int generate_job_bids(const Cluster& cluster, const FreeArrays& free, const WindowJob& job,
                      int slot, std::span<const char> mask, const AuctionConfig& config,
                      int budget, std::vector<Candidate>& out);

// Each job's bids on one free state, kept from one call to the next. Without AUCSCHED1's
// Slurm bids (whose state runs through the window) a job's bids depend only on the free
// state and the job, so a call on the same free state reuses them (slot renumbered); a call
// on another state starts afresh. Entries of jobs a call did not ask for are dropped.
// States are told apart by their FreeStateSerials number (equal numbers, equal states).
class BidMemo {
 public:
  void begin(std::uint64_t free_serial);  // forgets everything unless it is the memo's state
  const std::vector<Candidate>* find(JobRef job) const;
  void store(JobRef job, std::span<const Candidate> bids);
  void end();  // keeps only what this call found or stored

 private:
  std::uint64_t free_serial_ = 0;  // 0: none
  std::unordered_map<JobRef, std::vector<Candidate>> bids_, used_;
};

// With `memo` (ignored when config.slurm_bids), jobs known on this free state reuse their bids.
std::vector<Candidate> generate_auction_bids(const AuctionInput& input,
                                             const AuctionConfig& config,
                                             BidMemo* memo = nullptr);

}  // namespace hs::window
