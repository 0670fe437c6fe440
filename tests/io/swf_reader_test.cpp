#include "io/swf_reader.hpp"

#include <zlib.h>

#include <filesystem>

#include "test_helpers.hpp"

namespace hs {
namespace {

using testing::expect_input_error;
using testing::scratch_dir;
using testing::write_file;

const char* kSmallSwf =
    "; Version: 2.2\n"
    "; MaxNodes: 64\n"
    ";  MaxProcs:   128\n"
    "\n"
    "1 0 5 100 4 -1 -1 4 200 -1 1 7 1 -1 2 -1 -1 -1\n"
    "2 10 -1 -1 8 -1 -1 8 300 -1 5 7 1 -1 2 -1 -1 -1\n"       // no run time: skipped
    "3 20 1 50 16 1.5 -1 -1 100 -1 1 8 1 -1 -1 -1 -1 -1\n"    // procs from allocated
    "4 30 1 70 2 -1 -1 2 -1 -1 1 9 1 -1 0 -1 -1 -1\n"         // limit from run time
    "5 40 1 500 2 -1 -1 2 400 -1 0 -1 1 -1 1 -1 -1 -1\n"      // over limit, kept
    "6 50 1 10 -1 -1 -1 -1 100 -1 1 3 1 -1 1 -1 -1 -1\n"      // no procs at all: skipped
    "7 -1 1 10 1 -1 -1 1 100 -1 1 3 1 -1 1 -1 -1 -1\n";       // no submit: skipped

TEST(SwfReader, AppliesDocumentedDecisionsAndCounts) {
  const auto dir = scratch_dir("swf-small");
  const SwfLoad load = read_swf(write_file(dir / "small.swf", kSmallSwf));
  EXPECT_EQ(load.header.max_nodes, 64);
  EXPECT_EQ(load.header.max_procs, 128);
  EXPECT_NE(load.header.raw_comments.find("Version: 2.2"), std::string::npos);
  EXPECT_EQ(load.records, 7);
  EXPECT_EQ(load.skipped_no_runtime, 1);
  EXPECT_EQ(load.skipped_no_procs, 1);
  EXPECT_EQ(load.skipped_no_submit, 1);
  EXPECT_EQ(load.procs_from_allocated, 1);
  EXPECT_EQ(load.limit_from_runtime, 1);
  EXPECT_EQ(load.runtime_over_limit, 1);
  EXPECT_EQ(load.notes.size(), 6u);
  EXPECT_EQ(load.workload.name, "small");
  ASSERT_EQ(load.workload.jobs.size(), 4u);
  const Job& first = load.workload.jobs[0];
  EXPECT_EQ(first.id, 1);
  EXPECT_EQ(first.submit, 0);
  EXPECT_EQ(first.run_time, 100);
  EXPECT_EQ(first.req.ntasks, 4);
  EXPECT_EQ(first.req.time_limit, 200);
  EXPECT_EQ(first.user, "u7");
  EXPECT_EQ(first.name, "q2");
  EXPECT_EQ(first.partition, "");
  EXPECT_EQ(load.workload.jobs[1].req.ntasks, 16);
  EXPECT_EQ(load.workload.jobs[1].name, "");
  EXPECT_EQ(load.workload.jobs[2].req.time_limit, 70);
  EXPECT_EQ(load.workload.jobs[3].run_time, 500);
  EXPECT_EQ(load.workload.jobs[3].req.time_limit, 400);
  EXPECT_EQ(load.workload.jobs[3].user, "");
}

TEST(SwfReader, ReadsGzipByMagicBytesNotName) {
  const auto dir = scratch_dir("swf-gzip");
  const std::string path = (dir / "compressed.data").string();
  gzFile out = gzopen(path.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  gzputs(out, kSmallSwf);
  gzclose(out);
  const SwfLoad load = read_swf(path);
  EXPECT_EQ(load.workload.jobs.size(), 4u);
  EXPECT_EQ(load.header.max_procs, 128);
}

TEST(SwfReader, TruncatedGzipIsAnInputError) {
  const auto dir = scratch_dir("swf-gzip-cut");
  const std::string path = (dir / "cut.swf.gz").string();
  gzFile out = gzopen(path.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  for (int i = 1; i <= 2000; ++i)
    gzprintf(out, "%d %d 0 100 4 -1 -1 4 200 -1 1 %d 1 -1 2 -1 -1 -1\n", i, i * 7, i % 13);
  gzclose(out);
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size / 2);
  expect_input_error([&] { read_swf(path); });
}

TEST(SwfReader, MalformedLinesNameFileLineFieldAndValue) {
  const auto dir = scratch_dir("swf-bad");
  struct Case {
    const char* line;
    const char* field;
    const char* value;
  };
  const Case cases[] = {
      {"1 0 5 1x0 4 -1 -1 4 200 -1 1 7 1 -1 2 -1 -1 -1", "run time", "1x0"},
      {"1 0 5 100 4 -1 -1 4 200 -1 1 7 1 -1 2 -1 -1", "record", ""},
      {"1 0 5 100 4 -1 -1 4 200 -1 1 7 1 -1 2 -1 -1 -1 9", "record", ""},
      {"1 0 5 100 4 -1 -1 4 2.5 -1 1 7 1 -1 2 -1 -1 -1", "requested time", "2.5"},
      {"1 0 5 100 4 abc -1 4 200 -1 1 7 1 -1 2 -1 -1 -1", "average cpu time", "abc"},
      {"1 0 5 100 4 -1 -1 99999999999 200 -1 1 7 1 -1 2 -1 -1 -1", "requested procs",
       "99999999999"},
      {"x 0 5 100 4 -1 -1 4 200 -1 1 7 1 -1 2 -1 -1 -1", "job number", "x"},
  };
  for (const Case& c : cases) {
    const std::string path =
        write_file(dir / "bad.swf", std::string("; MaxProcs: 8\n\n") + c.line + "\n");
    const InputError e = expect_input_error([&] { read_swf(path); });
    EXPECT_EQ(e.where().file, path);
    EXPECT_EQ(e.where().line, 3) << c.line;
    EXPECT_EQ(e.field(), c.field) << c.line;
    if (*c.value) {
      EXPECT_EQ(e.value(), c.value) << c.line;
    }
  }
}

TEST(SwfReader, DuplicateIdsAndBadHeaderAreErrors) {
  const auto dir = scratch_dir("swf-dup");
  const std::string dup = write_file(dir / "dup.swf",
                                     "1 0 5 100 4 -1 -1 4 200 -1 1 7 1 -1 2 -1 -1 -1\n"
                                     "1 9 5 100 4 -1 -1 4 200 -1 1 7 1 -1 2 -1 -1 -1\n");
  EXPECT_EQ(expect_input_error([&] { read_swf(dup); }).where().line, 2);
  EXPECT_EQ(read_swf(write_file(dir / "unknown.swf", "; MaxNodes: -1\n")).header.max_nodes, 0);
  const std::string header = write_file(dir / "header.swf", "; MaxNodes: many\n");
  EXPECT_EQ(expect_input_error([&] { read_swf(header); }).field(), "maxnodes");
  EXPECT_EQ(expect_input_error([&] { read_swf((dir / "missing.swf").string()); }).field(),
            "file");
}

TEST(SwfReader, HeaderAloneAndTheMachineItDescribes) {
  const auto dir = scratch_dir("swf-machine");
  // The header ends at the first job line: a later comment is not read, nor a bad record.
  const SwfHeader header = read_swf_header(write_file(
      dir / "h.swf", "; MaxNodes: 120\n; MaxProcs: 240\n1 0 x\n; MaxNodes: 7\n"));
  EXPECT_EQ(header.max_nodes, 120);
  EXPECT_EQ(header.max_procs, 240);
  std::string how;
  const SwfMachine two = swf_machine(header, "h.swf", &how);
  EXPECT_EQ(two.nodes, 120);
  EXPECT_EQ(two.cores_per_node, 2);
  EXPECT_NE(how.find("MaxNodes 120, MaxProcs 240"), std::string::npos) << how;
  const SwfMachine uneven = swf_machine(SwfHeader{100, 430, ""}, "u.swf");
  EXPECT_EQ(uneven.nodes, 430);
  EXPECT_EQ(uneven.cores_per_node, 1);
  EXPECT_EQ(swf_machine(SwfHeader{0, 64, ""}, "p.swf").nodes, 64);
  EXPECT_EQ(swf_machine(SwfHeader{32, 0, ""}, "n.swf").nodes, 32);
  const InputError none = expect_input_error([] { swf_machine(SwfHeader{}, "none.swf"); });
  EXPECT_EQ(none.where().file, "none.swf");
  EXPECT_NE(std::string(none.what()).find("--cluster"), std::string::npos) << none.what();
  const std::string bad = write_file(dir / "bad.swf", "; MaxProcs: lots\n");
  EXPECT_EQ(expect_input_error([&] { read_swf_header(bad); }).field(), "maxprocs");
  EXPECT_EQ(swf_trace_name("/x/KTH-SP2-1996-2.1-cln.swf.gz"), "KTH-SP2-1996-2.1-cln");
}

// The archive traces shipped with the project: counts pinned from a full read.
TEST(SwfReader, ReadsKthTrace) {
  const SwfLoad load = read_swf(testing::shared_path("data/traces/KTH-SP2-1996-2.1-cln.swf.gz"));
  EXPECT_EQ(load.header.max_procs, 100);
  EXPECT_EQ(load.header.max_nodes, 100);
  EXPECT_EQ(load.records, 28476);
  EXPECT_EQ(load.workload.jobs.size(), 28467u);
  EXPECT_EQ(load.skipped_no_runtime, 8);
  EXPECT_EQ(load.skipped_no_procs, 1);
  EXPECT_EQ(load.runtime_over_limit, 475);
  EXPECT_EQ(load.records, static_cast<std::int64_t>(load.workload.jobs.size()) +
                              load.skipped_no_runtime + load.skipped_no_submit +
                              load.skipped_no_procs);
  for (const Job& j : load.workload.jobs) {
    ASSERT_GT(j.run_time, 0);
    ASSERT_GT(j.req.ntasks, 0);
    ASSERT_LE(j.req.ntasks, 100);
    ASSERT_GT(j.req.time_limit, 0);
  }
}

TEST(SwfReader, ReadsSdscTrace) {
  const SwfLoad load =
      read_swf(testing::shared_path("data/traces/SDSC-SP2-1998-4.2-cln.swf.gz"));
  EXPECT_EQ(load.header.max_procs, 128);
  EXPECT_EQ(load.records, 59715);
  EXPECT_EQ(load.workload.jobs.size(), 54034u);
  EXPECT_EQ(load.skipped_no_runtime, 5681);
  EXPECT_EQ(load.limit_from_runtime, 35);
  EXPECT_EQ(load.runtime_over_limit, 4134);
  EXPECT_EQ(load.procs_from_allocated, 0);
  EXPECT_EQ(load.records, static_cast<std::int64_t>(load.workload.jobs.size()) +
                              load.skipped_no_runtime + load.skipped_no_submit +
                              load.skipped_no_procs);
  for (std::size_t i = 1; i < load.workload.jobs.size(); ++i)
    ASSERT_LE(load.workload.jobs[i - 1].submit, load.workload.jobs[i].submit);
}

// kSmallSwf's kept jobs 1, 3, 4, 5 have partitions -1, -1, -1 and -1; this trace has 1, 2, 3.
const char* kPartitionedSwf =
    "1 0 1 100 4 -1 -1 4 200 -1 1 7 1 -1 2 1 -1 -1\n"
    "2 5 1 100 4 -1 -1 4 200 -1 1 7 1 -1 2 2 -1 -1\n"
    "3 6 1 100 4 -1 -1 4 200 -1 1 7 1 -1 2 3 -1 -1\n"
    "4 7 1 100 4 -1 -1 4 200 -1 1 7 1 -1 2 1.5 -1 -1\n";

TEST(SwfReader, PartitionMapNamesSlurmPartitions) {
  const auto dir = scratch_dir("swf-partitions");
  const std::string path = write_file(dir / "p.swf", kPartitionedSwf);
  const InputLocation where{"<command line>", 0};
  SwfOptions options;
  options.partitions = parse_swf_partition_map("2=gpu, 1=cpu", where, "--swf-partitions");
  EXPECT_EQ(format_swf_partition_map(options.partitions), "1=cpu,2=gpu");
  const SwfLoad load = read_swf(path, options);
  ASSERT_EQ(load.workload.jobs.size(), 4u);
  EXPECT_EQ(load.workload.jobs[0].partition, "cpu");
  EXPECT_EQ(load.workload.jobs[1].partition, "gpu");
  EXPECT_EQ(load.workload.jobs[2].partition, "");  // 3 is not mapped
  EXPECT_EQ(load.workload.jobs[3].partition, "");  // 1.5 is no partition number
  EXPECT_EQ(load.partition_mapped.at(1), 1);
  EXPECT_EQ(load.partition_unmapped.at(3), 1);
  EXPECT_EQ(load.partition_unmapped.at(-1), 1);
  const std::string notes = [&] {
    std::string all;
    for (const auto& n : load.notes) all += n + "\n";
    return all;
  }();
  EXPECT_NE(notes.find("1 jobs: SWF partition 2 -> partition gpu"), std::string::npos) << notes;
  EXPECT_NE(notes.find("1 jobs: SWF partition 3 not in the partition map"), std::string::npos)
      << notes;
  const SwfLoad plain = read_swf(path);
  for (const Job& j : plain.workload.jobs) EXPECT_EQ(j.partition, "");
  EXPECT_TRUE(plain.partition_unmapped.empty());
}

TEST(SwfReader, BadPartitionMapsAreErrors) {
  const InputLocation where{"<command line>", 0};
  for (const char* bad : {"1", "1=", "x=cpu", "1=cpu,1=gpu", "1=cpu,,2=gpu", "=cpu"}) {
    const InputError e =
        expect_input_error([&] { parse_swf_partition_map(bad, where, "--swf-partitions"); });
    EXPECT_EQ(e.field(), "--swf-partitions") << bad;
    EXPECT_EQ(e.value(), bad);
  }
}

}  // namespace
}  // namespace hs
