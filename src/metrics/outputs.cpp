#include "metrics/outputs.hpp"

#include "io/hostlist.hpp"
#include "io/job_options.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>

#include "metrics/job_metrics.hpp"
#include "metrics/usage.hpp"
#include "util/error.hpp"

namespace hs {

namespace {

// RFC 4180 quoting when the field holds a separator, quote or line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}


// Full precision, locale-independent, identical on every run.
std::string number(const SummaryField& f) {
  char buf[64];
  if (f.integer)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(f.value));
  else
    std::snprintf(buf, sizeof buf, "%.10g", f.value);
  return buf;
}

// "4", "2-8" or empty when the job did not ask for a node count.
std::string requested_nodes(const JobRequest& r) {
  if (r.nodes_min <= 0) return "";
  if (r.nodes_max <= 0 || r.nodes_max == r.nodes_min) return std::to_string(r.nodes_min);
  return std::to_string(r.nodes_min) + '-' + std::to_string(r.nodes_max);
}

void write_job_row(std::ostream& out, const Cluster& cluster, const Job& job,
                   const JobRecord& rec) {
  out << job.id << ',' << csv_field(job.name) << ',' << csv_field(job.user) << ','
      << csv_field(job.partition) << ',' << job.submit << ',';
  const bool ran = job_ran(rec);
  if (ran) {
    const JobTiming t = job_timing(job, rec);
    out << rec.start << ',' << rec.end << ',' << t.wait << ',' << t.run << ',';
  } else {
    out << ",,,,";
  }
  const Allocation alloc = rec.alloc.unpack();
  out << status_name(rec.status) << ',' << alloc.node_count() << ',' << alloc.total_cores();
  for (std::size_t t = 0; t < cluster.gres_types.size(); ++t)
    out << ',' << alloc.total_gres(static_cast<int>(t));
  out << ',' << csv_field(allocation_text(cluster, alloc)) << ',' << csv_field(rec.reason)
      << ',' << job.req.time_limit << ',' << job.req.ntasks << ',' << requested_nodes(job.req)
      << ',' << csv_field(format_gres_request(job.req.gres)) << '\n';
}

void write_file(const std::filesystem::path& path,
                const std::function<void(std::ostream&)>& write) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError({path.string(), 0}, "output", path.string(), "cannot be written");
  write(out);
  out.flush();
  if (!out) throw InputError({path.string(), 0}, "output", path.string(), "write failed");
}

}  // namespace

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

namespace {

// What one node of a share holds: "4c+2gpu+512M".
std::string share_amounts(const Cluster& cluster, const NodeShare& s) {
  std::string out = std::to_string(s.cores) + 'c';
  for (std::size_t t = 0; t < cluster.gres_types.size(); ++t)
    if (s.gres[t] > 0) out += '+' + std::to_string(s.gres[t]) + cluster.gres_types[t];
  if (s.mem_mb > 0) out += '+' + std::to_string(s.mem_mb) + "M";
  return out;
}

}  // namespace

std::string allocation_text(const Cluster& cluster, const Allocation& alloc) {
  std::string out;
  std::vector<std::string> names;
  std::string amounts;
  auto flush = [&] {
    if (names.empty()) return;
    out += (out.empty() ? "" : ";") + compress_hostlist(names) + ':' + amounts;
    names.clear();
  };
  for (const NodeShare& s : alloc.shares) {
    std::string these = share_amounts(cluster, s);
    if (these != amounts) flush();
    amounts = std::move(these);
    names.push_back(cluster.nodes[s.node].name);
  }
  flush();
  return out;
}

void write_jobs_csv(std::ostream& out, const Cluster& cluster, const Workload& workload,
                    const SimResult& result) {
  out << "id,name,user,partition,submit,start,end,wait,run,status,nodes,cores";
  for (const std::string& g : cluster.gres_types) out << ',' << csv_field(g);
  out << ",allocation,reason,time_limit,req_cores,req_nodes,req_gres\n";
  for (std::size_t j = 0; j < workload.jobs.size(); ++j)
    write_job_row(out, cluster, workload.jobs[j], result.records[j]);
}

void write_summary_csv(std::ostream& out, const Summary& summary) {
  out << "metric,value\n";
  for (const SummaryField& f : summary_fields(summary)) out << f.name << ',' << number(f) << '\n';
}

void write_summary_json(std::ostream& out, const Summary& summary) {
  const std::vector<SummaryField> fields = summary_fields(summary);
  out << "{\n";
  for (std::size_t i = 0; i < fields.size(); ++i)
    out << "  " << json_string(fields[i].name) << ": " << number(fields[i])
        << (i + 1 < fields.size() ? ",\n" : "\n");
  out << "}\n";
}

void write_queue_csv(std::ostream& out, const SimResult& result) {
  out << "time,pending,running\n";
  for (const QueueSample& q : result.queue)
    out << q.time << ',' << q.pending << ',' << q.running << '\n';
}

void write_usage_csv(std::ostream& out, const Cluster& cluster, const SimResult& result) {
  out << "time,used_cores";
  for (const std::string& g : cluster.gres_types) out << ',' << csv_field("used_" + g);
  out << ",used_mem_mb\n";
  for (const UsagePoint& p : usage_series(cluster, result)) {
    out << p.time << ',' << p.cores;
    for (std::size_t t = 0; t < cluster.gres_types.size(); ++t) out << ',' << p.gres[t];
    out << ',' << p.mem_mb << '\n';
  }
}

void write_run_outputs(const std::string& dir, const Cluster& cluster, const Workload& workload,
                       const SimResult& result, const Summary& summary) {
  const std::filesystem::path base(dir);
  std::error_code ec;
  std::filesystem::create_directories(base, ec);
  if (ec) throw InputError({dir, 0}, "output directory", dir, ec.message());
  write_file(base / "jobs.csv",
             [&](std::ostream& o) { write_jobs_csv(o, cluster, workload, result); });
  write_file(base / "summary.csv", [&](std::ostream& o) { write_summary_csv(o, summary); });
  write_file(base / "summary.json", [&](std::ostream& o) { write_summary_json(o, summary); });
  write_file(base / "queue.csv", [&](std::ostream& o) { write_queue_csv(o, result); });
  write_file(base / "usage.csv", [&](std::ostream& o) { write_usage_csv(o, cluster, result); });
}

}  // namespace hs
