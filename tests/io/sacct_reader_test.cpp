#include "io/sacct_reader.hpp"

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "io/job_file.hpp"
#include "io/sacct_values.hpp"
#include "test_helpers.hpp"

namespace hs {
namespace {

using testing::expect_input_error;
using testing::scratch_dir;
using testing::source_path;
using testing::write_file;

// tests/io/data/sacct_smalltree.txt, hand-written as `sacct -a --parsable2` prints it
// (without -X, so steps appear). Lines:
//   2 101 CPU job + 3 steps (3-5)       6 102 2-node GPU job (typed + untyped TRES) + step 7
//   8,10 array tasks 103_1, 103_2 (+ step 9)   11 103_[3-4] cancelled pending (Start None)
//  12 104 cancelled pending (Start Unknown)  13 105 TIMEOUT (+ step 14)  15 106 ReqMem 250Mc
//  16 107 ReqMem 4000Mn, limit 0-12:30   17 108 4 GPUs on 3 nodes   18 109 Partition_Limit
//  19 110 partitions "cpu,debug", a constraint, limit 45:00   20 111 still running
//  21-22 het job 112+0, 112+1   23 113 no ReqTRES   24 114 typed GPUs only
//  25 115 cpu=32,node=1 given 2 nodes   26-27 116 twice (sacct -D)
//  28 117 cancelled pending, Start = End, NodeList "None assigned"   29 118 '|' in its name
//  30 95 -C "[haswell|cpu]" (a '|' too)   31 96 -C "haswell*2"   32 97 cut short
const std::string kDump = "tests/io/data/sacct_smalltree.txt";

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// `text` written as a dump in a scratch directory of its own, then read.
SacctLoad read_dump_text(const std::string& name, const std::string& text) {
  return read_sacct(write_file(scratch_dir("sacct-" + name) / "dump.txt", text));
}

const Job& job_with_id(const Workload& w, std::int64_t id) {
  const auto it = std::find_if(w.jobs.begin(), w.jobs.end(), [&](const Job& j) { return j.id == id; });
  if (it == w.jobs.end()) throw std::runtime_error("no job " + std::to_string(id));
  return *it;
}

TEST(SacctReader, CountsEveryDecision) {
  const SacctLoad load = read_sacct(source_path(kDump));
  EXPECT_EQ(load.records, 31);
  EXPECT_EQ(load.steps, 6);
  EXPECT_EQ(load.never_started, 3);
  EXPECT_EQ(load.still_running, 1);
  EXPECT_EQ(load.bad_field_count, 1);
  EXPECT_EQ(load.first_bad_field_line, 32);
  EXPECT_EQ(load.rejoined_fields, 2);
  EXPECT_EQ(load.duplicate_ids, 1);
  EXPECT_EQ(load.no_submit, 0);
  EXPECT_EQ(load.no_cpus, 0);
  EXPECT_EQ(load.renumbered, 4);
  EXPECT_EQ(load.typed_gres, 0);  // typed gres of one type stay typed
  EXPECT_EQ(load.gres_rounded_up, 1);
  EXPECT_EQ(load.mem_per_cpu, 1);
  EXPECT_EQ(load.timeouts, 1);
  EXPECT_EQ(load.runtime_over_limit, 1);
  EXPECT_EQ(load.partition_lists, 1);
  EXPECT_EQ(load.constraints, 3);
  EXPECT_EQ(load.constraints_relaxed, 1);
  EXPECT_EQ(load.constraints_dropped, 1);
  EXPECT_EQ(job_with_id(load.workload, 110).req.node_rules().constraint.text(), "haswell");
  EXPECT_EQ(load.workload.jobs.size(), 19u);
  EXPECT_EQ(load.records, static_cast<std::int64_t>(load.workload.jobs.size()) + load.steps +
                              load.never_started + load.still_running + load.bad_field_count +
                              load.duplicate_ids);
  const std::vector<std::string> unused = {"Account", "QOS", "Eligible", "AllocTRES", "Flags"};
  EXPECT_EQ(load.unused_fields, unused);
  EXPECT_EQ(load.workload.name, "sacct_smalltree");
}

TEST(SacctReader, NotesNameEachDecision) {
  const SacctLoad load = read_sacct(source_path(kDump));
  auto has = [&](const std::string& text) {
    return std::any_of(load.notes.begin(), load.notes.end(),
                       [&](const std::string& n) { return n.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(has("3 records skipped: never started"));
  EXPECT_TRUE(has("6 job steps skipped"));
  EXPECT_TRUE(has("1 records skipped: field count differs from the header's and no single text "
                  "field explains it (first: line 32)"));
  EXPECT_TRUE(has("2 records read with a '|' inside a name, constraint or comment"));
  EXPECT_TRUE(has("1 jobs: Constraints [a|b] (one choice for all nodes) read as a|b"));
  EXPECT_TRUE(has("1 jobs: Constraints the model does not have (counts, parentheses, & mixed with |) "
                  "dropped, the job may use any node (first: line 31, 'haswell*2')"));
  EXPECT_FALSE(has("gres of several types"));
  EXPECT_TRUE(has("4 array tasks / het components numbered from 119"));
  EXPECT_TRUE(has("submit times relative to 2026-01-05T10:00:00"));
  EXPECT_TRUE(has("fields not used: Account QOS Eligible AllocTRES Flags"));
}

TEST(SacctReader, PlainJobTakesRequestTimesAndLabels) {
  const Workload w = read_sacct(source_path(kDump)).workload;
  const Job& j = job_with_id(w, 101);
  EXPECT_EQ(j.submit, 0);
  EXPECT_EQ(j.run_time, 1800);
  EXPECT_EQ(j.req.time_limit, 3600);
  EXPECT_EQ(j.req.ntasks, 8);
  EXPECT_EQ(j.req.nodes_min, 1);
  EXPECT_EQ(j.req.nodes_max, 0);
  EXPECT_EQ(j.req.mem_per_node_mb, 4000);
  EXPECT_TRUE(j.req.gres.empty());
  EXPECT_EQ(j.partition, "cpu");
  EXPECT_EQ(j.user, "alice");
  EXPECT_EQ(j.name, "lammps");
}

TEST(SacctReader, GpuTotalsBecomePerNodeCounts) {
  const Workload w = read_sacct(source_path(kDump)).workload;
  const Job& two_nodes = job_with_id(w, 102);  // gres/gpu=4 (and gres/gpu:v100=4), node=2
  EXPECT_EQ(two_nodes.submit, 60);
  EXPECT_EQ(two_nodes.run_time, 7200);
  EXPECT_EQ(two_nodes.req.time_limit, 86400);
  EXPECT_EQ(two_nodes.req.nodes_min, 2);
  EXPECT_EQ(two_nodes.req.nodes_max, 0);
  ASSERT_EQ(two_nodes.req.gres.size(), 1u);
  EXPECT_EQ(two_nodes.req.gres[0].name, "gpu");
  EXPECT_EQ(two_nodes.req.gres[0].kind, "v100");
  EXPECT_EQ(two_nodes.req.gres[0].per_node_min, 2);
  EXPECT_EQ(two_nodes.req.mem_per_node_mb, 32 * 1024);
  const Job& odd = job_with_id(w, 108);  // 4 GPUs on 3 nodes
  EXPECT_EQ(odd.req.nodes_min, 3);
  EXPECT_EQ(odd.req.gres[0].per_node_min, 2);
  const Job& typed_only = job_with_id(w, 114);  // gres/gpu:k80=2
  ASSERT_EQ(typed_only.req.gres.size(), 1u);
  EXPECT_EQ(typed_only.req.gres[0].name, "gpu");
  EXPECT_EQ(typed_only.req.gres[0].kind, "k80");
  EXPECT_EQ(typed_only.req.gres[0].per_node_max, 2);
  const Job& untyped = job_with_id(w, 108);  // gres/gpu=4 alone: any type
  EXPECT_EQ(untyped.req.gres[0].kind, "");
}

TEST(SacctReader, ArrayTasksAndHetComponentsAreJobsWithNewIds) {
  const Workload w = read_sacct(source_path(kDump)).workload;
  EXPECT_EQ(job_with_id(w, 119).run_time, 600);   // 103_1
  EXPECT_EQ(job_with_id(w, 120).run_time, 1200);  // 103_2
  EXPECT_EQ(job_with_id(w, 120).req.time_limit, 1800);  // Timelimit "30" = minutes
  EXPECT_EQ(job_with_id(w, 121).partition, "cpu");      // 112+0
  EXPECT_EQ(job_with_id(w, 122).partition, "gpu");      // 112+1
  EXPECT_EQ(job_with_id(w, 122).req.gres.at(0).per_node_min, 1);
}

TEST(SacctReader, LimitsMemoryAndFallbacks) {
  const Workload w = read_sacct(source_path(kDump)).workload;
  const Job& timeout = job_with_id(w, 105);
  EXPECT_EQ(timeout.req.time_limit, 600);
  EXPECT_EQ(timeout.run_time, 630);
  const Job& per_cpu = job_with_id(w, 106);  // 250Mc x 4 CPUs per node
  EXPECT_EQ(per_cpu.req.mem_per_node_mb, 1000);
  EXPECT_EQ(per_cpu.req.nodes_min, 2);
  EXPECT_EQ(per_cpu.req.time_limit, 86400);  // "1-00"
  const Job& per_node = job_with_id(w, 107);
  EXPECT_EQ(per_node.req.mem_per_node_mb, 4000);
  EXPECT_EQ(per_node.req.time_limit, 12 * 3600 + 30 * 60);
  EXPECT_EQ(job_with_id(w, 109).req.time_limit, 0);  // Partition_Limit: partition default
  const Job& listed = job_with_id(w, 110);
  EXPECT_EQ(listed.partition, "cpu");
  EXPECT_EQ(listed.req.time_limit, 45 * 60);
  const Job& legacy = job_with_id(w, 113);  // no ReqTRES, no ReqMem
  EXPECT_EQ(legacy.req.ntasks, 4);
  EXPECT_EQ(legacy.req.nodes_min, 1);
  EXPECT_EQ(legacy.req.mem_per_node_mb, 0);
  const Job& wide = job_with_id(w, 115);  // node=1 asked, 2 given
  EXPECT_EQ(wide.req.ntasks, 32);
  EXPECT_EQ(wide.req.nodes_min, 1);
  EXPECT_EQ(wide.req.nodes_max, 2);
  EXPECT_EQ(job_with_id(w, 116).run_time, 300);  // the first of the two records
}

TEST(SacctReader, LoadWorkloadFileRecognisesTheHeaderPlainOrGzip) {
  const auto dir = scratch_dir("sacct-detect");
  const std::string text = read_whole(source_path(kDump));
  const std::string plain = write_file(dir / "site.dump", text);
  const std::string gz = (dir / "site.gz").string();
  gzFile out = gzopen(gz.c_str(), "wb");
  gzwrite(out, text.data(), static_cast<unsigned>(text.size()));
  gzclose(out);
  for (const std::string& path : {plain, gz}) {
    const Workload w = load_workload_file(path);
    EXPECT_EQ(w.jobs.size(), 19u) << path;
    EXPECT_TRUE(std::is_sorted(w.jobs.begin(), w.jobs.end(), [](const Job& a, const Job& b) {
      return a.submit < b.submit;
    }));
    ASSERT_FALSE(w.notes.empty());
    EXPECT_EQ(w.notes[0].rfind(path + ": ", 0), 0u) << w.notes[0];
  }
}

TEST(SacctReader, HeaderDetection) {
  EXPECT_TRUE(is_sacct_header("JobID|JobName|Submit"));
  EXPECT_TRUE(is_sacct_header("Submit|jobidraw|Start"));
  EXPECT_FALSE(is_sacct_header("# hetsched-jobs v1"));
  EXPECT_FALSE(is_sacct_header("JobID JobName"));
  EXPECT_FALSE(is_sacct_header("; Version: 2.2"));
}

// One record after a header; expects an InputError at line 2 naming field and value.
void expect_bad(const std::string& header, const std::string& record, const std::string& field,
                const std::string& value) {
  const auto dir = scratch_dir("sacct-bad");
  const std::string path = write_file(dir / "bad.txt", header + "\n" + record + "\n");
  const InputError e = expect_input_error([&] { read_sacct(path); });
  EXPECT_EQ(e.where().file, path);
  EXPECT_EQ(e.where().line, 2) << e.what();
  EXPECT_EQ(e.field(), field) << e.what();
  EXPECT_EQ(e.value(), value) << e.what();
}

const std::string kHeader = "JobID|Submit|Start|End|Timelimit|ReqTRES|ReqMem|NNodes";
const std::string kGood = "|2026-01-05T10:00:00|2026-01-05T10:00:00|2026-01-05T10:01:00|";

TEST(SacctReader, BadValuesNameFileLineFieldAndValue) {
  expect_bad(kHeader, "7|2026-13-05T10:00:00|2026-01-05T10:00:00|2026-01-05T10:01:00|10|cpu=1||",
             "Submit", "2026-13-05T10:00:00");
  expect_bad(kHeader, "7|2026-02-29T10:00:00|2026-01-05T10:00:00|2026-01-05T10:01:00|10|cpu=1||",
             "Submit", "2026-02-29T10:00:00");
  expect_bad(kHeader, "7|2026-01-05 10:00:00|2026-01-05T10:00:00|2026-01-05T10:01:00|10|cpu=1||",
             "Submit", "2026-01-05 10:00:00");
  expect_bad(kHeader, "7" + kGood + "1:2:3:4|cpu=1||", "Timelimit", "1:2:3:4");
  expect_bad(kHeader, "7" + kGood + "soon|cpu=1||", "Timelimit", "soon");
  expect_bad(kHeader, "7" + kGood + "10|cpu=eight,node=1||", "ReqTRES", "cpu=eight,node=1");
  expect_bad(kHeader, "7" + kGood + "10|cpu=1,mem=12X||", "ReqTRES", "cpu=1,mem=12X");
  expect_bad(kHeader, "7" + kGood + "10|cpu=1,gres/gpu=-2||", "ReqTRES", "cpu=1,gres/gpu=-2");
  expect_bad(kHeader, "7" + kGood + "10|cpu 1||", "ReqTRES", "cpu 1");
  expect_bad(kHeader, "7" + kGood + "10|cpu=1|lots|", "ReqMem", "lots");
  expect_bad(kHeader, "7" + kGood + "10|cpu=1||two", "NNodes", "two");
  expect_bad(kHeader, "x7" + kGood + "10|cpu=1||", "JobID", "x7");
  expect_bad(kHeader, "7|2026-01-05T10:00:00|2026-01-05T10:00:00|2026-01-05T09:00:00|10|cpu=1||",
             "End", "2026-01-05T09:00:00");
  expect_bad(kHeader, kGood + "10|cpu=1||", "JobID", "");
}

// sacct --parsable2 leaves a '|' inside a value unescaped; the record is read with the extra
// fields joined back into the one text field that leaves every used value readable.
TEST(SacctReader, APipeInsideANameOrConstraintIsJoinedBack) {
  const Workload w = read_sacct(source_path(kDump)).workload;
  EXPECT_EQ(job_with_id(w, 118).name, "a|b");
  EXPECT_EQ(job_with_id(w, 118).user, "ivan");
  const Job& either = job_with_id(w, 95);
  EXPECT_EQ(either.name, "either");
  EXPECT_EQ(either.req.node_rules().constraint.text(), "haswell|cpu");
  EXPECT_TRUE(either.req.node_rules().constraint.any);
  EXPECT_EQ(either.run_time, 60);
  const Job& pair = job_with_id(w, 96);
  EXPECT_TRUE(pair.req.node_rules().constraint.empty());
  EXPECT_EQ(pair.req.nodes_min, 2);
}

// Two text fields that could each take the extra field and read differently: the record is
// skipped, not guessed.
TEST(SacctReader, AnAmbiguousSplitIsSkippedAndCounted) {
  const SacctLoad load = read_dump_text(
      "ambiguous",
      "JobID|JobName|Comment|Submit|Start|End|NCPUS\n"
      "7|x|y|z|2026-01-05T10:00:00|2026-01-05T10:00:00|2026-01-05T10:01:00|1\n"
      "8|p|q|2026-01-05T10:00:00|2026-01-05T10:00:00|2026-01-05T10:01:00|1\n");
  EXPECT_EQ(load.bad_field_count, 1);
  EXPECT_EQ(load.first_bad_field_line, 2);
  ASSERT_EQ(load.workload.jobs.size(), 1u);
  EXPECT_EQ(load.workload.jobs[0].id, 8);
}

TEST(SacctReader, HeaderWithoutNeededFieldsIsAnError) {
  const auto dir = scratch_dir("sacct-header");
  const std::string path = write_file(dir / "h.txt", "JobID|Start|End|NCPUS\n1|x|y|1\n");
  const InputError e = expect_input_error([&] { read_sacct(path); });
  EXPECT_EQ(e.where().line, 1);
  EXPECT_EQ(e.field(), "header");
  EXPECT_NE(e.problem().find("Submit"), std::string::npos);
  const std::string twice = write_file(dir / "t.txt", "JobID|Submit|Start|End|NCPUS|Submit\n");
  EXPECT_EQ(expect_input_error([&] { read_sacct(twice); }).problem(), "field given twice");
}

TEST(SacctReader, ElapsedGivesTheRunTimeWithoutEnd) {
  const SacctLoad load = read_dump_text(
      "elapsed",
      "JobIDRaw|Submit|Start|Elapsed|NCPUS|Timelimit\n"
      "40|2026-01-05T10:00:00|2026-01-05T10:00:10|1-02:03:04|3|UNLIMITED\n"
      "41|Unknown|2026-01-05T10:00:10|00:00:10|3|10\n"
      "42|2026-01-05T10:00:00|2026-01-05T10:00:10|00:00:10|0|10\n");
  ASSERT_EQ(load.workload.jobs.size(), 1u);
  const Job& j = load.workload.jobs[0];
  EXPECT_EQ(j.id, 40);
  EXPECT_EQ(j.run_time, 86400 + 2 * 3600 + 3 * 60 + 4);
  EXPECT_EQ(j.req.time_limit, kNoTime);
  EXPECT_EQ(j.req.ntasks, 3);
  EXPECT_EQ(load.no_submit, 1);
  EXPECT_EQ(load.no_cpus, 1);
}

TEST(SacctReader, JobIdRawKeepsSlurmsOwnIdsForArrayTasks) {
  const SacctLoad load = read_dump_text(
      "raw",
      "JobID|JobIDRaw|Submit|Start|End|NCPUS\n"
      "50_1|51|2026-01-05T10:00:00|2026-01-05T10:00:00|2026-01-05T10:01:00|1\n"
      "50_1.batch|51.batch|2026-01-05T10:00:00|2026-01-05T10:00:00|2026-01-05T10:01:00|1\n"
      "50_2|50|2026-01-05T10:00:00|2026-01-05T10:00:00|2026-01-05T10:02:00|1\n");
  ASSERT_EQ(load.workload.jobs.size(), 2u);
  EXPECT_EQ(load.workload.jobs[0].id, 51);
  EXPECT_EQ(load.workload.jobs[1].id, 50);
  EXPECT_EQ(load.renumbered, 0);
  EXPECT_EQ(load.steps, 1);
}

TEST(SacctReader, GresOfSeveralTypesBecomeUntypedAndAreCounted) {
  const auto dir = testing::scratch_dir("sacct-kinds");
  std::ifstream dump(source_path(kDump));
  std::string header;
  std::getline(dump, header);
  const std::string record =
      "7|mix|bob|ml|gpu|normal|2026-01-05T10:13:00|2026-01-05T10:13:00|2026-01-05T10:13:05|"
      "2026-01-05T10:23:05|00:10:00|00:30:00|COMPLETED|1|2|2|8G|"
      "cpu=2,gres/gpu:k80=1,gres/gpu:v100=1,node=1|cpu=2,node=1|1|gn05||\n";
  const SacctLoad load = read_sacct(testing::write_file(dir / "d.txt", header + "\n" + record));
  ASSERT_EQ(load.workload.jobs.size(), 1u);
  const GresRequest& g = load.workload.jobs[0].req.gres.at(0);
  EXPECT_EQ(g.name, "gpu");
  EXPECT_EQ(g.kind, "");
  EXPECT_EQ(g.per_node_min, 2);
  EXPECT_EQ(load.typed_gres, 1);
}

TEST(SacctValues, TresFormsAndSizes) {
  const InputLocation where{"f", 1};
  const sacct::Tres t = sacct::parse_tres(
      "cpu=8,mem=32G,node=2,billing=8,gres/gpu=4,gres/gpu:a100=4,gres/mic:x=1,gres/mic:y=2,"
      "license/matlab=1,energy=100",
      where, "ReqTRES");
  EXPECT_EQ(t.cpu, 8);
  EXPECT_EQ(t.node, 2);
  EXPECT_EQ(t.mem_mb, 32 * 1024);
  EXPECT_TRUE(t.typed);
  const std::vector<std::pair<std::string, std::int64_t>> gres = {{"gpu", 4}, {"mic", 3}};
  EXPECT_EQ(t.gres, gres);
  const std::vector<std::pair<std::string, std::int64_t>> kinds = {
      {"gpu:a100", 4}, {"mic:x", 1}, {"mic:y", 2}};
  EXPECT_EQ(t.kinds, kinds);
  EXPECT_FALSE(sacct::parse_tres("", where, "ReqTRES").cpu.has_value());
  EXPECT_EQ(sacct::parse_size_mb("1.5G", "", where, "x"), 1536);
  EXPECT_EQ(sacct::parse_size_mb("512K", "", where, "x"), 1);
  EXPECT_EQ(sacct::parse_size_mb("2T", "", where, "x"), 2 * 1024 * 1024);
  EXPECT_EQ(sacct::parse_size_mb("100", "", where, "x"), 100);
  const auto per_cpu = sacct::parse_req_mem("250Mc", where, "ReqMem");
  ASSERT_TRUE(per_cpu.has_value());
  EXPECT_EQ(per_cpu->per, sacct::ReqMem::Per::Cpu);
  EXPECT_EQ(per_cpu->mb, 250);
  EXPECT_FALSE(sacct::parse_req_mem("0n", where, "ReqMem").has_value());
  EXPECT_EQ(sacct::parse_req_mem("4G", where, "ReqMem")->per, sacct::ReqMem::Per::Job);
  EXPECT_EQ(sacct::parse_req_mem("4Gn", where, "ReqMem")->per, sacct::ReqMem::Per::Node);
}

TEST(SacctValues, Timestamps) {
  const InputLocation where{"f", 1};
  EXPECT_EQ(sacct::parse_timestamp("1970-01-02T00:00:01", where, "Submit"), 86401);
  EXPECT_EQ(*sacct::parse_timestamp("2024-03-01T00:00:00", where, "Submit") -
                *sacct::parse_timestamp("2024-02-28T00:00:00", where, "Submit"),
            2 * 86400);  // 2024 is a leap year
  EXPECT_FALSE(sacct::parse_timestamp("Unknown", where, "Start").has_value());
  EXPECT_FALSE(sacct::parse_timestamp("None", where, "Start").has_value());
  EXPECT_EQ(expect_input_error([&] { sacct::parse_timestamp("2026-01-05T24:00:00", where, "End"); })
                .problem(),
            "no such time of day");
}

}  // namespace
}  // namespace hs
