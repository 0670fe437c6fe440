#pragma once
// Reads the job table of a live Slurm as `scontrol show job --details --oneliner` prints it
// (one job per line, `Key=Value` tokens, then per allocated node group
// `Nodes=... CPU_IDs=... Mem=... GRES=...`). Only the fields the bridge needs are kept.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/types.hpp"

namespace hs::bridge {

// Cores and generic resources a running job holds on a group of nodes.
struct NodeGroupShare {
  std::vector<std::string> nodes;  // expanded host list
  std::int32_t cores = 0;          // per node (the CPU_IDs count)
  std::vector<std::pair<std::string, std::int32_t>> gres;  // per node, e.g. {"gpu", 1}, {"gpu:a100", 2}
  std::int64_t mem_mb = 0;         // per node (Mem=; 0 unless Slurm counts memory)
};

struct LiveJob {
  std::int64_t id = 0;
  std::string state;      // PENDING, RUNNING, COMPLETING, ...
  std::string reason;     // JobHeldUser, Resources, None, ...
  std::string partition;
  std::string comment;
  std::string admin_comment;   // the bridge's record (job_marker.hpp), or a site's text
  std::string reservation;     // "" when the job asks none
  std::string licenses;        // Licenses (-L), e.g. "matlab:2"; "" when none
  std::int64_t priority = -1;  // 0: held
  std::int64_t submit_epoch = 0;
  std::int64_t start_epoch = -1;  // -1: not started (StartTime Unknown or in the future)
  Time time_limit = kNoTime;      // seconds; kNoTime = UNLIMITED
  std::int32_t nodes_min = 0;
  std::int32_t nodes_max = 0;     // 0: no upper bound given
  std::int32_t cpus = 0;          // NumCPUs: total cores
  std::int32_t cpus_per_task = 1;
  std::int32_t ntasks_per_node = 0;
  std::int32_t num_tasks = 0;
  std::int32_t min_cpus_node = 0;
  // Request fields as printed, to restore them after pinning (job_marker.hpp).
  std::string num_nodes_text;
  std::string req_nodes_text;      // "" for (null)
  std::string tres_per_node_text;  // "" when absent
  bool contiguous = false;
  std::vector<std::pair<std::string, std::int32_t>> gres_per_node;  // from TresPerNode; typed: "gpu:a100"
  std::int64_t min_mem_per_node_mb = -1;  // MinMemoryNode (0 = a whole node); -1 = not given
  std::int64_t min_mem_per_cpu_mb = -1;   // MinMemoryCPU; -1 = not given
  std::vector<std::string> req_nodes;  // ReqNodeList, expanded
  std::vector<NodeGroupShare> shares;  // running jobs only
  // What decides whether Slurm would start the job if released (job_eligibility.hpp).
  std::int64_t array_job_id = 0;     // ArrayJobId; 0: not part of an array
  std::string array_tasks;           // ArrayTaskId: "3", or an array record's pending tasks "0-9%2"
  std::int32_t array_throttle = 0;   // ArrayTaskThrottle (%N); 0: none
  std::int64_t het_job_id = 0;       // HetJobId; 0: not a component of a heterogeneous job
  std::string dependency;            // Dependency as printed; "" when none
  std::int64_t eligible_epoch = -1;  // EligibleTime (--begin); -1: Unknown
  std::int32_t restarts = 0;         // Restarts: how often Slurm requeued it
  std::int64_t end_epoch = -1;       // EndTime of an ended job; -1 otherwise
  std::string features;              // Features (-C); "" when none
  std::vector<std::string> exclude_nodes;  // ExcNodeList (-x), expanded
  std::string exclude_nodes_text;          // as printed; "" for (null)
  bool exclusive = false;            // OverSubscribe=NO/USER/MCS: --exclusive, whole nodes
  std::vector<std::pair<std::string, std::int32_t>> gres_per_job;   // TresPerJob (--gpus)
  std::vector<std::pair<std::string, std::int32_t>> gres_per_task;  // TresPerTask (--gpus-per-task)
  std::string other_tres;  // "--cpus-per-gpu (CpusPerTres=gres:gpu:2)", ...: not modelled; "" when none

  // scontrol shows a pending job's state flag in place of PENDING (job_state_string):
  // SPECIAL_EXIT (requeued on a RequeueExitHold code, or `scontrol requeuehold
  // State=SpecialExit`), REQUEUE_HOLD (too many failed launches), RESV_DEL_HOLD (its
  // reservation was deleted), REQUEUED and REQUEUE_FED (a requeue finishing). None holds
  // nodes. Slurm's holds among them set Priority 0, which held() reads: a release restores
  // the priority, while REQUEUE_HOLD and RESV_DEL_HOLD stay shown until the job starts.
  bool pending() const {
    return state == "PENDING" || state == "SPECIAL_EXIT" || state == "REQUEUE_HOLD" ||
           state == "RESV_DEL_HOLD" || state == "REQUEUED" || state == "REQUEUE_FED";
  }
  // Held by its user (sbatch -H, scontrol uhold) or by an administrator (scontrol hold).
  // An operator's requeue hold (scontrol requeuehold, or a launch failure with requeue) is
  // an administrator's hold too: Priority 0, its own reason; so are Slurm's holds above.
  bool held() const {
    return pending() && (reason == "JobHeldUser" || reason == "JobHeldAdmin" || priority == 0 ||
                         reason == "job_requeued_in_held_state" || reason == "launch_failed_requeued_held");
  }
  bool held_by_user() const { return pending() && reason == "JobHeldUser"; }
  // Held as job_submit.lua and the bridge hold a job: a plain user or admin hold. Not Slurm's
  // own holds (its reservation deleted, a requeue hold, a special exit, a failed launch), nor
  // Priority 0 kept for a bad account, QOS or constraints: each waits for a person.
  bool held_for_the_bridge() const {
    return state == "PENDING" && (reason == "JobHeldUser" || reason == "JobHeldAdmin");
  }
  // scontrol names a state flag before the base state: a job CONFIGURING (its nodes booting),
  // STOPPED (scancel -s STOP), RESIZING or SIGNALING still holds its nodes.
  bool holds_resources() const {
    return state == "RUNNING" || state == "COMPLETING" || state == "SUSPENDED" || state == "STOPPED" ||
           state == "CONFIGURING" || state == "RESIZING" || state == "SIGNALING";
  }
  bool ended() const { return !pending() && !holds_resources(); }
  // An array's record that still holds several pending tasks ("4-9%2").
  bool holds_several_tasks() const {
    return array_job_id > 0 && array_tasks.find_first_not_of("0123456789") != std::string::npos;
  }
  // What scontrol commands name: "12", or "7_3" for the first pending task of array 7 (a
  // command on an array's record would act on every task it still holds).
  std::string target() const;
};

// One LiveJob per non-empty line. Malformed fields are InputErrors naming `source`, the
// line, the field and its value. "No jobs in the system" gives an empty list.
std::vector<LiveJob> parse_scontrol_jobs(std::string_view text, const std::string& source);

// Seconds since the epoch for Slurm's local "YYYY-MM-DDTHH:MM:SS"; -1 for "Unknown"/"None".
std::int64_t parse_slurm_timestamp(std::string_view text);

}  // namespace hs::bridge
