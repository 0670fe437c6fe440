// Every reader, fed many mutated and random inputs, either succeeds or raises InputError:
// never a crash, a hang or another exception type. Deterministic (seeded hs::Rng).
#include <zlib.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <iostream>
#include <sstream>

#include "io/hostlist.hpp"
#include "io/job_file.hpp"
#include "io/sacct_reader.hpp"
#include "io/slurm_conf.hpp"
#include "io/slurm_time.hpp"
#include "io/swf_reader.hpp"
#include "test_helpers.hpp"
#include "util/rng.hpp"

namespace hs {
namespace {

using testing::scratch_dir;
using testing::write_file;

constexpr std::string_view kAlphabet = "[]-,:=#\"\\%;  \t\n\n0123456789aZn.()/Kx-1";

char random_char(Rng& rng) {
  return kAlphabet[static_cast<std::size_t>(rng.uniform_int(0, kAlphabet.size() - 1))];
}

// One to four edits: delete, insert, replace, duplicate a slice, or truncate.
std::string mutate(std::string text, Rng& rng) {
  const int edits = static_cast<int>(rng.uniform_int(1, 4));
  for (int e = 0; e < edits; ++e) {
    if (text.empty()) text = "x";
    const auto at = static_cast<std::size_t>(rng.uniform_int(0, text.size() - 1));
    switch (rng.uniform_int(0, 4)) {
      case 0: text.erase(at, 1); break;
      case 1: text.insert(at, 1, random_char(rng)); break;
      case 2: text[at] = random_char(rng); break;
      case 3: {
        const auto len = static_cast<std::size_t>(rng.uniform_int(1, 20));
        text.insert(at, text.substr(at, len));
        break;
      }
      default: text.resize(at); break;
    }
  }
  return text;
}

std::string random_line(Rng& rng) {
  std::string line;
  const auto len = rng.uniform_int(0, 60);
  for (int i = 0; i < len; ++i) line += random_char(rng);
  return line;
}

struct Outcome {
  int accepted = 0;
  int rejected = 0;
};

// Runs `read` and records the outcome; any exception but InputError fails the test.
void expect_clean(const std::function<void()>& read, const std::string& input,
                  Outcome& outcome) {
  try {
    read();
    ++outcome.accepted;
  } catch (const InputError&) {
    ++outcome.rejected;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "non-InputError exception " << e.what() << " for input:\n" << input;
  } catch (...) {
    ADD_FAILURE() << "unknown exception for input:\n" << input;
  }
}

const char* kSwf =
    "; MaxNodes: 64\n; MaxProcs: 128\n"
    "1 0 5 100 4 -1 -1 4 200 -1 1 7 1 -1 2 -1 -1 -1\n"
    "2 10 -1 -1 8 -1 -1 8 300 -1 5 7 1 -1 2 -1 -1 -1\n"
    "3 20 1 50 16 1.5 -1 -1 100 -1 1 8 1 -1 -1 -1 -1 -1\n";

const char* kSlurm =
    "ClusterName=fuzz\nGresTypes=gpu,mic\n"
    "NodeName=DEFAULT Sockets=2 CoresPerSocket=4 RealMemory=1000\n"
    "NodeName=n[01-08] Gres=gpu:2 \\\n Weight=3\nNodeName=m[1-4] Gres=mic:1 CPUs=6\n"
    "PartitionName=a Nodes=n[01-08] Default=YES MaxTime=1-00:00:00 DefaultTime=30\n"
    "PartitionName=b Nodes=ALL MaxTime=UNLIMITED PriorityTier=2\n";
const char* kGres = "NodeName=n[01-04] Name=gpu File=/dev/nvidia[0-1]\nNodeName=m1 Name=mic Count=2\n";
const char* kTopology =
    "SwitchName=s1 Nodes=n[01-08]\nSwitchName=s2 Nodes=m[1-4]\nSwitchName=top Switches=s[1-2]\n";

const char* kJobs =
    "# hetsched-jobs v1\n"
    "1 0 100 user=a name=x%20y -n 4 -N 1-2 --gres=gpu:1-2,mic:1 -t 1:00\n"
    "2 5 10 partition=b moldable=1 -N 2 --ntasks-per-node=3 --contiguous --mem=2G -t 1-0\n";

constexpr int kRounds = 1500;

TEST(GarbageInput, SwfReader) {
  const auto dir = scratch_dir("garbage-swf");
  Rng rng(11);
  Outcome outcome;
  for (int i = 0; i < kRounds; ++i) {
    const std::string text = i % 10 == 0 ? random_line(rng) + "\n" + random_line(rng)
                                         : mutate(kSwf, rng);
    const std::string path = write_file(dir / "f.swf", text);
    expect_clean([&] { read_swf(path); }, text, outcome);
  }
  std::cout << "accepted " << outcome.accepted << " rejected " << outcome.rejected << "\n";
  EXPECT_GT(outcome.rejected, kRounds / 4);
  EXPECT_GT(outcome.accepted, 0);
}

// Corrupted gzip streams (flipped, dropped and inserted bytes) go through zlib's error paths.
TEST(GarbageInput, CorruptGzip) {
  const auto dir = scratch_dir("garbage-gzip");
  const std::string clean_path = (dir / "clean.swf.gz").string();
  gzFile out = gzopen(clean_path.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  for (int i = 0; i < 50; ++i) gzputs(out, kSwf);
  gzclose(out);
  std::ifstream in(clean_path, std::ios::binary);
  const std::string clean((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Rng rng(15);
  Outcome outcome;
  for (int i = 0; i < kRounds / 3; ++i) {
    std::string bytes = clean;
    const int edits = static_cast<int>(rng.uniform_int(1, 3));
    for (int e = 0; e < edits; ++e) {
      const auto at = static_cast<std::size_t>(rng.uniform_int(2, bytes.size() - 1));
      const char byte = static_cast<char>(rng.uniform_int(0, 255));
      switch (rng.uniform_int(0, 2)) {
        case 0: bytes[at] = byte; break;
        case 1: bytes.erase(at, 1); break;
        default: bytes.insert(at, 1, byte); break;
      }
    }
    const std::string path = write_file(dir / "bad.swf.gz", bytes);
    expect_clean([&] { read_swf(path); }, "<gzip bytes>", outcome);
    expect_clean([&] { read_job_file(path); }, "<gzip bytes>", outcome);
  }
  EXPECT_GT(outcome.rejected, kRounds / 3);
}

TEST(GarbageInput, SacctReader) {
  const auto dir = scratch_dir("garbage-sacct");
  std::ifstream in(testing::source_path("tests/io/data/sacct_smalltree.txt"));
  const std::string dump((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(dump.empty());
  Rng rng(16);
  Outcome outcome;
  for (int i = 0; i < kRounds; ++i) {
    const std::string text = i % 10 == 0 ? "JobID|Submit|Start|End|NCPUS\n" + random_line(rng)
                                         : mutate(dump, rng);
    const std::string path = write_file(dir / "dump.txt", text);
    expect_clean([&] { load_workload_file(path); }, text, outcome);
  }
  std::cout << "accepted " << outcome.accepted << " rejected " << outcome.rejected << "\n";
  EXPECT_GT(outcome.rejected, kRounds / 10);
  EXPECT_GT(outcome.accepted, kRounds / 10);
}

TEST(GarbageInput, JobFile) {
  const auto dir = scratch_dir("garbage-jobs");
  Rng rng(12);
  Outcome outcome;
  for (int i = 0; i < kRounds; ++i) {
    const std::string text = i % 10 == 0 ? std::string(kJobFileHeader) + "\n" + random_line(rng)
                                         : mutate(kJobs, rng);
    const std::string path = write_file(dir / "f.jobs", text);
    expect_clean([&] { read_job_file(path); }, text, outcome);
  }
  std::cout << "accepted " << outcome.accepted << " rejected " << outcome.rejected << "\n";
  EXPECT_GT(outcome.rejected, kRounds / 4);
  EXPECT_GT(outcome.accepted, 0);
}

TEST(GarbageInput, SlurmConfWithGresAndTopology) {
  Rng rng(13);
  Outcome outcome;
  for (int i = 0; i < kRounds; ++i) {
    const auto dir = scratch_dir("garbage-conf");
    const int target = static_cast<int>(rng.uniform_int(0, 2));
    const std::string slurm = target == 0 ? mutate(kSlurm, rng) : kSlurm;
    const std::string gres = target == 1 ? mutate(kGres, rng) : kGres;
    const std::string topology = target == 2 ? mutate(kTopology, rng) : kTopology;
    const std::string path = write_file(dir / "slurm.conf", slurm);
    write_file(dir / "gres.conf", gres);
    write_file(dir / "topology.conf", topology);
    expect_clean([&] { load_slurm_conf(path); }, slurm + "--\n" + gres + "--\n" + topology,
                 outcome);
  }
  std::cout << "accepted " << outcome.accepted << " rejected " << outcome.rejected << "\n";
  EXPECT_GT(outcome.rejected, kRounds / 4);
  EXPECT_GT(outcome.accepted, 0);
}

TEST(GarbageInput, HostlistAndTime) {
  Rng rng(14);
  Outcome hosts, times;
  const InputLocation where{"fuzz", 1};
  for (int i = 0; i < kRounds * 4; ++i) {
    const std::string list = i % 5 == 0 ? random_line(rng) : mutate("a[01-16,20]b[1-2],c", rng);
    expect_clean([&] { expand_hostlist(list, where); }, list, hosts);
    const std::string time = i % 5 == 0 ? random_line(rng) : mutate("1-02:03:04", rng);
    expect_clean([&] { parse_slurm_time(time, where, "t", true); }, time, times);
  }
  EXPECT_GT(hosts.rejected, 0);
  EXPECT_GT(hosts.accepted, 0);
  EXPECT_GT(times.rejected, 0);
  EXPECT_GT(times.accepted, 0);
}

}  // namespace
}  // namespace hs
