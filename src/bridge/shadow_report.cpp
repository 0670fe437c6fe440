#include "bridge/shadow_report.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "util/natural_sort.hpp"

namespace hs::bridge {

namespace {

std::string joined(std::vector<std::string> nodes) {
  std::sort(nodes.begin(), nodes.end(), [](const std::string& a, const std::string& b) {
    return natural_less(a, b);
  });
  std::string out;
  for (const std::string& n : nodes) out += (out.empty() ? "" : ",") + n;
  return out;
}

}  // namespace

std::string shadow_report(const std::map<std::int64_t, ShadowPrediction>& predictions,
                          const std::string& scheduler) {
  std::ostringstream rows;
  std::vector<Time> gaps;
  std::size_t same = 0, earlier = 0, later = 0, not_started = 0;
  for (const auto& [id, p] : predictions) {
    rows << "| " << id << " | " << p.at << " | " << joined(p.nodes) << " | ";
    if (p.actual_start < 0) {
      ++not_started;
      rows << "not yet | | |\n";
      continue;
    }
    const Time delta = p.at - p.actual_start;  // < 0: the policy would have started it earlier
    gaps.push_back(std::llabs(delta));
    const bool same_nodes = joined(p.nodes) == joined(p.actual_nodes);
    same += same_nodes;
    earlier += delta < 0;
    later += delta > 0;
    rows << p.actual_start << " | " << joined(p.actual_nodes) << " | " << delta << " |\n";
  }
  std::sort(gaps.begin(), gaps.end());
  double mean = 0;
  for (Time g : gaps) mean += static_cast<double>(g);
  if (!gaps.empty()) mean /= static_cast<double>(gaps.size());
  std::ostringstream out;
  out << "# Shadow mode: " << scheduler << " against Slurm\n\n"
      << "Jobs the policy would have started before Slurm did: " << predictions.size()
      << " (jobs Slurm started first are not listed); started by Slurm since: "
      << gaps.size() << " (" << not_started << " not yet).\n\n";
  if (!gaps.empty()) {
    out << "- same node set: " << same << " of " << gaps.size() << "\n"
        << "- the policy would have started " << earlier << " earlier, " << later << " later, "
        << gaps.size() - earlier - later << " at the same second\n"
        << "- |policy start - Slurm start|: mean " << static_cast<long long>(mean + 0.5) << " s, median "
        << gaps[gaps.size() / 2] << " s, max " << gaps.back() << " s\n\n";
  }
  out << "Times are epoch seconds; delta = policy start - Slurm start (negative: the policy "
         "would have started the job earlier). A policy start is the first pass that would "
         "have started the job, on the resources Slurm left free at that moment.\n\n"
      << "| job | policy start | policy nodes | Slurm start | Slurm nodes | delta (s) |\n"
      << "|---|---|---|---|---|---|\n"
      << rows.str();
  return out.str();
}

}  // namespace hs::bridge
