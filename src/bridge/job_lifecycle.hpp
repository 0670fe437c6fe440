#pragma once
// The life of a job the bridge manages, in one place.
//
//   Queued ──start──> (Pinned) ──release──> Released ──Slurm starts it──> Running ──> Ended
//     ^                   │                     │
//     │                   │ cut short           │ not running within the grace, or its
//     │                   v                     │ planned nodes taken or gone
//     └───restore─── Interrupted <──────────────┘ (re-hold first)
//   Queued ──never runnable──> Refused (stays held; the reason is written into Slurm)
//
// A job its owner holds once submitted (`scontrol hold`) is marked in its Comment by
// job_submit.lua (kUserHoldComment): the bridge leaves it held, restoring its request first
// if it was pinned, until the owner's release, which the script turns back into a bridge hold.
//
// A running job that Slurm requeues (its node failed, or `scontrol requeue`) is pending and
// pinned again, so it reads as Released; its grace ran out long ago, so it is held again
// with its request restored and planned anew (tests/live/bridge_faults.sh).
//
// The phase is read from Slurm every cycle (job state, hold, and the bridge's record in the
// job's AdminComment, job_marker.hpp), never kept only in memory, so a restarted bridge
// resumes where the previous one stopped. Each transition is a list of scontrol commands
// (Steps) built here and run at the edge (SlurmBridge); a step that fails leaves the job in
// a phase that the next cycle repairs.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bridge/job_marker.hpp"
#include "bridge/scontrol_jobs.hpp"

namespace hs::bridge {

enum class Phase {
  Unmanaged,    // not the bridge's: another partition, released or held by its user, held by an operator or by Slurm
  Queued,       // held for the bridge with its own request: the scheduler decides its start
  Interrupted,  // held with its request still pinned: a start or re-hold was cut short
  Released,     // pinned and released: Slurm should start it on the chosen nodes
  Running,      // running, completing or suspended: holds what Slurm gave it
  Ended,        // completed, failed, cancelled, timed out, ...
};

const char* phase_name(Phase phase);

struct Observation {
  Phase phase = Phase::Unmanaged;
  std::optional<JobMarker> marker;
};

// Whether a job submitted to `partitions` ("lab" or "lab,debug": Slurm takes the first that
// can run it) may run in `partition` ("" = any).
bool in_partition(const std::string& partitions, const std::string& partition);
// Reads a job's phase from its listing. `partition` empty: every partition is managed.
Observation observe(const LiveJob& live, const std::string& partition);
// Shadow mode holds nothing: every pending job of the partition is queued for prediction.
Observation observe_shadow(const LiveJob& live, const std::string& partition);

// One scontrol command and whether the transition must stop when it fails.
struct Step {
  std::vector<std::string> argv;
  bool required = true;
};

// A released job outranks every job Slurm's own scheduler might otherwise put first on its
// nodes between the release and the start: the highest value `scontrol update Priority=`
// accepts (priority/basic gives new jobs 0xFFFF0000 minus a count, above 4e9, so a lower
// value let a job of Slurm's own queue block the partition's main pass).
constexpr std::int64_t kReleasedPriority = 4'294'967'293;

// `target` is what scontrol names the job by (LiveJob::target()).
// Queued -> Released: record the original request, pin, release, raise the priority.
std::vector<Step> start_steps(const std::string& target, const std::vector<std::string>& pinning,
                              const OriginalRequest& original, Time now);
// Interrupted -> Queued: put the original request back and mark the job held by the bridge.
// A job an operator held (JobHeldAdmin) after its release gets its request back and the
// bridge's record cleared: it stays the operator's.
std::vector<Step> restore_steps(const LiveJob& live, const OriginalRequest& original, Time now);
// Released -> Queued: hold (as the user, so a user or the bridge may release it), then restore.
std::vector<Step> rehold_steps(const std::string& target, const OriginalRequest& original, Time now);
// Queued -> Refused: the reason into AdminComment, and into Comment (what squeue shows
// with %k) when the user left it empty or it holds the malformed hetsched: directive that
// the refusal names.
std::vector<Step> refuse_steps(const LiveJob& live, const std::string& reason, Time now);
// Refused -> Queued after the user changed the request: the bridge's record says held again
// and its Comment is cleared.
std::vector<Step> accept_steps(const LiveJob& live, Time now);
// An array's record holds its pending tasks as one job, started one task per cycle (by its
// first task's name). The first update naming another task makes Slurm split that task into a
// job of its own; marking tasks `tasks` held by the bridge does that, so that the next cycle
// sees them as queued jobs and may start several.
std::vector<Step> split_task_steps(std::int64_t array_id, const std::vector<std::int64_t>& tasks, Time now);
// A held job that asks an advance reservation, or of a kind the bridge cannot pin
// (job_eligibility.hpp), is Slurm's to place: released unpinned.
std::vector<Step> hand_over_steps(const std::string& target);

// The Comment the bridge writes on a refused job:
//   "[hetsched] never runnable: REASON" [" | was: " + the user's own comment]
// so that squeue shows the reason and nothing of the user's is lost.
constexpr const char* kRefusalCommentPrefix = "[hetsched] ";
constexpr const char* kRefusalComment = "[hetsched] never runnable: ";
constexpr const char* kUserCommentMark = " | was: ";
// What job_submit.lua puts before the user's comment (as above) when the job's owner holds
// it: the one field a user may change that the bridge reads (AdminComment is an operator's).
constexpr const char* kUserHoldComment = "[hetsched] held by its user";
bool held_by_its_owner(const LiveJob& live);
// The user's own comment inside a Comment the bridge may have wrapped.
std::string user_comment(const std::string& comment);

}  // namespace hs::bridge
