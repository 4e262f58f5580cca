#include "gpupm/sweep/run_executor.h"

#include "gpupm/common/build_info.h"
#include "gpupm/common/fnv1a.h"
#include "gpupm/common/json_reader.h"
#include "gpupm/common/subprocess.h"
#include "gpupm/platform/run_setup.h"
#include "gpupm/program/program_workload.h"
#include "gpupm/report/report_writer.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

namespace gpupm {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool is_policy_set(const std::string& set) { return set.rfind("policy.", 0) == 0 || set.rfind("policy=", 0) == 0; }

// What loading a run reads from its GPU config and workload depends on
// everything but the policy and its settings: an experiment's runs of one
// program (a dozen policies and settings) load the same thing.
std::string load_key(const RunInputs& in) {
  std::string key = in.gpu_file + '\0' + in.pdn_file + '\0' + in.workload_file + '\0' + in.scale + '\0' +
                    (in.seed ? std::to_string(*in.seed) : "-");
  for (const std::string& set : in.sets)
    if (!is_policy_set(set)) key += '\0' + set;
  return key;
}

void add_if_file(std::set<std::string>& files, const std::string& path) {
  std::error_code ec;
  if (!path.empty() && fs::is_regular_file(path, ec)) files.insert(path);
}

// The files loading a run reads beyond its arguments: the GPU configs its
// config is based on, the PDN network file
// named inside the GPU config (which only a loaded run knows: --pdn, --set and
// the config's own text all may set it) and a program's source and inputs.
std::set<std::string> loaded_input_files(const RunInputs& in) {
  std::set<std::string> files;
  if (in.gpu_file.empty() || in.workload_file.empty()) return files;
  try {
    LoadedRun run = load_run(in);
    for (const std::string& f : run.gpu_files) add_if_file(files, f);
    add_if_file(files, run.gpu.pdn.network_file);
    for (const std::string& f : program_input_files(run.workload)) add_if_file(files, f);
  } catch (const std::exception&) {  // a bad run fails when it runs, with its own message
  }
  return files;
}

}  // namespace

// The files a `gpupm run` with these arguments reads: every argument naming a
// regular file (GPU config, workload, --pdn package), a file a --set value
// names, and what loading the run reads (loaded_input_files, once per load_key).
std::vector<std::string> InputDigests::files_of(const std::vector<std::string>& args) {
  const RunInputs in = run_inputs_of(args);
  const std::string key = load_key(in);
  auto loaded = loaded_files_.find(key);
  if (loaded == loaded_files_.end()) loaded = loaded_files_.emplace(key, loaded_input_files(in)).first;
  std::set<std::string> files = loaded->second;
  for (const std::string& a : args) add_if_file(files, a);
  for (const std::string& set : in.sets)
    if (set.find('=') != std::string::npos) add_if_file(files, set.substr(set.find('=') + 1));
  return {files.begin(), files.end()};
}

std::string InputDigests::fingerprint(const std::vector<std::string>& args) {
  const std::vector<std::string> files = files_of(args);
  std::string list;
  for (const std::string& f : files) list += f + '\0';
  auto known = digests_.find(list);
  if (known != digests_.end()) return known->second;
  uint64_t h = fnv1a("gpupm-inputs-v1");
  for (const std::string& f : files) h = fnv1a(read_all(f), fnv1a(f + '\0', h));
  return digests_.emplace(list, hex64(h)).first->second;
}

RunInputs run_inputs_of(const std::vector<std::string>& args) {
  RunInputs in;
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string& next = args[i + 1];
    if (a == "--gpu") in.gpu_file = next;
    if (a == "--workload") in.workload_file = next;
    if (a == "--pdn") in.pdn_file = next;
    if (a == "--policy") in.policy = next;
    if (a == "--scale") in.scale = next;
    if (a == "--set") in.sets.push_back(next);
    if (a == "--seed" && !next.empty() && next.find_first_not_of("0123456789") == std::string::npos)
      in.seed = std::strtoull(next.c_str(), nullptr, 10);
  }
  return in;
}

void pass_plugins(std::vector<RunSpec>& specs, const std::vector<std::string>& plugins) {
  for (RunSpec& s : specs)
    for (const std::string& p : plugins) s.args.insert(s.args.end(), {"--plugin", fs::absolute(p).string()});
}

void check_runs(const std::vector<RunSpec>& specs) {
  std::set<std::string> loaded;
  for (const RunSpec& spec : specs) {
    const RunInputs in = run_inputs_of(spec.args);
    if (loaded.insert(load_key(in)).second) {
      load_standalone_run(in);
      continue;
    }
    Json policy_only = {{"policy", {{"name", in.policy}}}};  // what a run sharing the load adds: its policy settings
    for (const std::string& set : in.sets)
      if (is_policy_set(set)) apply_override(policy_only, set, "--set");
  }
}

namespace {

// Writes `text` to path via a temporary file and a rename.
void write_atomic(const std::string& path, const std::string& text) {
  const fs::path p(path);
  write_outputs(p.has_parent_path() ? p.parent_path().string() : ".", {{p.filename().string(), text}});
}

int status_of(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return -1;
}

std::vector<char*> c_argv(std::vector<std::string>& argv) {
  std::vector<char*> v;
  for (auto& a : argv) v.push_back(a.data());
  v.push_back(nullptr);
  return v;
}

pid_t spawn_run(const std::string& binary, const RunSpec& spec, const std::string& dir) {
  std::vector<std::string> argv = {"gpupm", "run", "--quiet"};
  argv.insert(argv.end(), spec.args.begin(), spec.args.end());
  argv.push_back("--out");
  argv.push_back(dir);
  std::string log = dir + "/log.txt";
  std::vector<char*> cargv = c_argv(argv);
  const pid_t parent = ::getpid();
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid != 0) return pid;  // parent (or -1)
  // The run dies with the sweep, however the sweep ends (kill -9 included),
  // rather than simulate on as an orphan; it survives execv.
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != parent) ::_exit(128 + SIGTERM);  // the sweep died before prctl took effect
  int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::close(fd);
  }
  ::execv(binary.c_str(), cargv.data());
  std::fprintf(stderr, "gpupm: cannot execute %s: %s\n", binary.c_str(), std::strerror(errno));
  ::_exit(127);
}

// Runs a program (PATH lookup, no shell) and returns its exit status (128+N if
// killed by signal N, 127 if it cannot start); stdout then stderr in *out.
int capture(const std::vector<std::string>& argv, std::string* out) {
  try {
    SubprocessResult r = run_subprocess(argv);
    if (out) *out = r.stdout_text + r.stderr_text;
    return r.signal ? 128 + r.signal : r.exit_code;
  } catch (const SubprocessError& e) {
    if (out) *out = e.what();
    return 127;
  }
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

std::string join_args(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + shell_quote(a);
  return s;
}

// The progress line: done/total, failures, elapsed and an ETA from the runs
// simulated so far (reused ones cost nothing and are left out of the rate).
class ProgressLine {
 public:
  ProgressLine(bool on, size_t total, size_t reused) : on_(on), total_(total), reused_(reused), t0_(Clock::now()) {}
  void show(size_t done, size_t failed) {
    if (!on_) return;
    double el = std::chrono::duration<double>(Clock::now() - t0_).count();
    size_t ran = done - std::min(done, reused_);
    size_t left = total_ - done;
    std::string eta = ran ? std::to_string(long(el / double(ran) * double(left) + 0.5)) + " s" : "?";
    std::fprintf(stderr, "\r[gpupm] runs %zu/%zu  failed %zu  elapsed %.0f s  eta %s   ", done, total_, failed, el,
                 eta.c_str());
    std::fflush(stderr);
    shown_ = true;
  }
  ~ProgressLine() {
    if (shown_) std::fprintf(stderr, "\n");
  }

 private:
  bool on_;
  size_t total_, reused_;
  Clock::time_point t0_;
  bool shown_ = false;
};

// Says how many complete runs are stale or of other arguments, why, and what happens to them.
void report_earlier_runs(const std::map<rundir::State, size_t>& earlier, bool reuse) {
  for (const auto& [state, count] : earlier) {
    if (state == rundir::State::kOtherRun) {
      // Paths are arguments: a checkout, --out or cache folder moved since gives every run new ones.
      std::fprintf(stderr,
                   "gpupm: %zu run%s in the output folder hold%s the results of other arguments (a changed setting, "
                   "or a checkout, --out or cache folder at another path than when they ran); running again\n",
                   count, count == 1 ? "" : "s", count == 1 ? "s" : "");
      continue;
    }
    std::fprintf(stderr, "gpupm: %zu run%s stale: %s; %s\n", count, count == 1 ? "" : "s", rundir::stale_reason(state),
                 reuse ? "reused as they are (--reuse-stale)" : "running again (--reuse-stale keeps them)");
  }
}

// Fills in ids and dirs and marks complete runs reused; returns the indices still to run.
std::vector<size_t> plan(const std::vector<RunSpec>& specs, const std::string& out_dir, bool reuse_stale,
                         std::vector<RunOutcome>& out, std::vector<RunFingerprint>& fingerprints) {
  std::vector<size_t> todo;
  std::map<std::string, size_t> seen;
  std::map<rundir::State, size_t> earlier;  // complete runs not of this build, these inputs or arguments
  fingerprints.resize(specs.size());
  InputDigests digests;
  for (size_t i = 0; i < specs.size(); ++i) {
    if (!seen.emplace(specs[i].id, i).second) throw std::runtime_error("duplicate run id " + specs[i].id);
    out[i].id = specs[i].id;
    out[i].dir = (fs::path(out_dir) / "runs" / specs[i].id).string();
    fingerprints[i] = fingerprint_of(specs[i], digests);
    rundir::State st = rundir::state(out[i].dir, fingerprints[i]);
    if (rundir::stale(st) || st == rundir::State::kOtherRun) ++earlier[st];
    if (st == rundir::State::kComplete || (reuse_stale && rundir::stale(st))) {
      out[i].status = 0;
      out[i].reused = true;
    } else {
      todo.push_back(i);
    }
  }
  report_earlier_runs(earlier, reuse_stale);
  return todo;
}

void finish_outcome(RunOutcome& o, int status) {
  o.status = status;
  // A zero exit without a readable report counts as a failure (nothing to collect).
  if (o.status == 0 && !fs::exists(o.dir + "/report.json")) o.status = -1;
  if (o.status != 0) {
    o.log_tail = rundir::tail(o.dir + "/log.txt");
    if (o.log_tail.empty()) o.log_tail = "(no output in " + o.dir + "/log.txt)";
  }
}

std::vector<RunOutcome> run_local(const std::vector<RunSpec>& specs, const std::string& out_dir,
                                  const ExecutorOptions& opt, bool progress) {
  std::vector<RunOutcome> out(specs.size());
  std::vector<RunFingerprint> fingerprints;
  std::vector<size_t> todo = plan(specs, out_dir, opt.reuse_stale, out, fingerprints);
  // A forked run execs the image it was forked from (/proc/self/exe follows the inode), so a rebuild
  // of the program during a long sweep neither breaks the runs it starts later nor mixes builds.
  const std::string binary = opt.binary.empty() ? "/proc/self/exe" : opt.binary;
  const int jobs = std::max(1, opt.jobs > 0 ? opt.jobs : default_jobs());
  size_t done = specs.size() - todo.size(), failed = 0;
  ProgressLine line(progress, specs.size(), done);
  std::map<pid_t, size_t> running;
  size_t next = 0;
  line.show(done, failed);
  while (next < todo.size() || !running.empty()) {
    while (next < todo.size() && int(running.size()) < jobs) {
      size_t i = todo[next++];
      rundir::prepare(out[i].dir, fingerprints[i]);
      pid_t pid = spawn_run(binary, specs[i], out[i].dir);
      if (pid < 0) {
        out[i].log_tail = std::string("fork failed: ") + std::strerror(errno);  // before write_status touches errno
        rundir::write_status(out[i].dir, -1);
        out[i].status = -1;
        ++done;
        ++failed;
        continue;
      }
      running[pid] = i;
    }
    if (running.empty()) continue;
    int st = 0;
    struct rusage usage {};
    pid_t pid = ::wait4(-1, &st, 0, &usage);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;  // no children left: should not happen
    }
    auto it = running.find(pid);
    if (it == running.end()) continue;
    RunOutcome& o = out[it->second];
    running.erase(it);
    rundir::write_cpu_seconds(o.dir, cpu_seconds_of(usage));
    rundir::write_status(o.dir, status_of(st));
    finish_outcome(o, status_of(st));
    failed += o.status != 0;
    ++done;
    line.show(done, failed);
  }
  return out;
}

// True while any task of the job is pending or running (false once squeue no longer knows it).
bool slurm_job_active(const std::string& job, int* errors) {
  std::string text;
  int rc = capture({"squeue", "-h", "-j", job, "-o", "%i %T"}, &text);
  if (rc == 0) {
    *errors = 0;
    return !trim(text).empty();
  }
  // After the job has left the controller's memory squeue says "Invalid job id".
  if (text.find("nvalid job id") != std::string::npos) return false;
  if (++*errors >= 30) throw std::runtime_error("squeue keeps failing: " + trim(text));
  return true;
}

std::vector<RunOutcome> run_slurm(const std::vector<RunSpec>& specs, const std::string& out_dir,
                                  const ExecutorOptions& opt, bool progress) {
  const fs::path sdir = fs::absolute(fs::path(out_dir) / "slurm");
  auto period = std::chrono::milliseconds(long(std::max(0.05, opt.slurm.poll_seconds) * 1000));
  int squeue_errors = 0;
  // An array submitted by an earlier, interrupted sweep into DIR may still be
  // running: wait for it rather than submit the same runs twice.
  const std::string old_job = trim(read_all((sdir / "job_id").string()));
  if (!old_job.empty() && slurm_job_active(old_job, &squeue_errors)) {
    std::fprintf(stderr, "[gpupm] waiting for Slurm job %s (submitted earlier into %s)\n", old_job.c_str(),
                 out_dir.c_str());
    while (slurm_job_active(old_job, &squeue_errors)) std::this_thread::sleep_for(period);
  }
  std::vector<RunOutcome> out(specs.size());
  std::vector<RunFingerprint> fingerprints;
  std::vector<size_t> todo = plan(specs, out_dir, opt.reuse_stale, out, fingerprints);
  if (todo.empty()) return out;
  const std::string binary = fs::absolute(opt.binary.empty() ? self_executable() : opt.binary).string();
  fs::create_directories(sdir);
  const std::string manifest = (sdir / "manifest.txt").string();
  const std::string script = (sdir / "array.sh").string();
  std::string lines;
  for (size_t i : todo) {
    rundir::prepare(out[i].dir, fingerprints[i]);
    lines += manifest_line(specs[i]) + "\n";
  }
  write_atomic(manifest, lines);
  write_atomic(script, slurm_task_script(binary, manifest, fs::absolute(fs::path(out_dir) / "runs").string()));
  fs::permissions(script, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);

  const SlurmOptions& so = opt.slurm;
  auto common = [&](std::vector<std::string>& a) {
    if (!so.partition.empty()) a.push_back("--partition=" + so.partition);
    if (!so.time_limit.empty()) a.push_back("--time=" + so.time_limit);
    a.insert(a.end(), so.extra_args.begin(), so.extra_args.end());
  };
  std::string range = "0-" + std::to_string(todo.size() - 1);
  if (so.throttle > 0) range += "%" + std::to_string(so.throttle);
  std::vector<std::string> sbatch = {"sbatch", "--parsable", "--array=" + range, "--job-name=" + so.job_name,
                                     "--output=" + (sdir / "task-%A_%a.out").string()};
  common(sbatch);
  sbatch.push_back(script);
  std::string text;
  int rc = capture(sbatch, &text);
  std::string job = trim(text.substr(0, text.find(';')));
  if (rc != 0 || job.empty() || job.find_first_not_of("0123456789") != std::string::npos)
    throw std::runtime_error("sbatch failed (exit " + std::to_string(rc) + "): " + join_args(sbatch) + "\n" +
                             trim(text));
  write_atomic((sdir / "job_id").string(), job + "\n");
  std::fprintf(stderr, "[gpupm] submitted Slurm array job %s (%zu tasks; manifest %s)\n", job.c_str(), todo.size(),
               manifest.c_str());

  if (!so.detach_collect_command.empty()) {
    std::vector<std::string> collect = {"sbatch", "--parsable", "--dependency=afterany:" + job,
                                        "--job-name=" + so.job_name + "-collect",
                                        "--output=" + (sdir / "collect-%j.out").string()};
    common(collect);
    collect.push_back("--wrap=" + so.detach_collect_command);
    rc = capture(collect, &text);
    if (rc != 0) throw std::runtime_error("sbatch (collect job) failed: " + trim(text));
    std::fprintf(stderr, "[gpupm] submitted collect job %s (runs after %s)\n", trim(text).c_str(), job.c_str());
    for (size_t i : todo) out[i].submitted = true;
    return out;
  }

  // Poll until no task of the array is pending or running.
  ProgressLine line(progress, specs.size(), specs.size() - todo.size());
  while (slurm_job_active(job, &squeue_errors)) {
    if (progress) {
      size_t done = specs.size() - todo.size(), failed = 0;
      for (size_t i : todo) {
        std::string s = trim(read_all(out[i].dir + "/exit_status"));
        if (s.empty()) continue;
        ++done;
        failed += s != "0";
      }
      line.show(done, failed);
    }
    std::this_thread::sleep_for(period);
  }
  for (size_t i : todo) {
    RunOutcome r = rundir::read(out[i].id, out[i].dir);
    finish_outcome(out[i], r.status);
    if (r.status == -1)
      out[i].log_tail = "no exit status: the array task did not finish (see " +
                        (sdir / ("task-" + job + "_*.out")).string() + ")\n" + out[i].log_tail;
  }
  return out;
}

}  // namespace

std::string RunFingerprint::text() const { return "run " + run + "\nbuild " + build + "\ninputs " + inputs + "\n"; }

RunFingerprint RunFingerprint::parse(const std::string& text) {
  RunFingerprint f;
  std::istringstream in(text);
  std::string key, value;
  while (in >> key >> value) {
    if (key == "run") f.run = value;
    if (key == "build") f.build = value;
    if (key == "inputs") f.inputs = value;
  }
  return f;
}

std::string args_fingerprint(const RunSpec& spec) {
  uint64_t h = fnv1a("gpupm-run-v2");
  for (const std::string& a : spec.args) h = fnv1a(a + '\0', h);
  return hex64(h);
}

std::string input_files_fingerprint(const std::vector<std::string>& args) { return InputDigests().fingerprint(args); }

RunFingerprint fingerprint_of(const RunSpec& spec, InputDigests& digests) {
  return {spec.fingerprint.empty() ? args_fingerprint(spec) : spec.fingerprint, gpupm_build_id(),
          digests.fingerprint(spec.args)};
}

RunFingerprint fingerprint_of(const RunSpec& spec) {
  InputDigests digests;
  return fingerprint_of(spec, digests);
}

namespace rundir {

namespace {
bool report_complete(const std::string& dir) {
  std::ifstream f(dir + "/report.json");
  if (!f) return false;
  nlohmann::json j = nlohmann::json::parse(f, nullptr, false);
  return j.is_object() && j.contains("total") && j["total"].is_object() && j["total"].contains("sim_time_s");
}
}  // namespace

State state(const std::string& dir, const RunFingerprint& want) {
  if (!report_complete(dir)) return State::kMissing;
  const std::string text = read_all(dir + "/inputs.fingerprint");
  const RunFingerprint have = RunFingerprint::parse(text);
  // A bare digest is the fingerprint of a gpupm from before provenance.
  if (have.run.empty()) return trim(text).empty() ? State::kMissing : State::kStaleBuild;
  if (have.run != want.run) return State::kOtherRun;
  if (have.build != want.build) return State::kStaleBuild;
  if (have.inputs != want.inputs) return State::kStaleInputs;
  return State::kComplete;
}

const char* stale_reason(State s) {
  return s == State::kStaleBuild    ? "built by a different gpupm"
         : s == State::kStaleInputs ? "an input file changed"
                                    : "";
}

bool stale(State s) { return s == State::kStaleBuild || s == State::kStaleInputs; }

bool complete(const std::string& dir, const RunFingerprint& fingerprint, bool reuse_stale) {
  State s = state(dir, fingerprint);
  return s == State::kComplete || (reuse_stale && stale(s));
}

void prepare(const std::string& dir, const RunFingerprint& fingerprint) {
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(dir)) fs::remove_all(e.path());  // no output of an earlier run stays
  write_atomic(dir + "/inputs.fingerprint", fingerprint.text());
}

void write_status(const std::string& dir, int status) {
  write_atomic(dir + "/exit_status", std::to_string(status) + "\n");
}

void write_cpu_seconds(const std::string& dir, double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f\n", seconds);
  write_atomic(dir + "/cpu_seconds", text);
}

double cpu_seconds(const std::string& dir) {
  const std::string text = trim(read_all(dir + "/cpu_seconds"));
  char* end = nullptr;
  const double s = std::strtod(text.c_str(), &end);
  return !text.empty() && *end == '\0' && s >= 0 ? s : -1;
}

RunOutcome read(const std::string& id, const std::string& dir) {
  RunOutcome o;
  o.id = id;
  o.dir = dir;
  std::string s = trim(read_all(dir + "/exit_status"));
  if (!s.empty() && s.find_first_not_of("-0123456789") == std::string::npos) o.status = std::stoi(s);
  if (o.status == 0 && !fs::exists(dir + "/report.json")) o.status = -1;
  if (o.status != 0) o.log_tail = tail(dir + "/log.txt");
  return o;
}

std::string tail(const std::string& file, size_t lines) {
  std::string text = read_all(file);
  std::vector<std::string> all;
  std::string cur;
  for (char c : text) {
    if (c == '\n' || c == '\r') {  // \r: progress lines
      if (!trim(cur).empty()) all.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) all.push_back(cur);
  std::string out;
  for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) out += all[i] + "\n";
  return out;
}

}  // namespace rundir

void lock_output_dir(const std::string& out_dir) {
  static std::set<std::string> held;  // an experiment runs several batches into one directory
  if (!held.insert(fs::weakly_canonical(out_dir).string()).second) return;
  const std::string path = (fs::path(out_dir) / "sweep.lock").string();
  // O_CLOEXEC: runs started later must not inherit (and outlive us holding) the lock.
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError(out_dir, "", "cannot create " + path + ": " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const std::string holder = trim(read_all(path));
    ::close(fd);
    throw InputError(out_dir, "",
                     "another gpupm sweep or experiment (pid " + (holder.empty() ? "unknown" : holder) +
                         ") is running in this directory; expected a directory no live sweep holds "
                         "(wait for it, or choose another --out)");
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || ::write(fd, pid.data(), pid.size()) != ssize_t(pid.size()))
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  // fd stays open: the lock lasts as long as this process, and ends with it however it ends.
}

int default_jobs() {
  long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? int(n) : 1;
}

std::string self_executable() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("/proc/self/exe") : p.string();
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+./=:,@%") ==
                        std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string manifest_line(const RunSpec& spec) { return spec.id + "\t" + join_args(spec.args); }

std::string slurm_task_script(const std::string& gpupm, const std::string& manifest, const std::string& runs_dir) {
  std::ostringstream s;
  s << "#!/bin/bash\n"
       "# One array task of a gpupm sweep: runs line SLURM_ARRAY_TASK_ID+1 of the manifest\n"
       "# (\"<id>\\t<shell-quoted gpupm run arguments>\") into runs/<id>/.\n"
       "set -u\n"
       "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" "
    << shell_quote(manifest)
    << ")\n"
       "[ -n \"$line\" ] || { echo \"no line $((SLURM_ARRAY_TASK_ID + 1)) in the manifest\" >&2; exit 2; }\n"
       "id=${line%%$'\\t'*}\n"
       "eval \"set -- ${line#*$'\\t'}\"\n"
       "dir="
    << shell_quote(runs_dir)
    << "/$id\n"
       "mkdir -p \"$dir\"\n"
    << shell_quote(gpupm)
    << " run --quiet \"$@\" --out \"$dir\" >\"$dir/log.txt\" 2>&1\n"
       "rc=$?\n"
       "echo \"$rc\" >\"$dir/exit_status.tmp$$\" && mv \"$dir/exit_status.tmp$$\" \"$dir/exit_status\"\n"
       "exit \"$rc\"\n";
  return s.str();
}

std::vector<RunOutcome> execute_runs(const std::vector<RunSpec>& specs, const std::string& out_dir,
                                     const ExecutorOptions& opt, bool progress) {
  if (opt.kind == "local") return run_local(specs, out_dir, opt, progress);
  if (opt.kind == "slurm") return run_slurm(specs, out_dir, opt, progress);
  throw std::runtime_error("unknown executor \"" + opt.kind + "\"; expected local or slurm");
}

}  // namespace gpupm
