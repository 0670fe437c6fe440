#pragma once
// Whether Slurm would start a queued job of the bridge if the bridge released it now. Slurm
// re-evaluates a held job's dependencies late (its listing keeps "(unfulfilled)" for tens of
// seconds after the job it waits for has ended) and never its array throttle, so the bridge
// judges them from the listing itself: otherwise a released job would sit in Slurm's queue on
// resources the plan kept for it, and be held again after the start grace, over and over.
//
// Dependencies follow Slurm 22.05's rules (`sbatch --dependency`): after (the job started or
// ended), afterany (ended), afterok (ended COMPLETED), afternotok (ended otherwise), each with
// an optional "+minutes" delay, on plain jobs, array tasks ("12_3") and whole arrays
// ("12_*"); "," joins conditions that must all hold, "?" conditions of which one must. Once
// Slurm has marked a condition "(failed)" or "(fulfilled)", its mark decides: it outlives the
// named job's record. A job no longer listed, never seen ended and not marked counts as
// satisfying, as in Slurm (it was purged).
// Other kinds (singleton, aftercorr, afterburstbuffer, expand) are Slurm's to decide.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bridge/scontrol_jobs.hpp"
#include "model/types.hpp"

namespace hs::bridge {

enum class Eligibility {
  Now,        // Slurm would start it once released, resources permitting
  Waits,      // not yet: a dependency, a begin time or the array's throttle
  Never,      // a dependency that can no longer be satisfied
  SlurmOnly,  // a kind of job the bridge cannot pin; Slurm's own scheduler places it
};

struct EligibilityVerdict {
  Eligibility kind = Eligibility::Now;
  std::string why;  // empty for Now
};

// What the verdicts need to know of other jobs: the current listing, and the final state of
// every job seen ending (the listing drops ended jobs after MinJobAge).
class JobDirectory {
 public:
  struct Facts {
    std::int64_t id = 0;
    std::int64_t array_job_id = 0;
    std::string array_tasks;
    std::string state;
    std::int64_t start_epoch = -1;
    std::int64_t end_epoch = -1;
    bool pending = false;
    bool held = false;
    bool ended = false;
  };

  // Replaces the listing; ended jobs in it are remembered from then on.
  void read(const std::vector<LiveJob>& listing);
  // The records of `id`: the job itself, or every record of array `id`; empty when gone.
  std::vector<const Facts*> records_of(std::int64_t id) const;
  // The record of one array task, or of the array record still holding it; null when gone.
  const Facts* task(std::int64_t array_id, std::int64_t task) const;
  // Running or released (pending, not held) records of array `array_id`.
  int active_tasks(std::int64_t array_id) const;
  // Held records of array `array_id` that hold one task each (split off its record).
  int held_split_tasks(std::int64_t array_id) const;

 private:
  static constexpr std::size_t kEndedKept = 200'000;  // memory bound; forgotten ones count as purged
  std::map<std::int64_t, Facts> listed_;
  std::map<std::int64_t, Facts> ended_;  // kept across listings
  std::multimap<std::int64_t, std::int64_t> array_members_;  // array id -> listed or ended ids
  void add_member(const Facts& f);
};

// Why a task of array `array_id` waits: `throttle` (%N) of its tasks run or are in flight.
std::string throttle_reason(std::int64_t array_id, std::int32_t throttle);

// The first `count` tasks an ArrayTaskId text holds ("4-9%2": 4, 5, ...), in the order printed.
std::vector<std::int64_t> first_array_tasks(std::string_view tasks, std::size_t count);

EligibilityVerdict judge_eligibility(const LiveJob& job, const JobDirectory& jobs, Time now);

}  // namespace hs::bridge
