#include "bridge/bridge_status.hpp"

#include <map>

#include "bridge/job_eligibility.hpp"
#include <sstream>

namespace hs::bridge {

namespace {

std::string detail(const LiveJob& live, const Observation& seen, const JobDirectory& jobs,
                   Time now, Time grace) {
  const std::optional<JobMarker>& m = seen.marker;
  switch (seen.phase) {
    case Phase::Queued: {
      if (m && m->phase == MarkedPhase::Refused) return "never runnable: " + m->reason;
      const EligibilityVerdict verdict = judge_eligibility(live, jobs, now);
      if (verdict.kind == Eligibility::Waits) return verdict.why;
      if (verdict.kind == Eligibility::SlurmOnly) return "Slurm's to place (next cycle): " + verdict.why;
      return m ? "held by the bridge" : "held at submission";
    }
    case Phase::Interrupted:
      return "start cut short; the bridge restores its request next cycle";
    case Phase::Released: {
      const Time age = now - m->at;
      return "released " + std::to_string(age) + " s ago onto " + live.req_nodes_text +
             (age > grace ? "; past the grace, held again next cycle" : "") + " (" + live.reason + ")";
    }
    case Phase::Running:
      return "running";
    case Phase::Unmanaged:
      return held_by_its_owner(live) ? "held by its user; their release gives it back to the bridge" : "";
    default:
      return "";
  }
}

}  // namespace

std::string status_text(const SlurmView& view, const std::string& partition, Time now,
                        Time start_grace) {
  std::ostringstream out;
  std::map<Phase, int> count;
  std::ostringstream rows;
  JobDirectory jobs;
  jobs.read(view.jobs);
  for (const LiveJob& live : view.jobs) {
    const Observation seen = observe(live, partition);
    const bool ours = seen.marker.has_value() || seen.phase == Phase::Queued ||
                      seen.phase == Phase::Released || seen.phase == Phase::Interrupted;
    if (!ours || seen.phase == Phase::Ended) continue;
    if (seen.phase == Phase::Running && !seen.marker) continue;
    ++count[seen.phase];
    rows << "  " << live.id << "  " << phase_name(seen.phase) << "  "
         << detail(live, seen, jobs, now, start_grace) << "\n";
  }
  std::size_t unmanaged = 0;
  for (const LiveJob& live : view.jobs)
    if (live.pending() && observe(live, partition).phase == Phase::Unmanaged) ++unmanaged;
  out << "partition  " << (partition.empty() ? "(all)" : partition);
  for (const LivePartition& p : view.partitions)
    if (p.name == partition && !partition_closed_reason(p).empty())
      out << " (" << p.state << ": Slurm starts none of its jobs; the bridge waits)";
  out << "\n"
      << "queued " << count[Phase::Queued] << ", released " << count[Phase::Released]
      << ", interrupted " << count[Phase::Interrupted] << ", running " << count[Phase::Running]
      << ", pending outside the bridge " << unmanaged << "\n";
  std::size_t blocked = 0;
  for (const LiveNode& n : view.nodes)
    if (const std::string why = node_unavailable_reason(n); !why.empty()) {
      out << (blocked++ == 0 ? "unusable nodes: " : ", ") << n.name << " (" << why << ")";
    }
  if (blocked) out << "\n";
  out << rows.str();
  return out.str();
}

}  // namespace hs::bridge
