// `compilescope record -o TRACE -- CMD ARGS`: runs CMD with a recorder attached.
//
// Why it is built like this: the launcher starts compilescope-recorder (which owns the SQLite trace)
// and then CMD with COMPILESCOPE_SOCKET in its environment, so every process of the job that loads
// the collector (the command, its fork and exec children, Python or Julia bindings) records into the
// same trace as its own session. The launcher never breaks the job: when the recorder cannot start
// (unwritable path, no recorder binary) it prints ONE warning and runs CMD unrecorded; its exit
// status is always CMD's (128 + signal when CMD was killed). The recorder gets its own process
// group, so a terminal Ctrl-C stops the job but not the recording; the launcher then closes the
// recorder's control pipe, which makes it finish the trace.
#include "command.h"
#include "record_cuda.h"
#include "record_losses.h"

#include "app/recorder/exit_codes.h"
#include "core/measure/warp_inject.h"
#include "core/trace/live_registry.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace cs::cli {

namespace {
volatile pid_t g_job = 0;
void forwardSignal(int sig) {
    if (g_job > 0) ::kill(g_job, sig);
}

std::string selfDir() {
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string(".") : exe.parent_path().string();
}

std::string firstExisting(std::initializer_list<std::string> candidates, int mode) {
    for (const auto& c : candidates)
        if (!c.empty() && ::access(c.c_str(), mode) == 0) return c;
    return "";
}

std::string findRecorder() {
    if (const char* e = std::getenv("COMPILESCOPE_RECORDER"); e && *e) return e;
    const std::string dir = selfDir();
    return firstExisting({dir + "/compilescope-recorder", dir + "/../libexec/compilescope-recorder"}, X_OK);
}

std::string findCollectorLibrary() {
    if (const char* e = std::getenv("COMPILESCOPE_LIBRARY"); e && *e) return e;
    const std::string dir = selfDir();
    return firstExisting({dir + "/../collectors/libcompilescope_collector.so", dir + "/../lib/libcompilescope_collector.so"},
                         R_OK);
}

// --warp / --numba / --torch / --jax: the Python package compilescope (collectors/python) beside a build or an install tree,
// wherever that tree is.
std::string findPythonPackage() {
    if (const char* e = std::getenv("COMPILESCOPE_PYTHON_PACKAGE"); e && *e) return e;
    const std::string dir = selfDir();
    // An install: PREFIX/bin/../share; a build tree: BUILD/app/../share (a link made by app/CMakeLists.txt).
    const std::string c = dir + "/../share/compilescope/python";
    if (::access((c + "/compilescope/warp.py").c_str(), R_OK) == 0) return std::filesystem::weakly_canonical(c).string();
    return "";
}

// --warp / --numba / --torch / --jax: a private directory holding the sitecustomize that installs
// compilescope.warp / .numba / .torch / .jax once the job imports that package. Returns "" (and says why) when it cannot be
// made; the job then runs without it.
std::string makePythonInjection(CommandIo& io, const engine::warp::PythonCollectors& which) {
    std::string dir = (std::filesystem::temp_directory_path() / "compilescope-python-XXXXXX").string();
    if (!::mkdtemp(dir.data())) {
        io.err << "compilescope record: --warp / --numba / --torch / --jax: cannot create a temporary directory; recording "
                  "without it\n";
        return "";
    }
    std::ofstream(dir + "/sitecustomize.py") << engine::warp::collectorSiteCustomize(which);
    return dir;
}

struct Recorder {
    pid_t pid = -1;
    int control = -1;
};

// Starts the recorder and waits for its "ok". On failure returns pid -1 and sets `why`.
Recorder startRecorder(const std::string& output, const std::string& socketPath, const std::string& command,
                       int waitChildrenSeconds, std::string& why) {
    Recorder r;
    const std::string exe = findRecorder();
    if (exe.empty()) {
        why = "compilescope-recorder not found next to compilescope (set COMPILESCOPE_RECORDER)";
        return r;
    }
    int ready[2], control[2];
    if (::pipe2(ready, O_CLOEXEC) != 0 || ::pipe2(control, O_CLOEXEC) != 0) {
        why = std::strerror(errno);
        return r;
    }
    std::vector<std::string> args = {exe, "--output", output, "--socket", socketPath, "--force", "--ready-fd", "3",
                                     "--control-fd", "0", "--command", command, "--finish-grace-ms",
                                     std::to_string(waitChildrenSeconds * 1000)};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, control[0], 0);
    posix_spawn_file_actions_adddup2(&fa, ready[1], 3);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    int rc = posix_spawn(&r.pid, exe.c_str(), &fa, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    ::close(ready[1]);
    ::close(control[0]);
    if (rc != 0) {
        ::close(ready[0]);
        ::close(control[1]);
        why = "cannot start " + exe + ": " + std::strerror(rc);
        r.pid = -1;
        return r;
    }
    std::string answer;
    char buf[512];
    pollfd p{ready[0], POLLIN, 0};
    while (::poll(&p, 1, 10000) > 0) {
        ssize_t n = ::read(ready[0], buf, sizeof buf);
        if (n <= 0) break;
        answer.append(buf, static_cast<std::size_t>(n));
    }
    ::close(ready[0]);
    while (!answer.empty() && answer.back() == '\n') answer.pop_back();
    if (answer != "ok") {
        why = answer.empty() ? "the recorder did not start" : answer;
        ::close(control[1]);
        int st;
        ::waitpid(r.pid, &st, 0);
        r.pid = -1;
        return r;
    }
    r.control = control[1];
    return r;
}

// --wait-children SECONDS: 0 .. 86400, else -1.
int parseWaitChildren(const std::string& text) {
    if (text.empty() || text.size() > 5 || text.find_first_not_of("0123456789") != std::string::npos) return -1;
    const int n = std::stoi(text);
    return n <= 86400 ? n : -1;
}

int statusOf(int st) { return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1; }

int listLive(CommandIo& io) {
    auto live = trace::findLiveRecordings();
    if (live.empty()) {
        std::string dirs;
        for (const auto& d : trace::liveRegistrySearchDirs()) dirs += (dirs.empty() ? "" : ", ") + d;
        io.out << "no live recordings (looked in " << (dirs.empty() ? "no registry directory: none exists yet" : dirs) << ")\n";
        return Exit::Ok;
    }
    for (const auto& r : live) io.out << r.pid << "\t" << r.trace << "\t" << r.command << "\n";
    return Exit::Ok;
}

// What `record` was asked: the trace, the command and the collectors to inject.
struct RecordOptions {
    std::string output;
    std::vector<std::string> cmd;
    engine::warp::PythonCollectors python;
    bool cuda = false;
    int waitChildren = 2;  // seconds the recorder waits for processes that outlive the job
};

// Reads the arguments into `o`; an exit status when `record` ends here (--list, a usage error).
std::optional<int> parseRecordArgs(const std::vector<std::string>& args, CommandIo& io, RecordOptions& o) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--list") return listLive(io);
        if (a == "--cuda") {
            o.cuda = true;
            continue;
        }
        if ((a == "-o" || a == "--output") && i + 1 < args.size()) {
            o.output = args[++i];
        } else if (a == "--wait-children" && i + 1 < args.size()) {
            o.waitChildren = parseWaitChildren(args[++i]);
            if (o.waitChildren < 0) return usageError(io, "record", "--wait-children takes whole seconds, 0 to 86400");
        } else if (a == "--warp") {
            o.python.warp = true;
        } else if (a == "--numba") {
            o.python.numba = true;
        } else if (a == "--torch") {
            o.python.torch = true;
        } else if (a == "--jax") {
            o.python.jax = true;
        } else if (a == "--") {
            o.cmd.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
            break;
        } else if (!a.empty() && a[0] == '-') {
            return usageError(io, "record", "unknown option '" + a + "'");
        } else {
            o.cmd.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
            break;
        }
    }
    if (o.output.empty()) return usageError(io, "record", "missing -o TRACE");
    if (o.cmd.empty()) return usageError(io, "record", "missing the command to run after --");
    return std::nullopt;
}

// --warp / --numba / --torch / --jax: the collector package and the sitecustomize that installs it
// (once the program imports that package) go first on PYTHONPATH. Returns that PYTHONPATH ("" for
// none) and sets `injectDir` to the directory to remove afterwards.
std::string pythonInjection(CommandIo& io, const engine::warp::PythonCollectors& python, std::string& injectDir) {
    std::string pythonPath;
    if (python.any()) {
        std::string package = findPythonPackage();
        if (package.empty())
            io.err << "compilescope record: --warp / --numba / --torch / --jax: the compilescope Python package was not found (set "
                      "COMPILESCOPE_PYTHON_PACKAGE); recording without it\n";
        else if (injectDir = makePythonInjection(io, python); !injectDir.empty())
            pythonPath = injectDir + ":" + package;
    }
    return pythonPath;
}

// The job's environment: where the recorder listens (or, without one, that nothing records).
std::vector<std::string> jobEnvironment(const RecordOptions& o, const Recorder& rec, const std::string& socketPath,
                                        const std::string& why, std::string pythonPath, CommandIo& io) {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        std::string_view v(*e);
        if (!pythonPath.empty() && v.starts_with("PYTHONPATH=")) {
            if (v.size() > 11) pythonPath += ":" + std::string(v.substr(11));
            continue;
        }
        if (v.starts_with("COMPILESCOPE_SOCKET=") || v.starts_with("COMPILESCOPE_OUTPUT=") ||
            v.starts_with("COMPILESCOPE_DISABLE="))
            continue;
        env.emplace_back(v);
    }
    if (rec.pid > 0) {
        env.push_back("COMPILESCOPE_SOCKET=" + socketPath);
        if (!std::getenv("COMPILESCOPE_LIBRARY"))
            if (auto lib = findCollectorLibrary(); !lib.empty()) env.push_back("COMPILESCOPE_LIBRARY=" + lib);
    } else {
        io.err << "compilescope record: cannot record to " << o.output << ": " << why
               << "; running the command without recording\n";
        io.err.flush();
        env.push_back("COMPILESCOPE_DISABLE=1");
    }
    if (!pythonPath.empty()) env.push_back("PYTHONPATH=" + pythonPath);
    if (o.cuda && rec.pid > 0)
        for (const auto& w : addCudaEnvironment(env)) io.err << "compilescope record: " << w << "\n";
    return env;
}

// Runs the job and waits for it; returns its status (127 when it could not start) and tells the
// recorder how it ended. While the job runs the launcher only waits: terminal signals reach the job
// (same process group); a SIGTERM sent to the launcher is passed on. SIGPIPE stays ignored (a killed
// recorder must not take the launcher with it); its old action is left in `oldPipe`.
int runJob(std::vector<std::string>& cmd, std::vector<std::string>& env, const Recorder& rec, CommandIo& io,
           struct sigaction& oldPipe) {
    std::vector<char*> envp, argv;
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    for (auto& c : cmd) argv.push_back(c.data());
    argv.push_back(nullptr);
    struct sigaction ignore{}, forward{}, oldInt{}, oldQuit{}, oldTerm{};
    ignore.sa_handler = SIG_IGN;
    forward.sa_handler = forwardSignal;
    ::sigaction(SIGINT, &ignore, &oldInt);
    ::sigaction(SIGQUIT, &ignore, &oldQuit);
    ::sigaction(SIGPIPE, &ignore, &oldPipe);
    ::sigaction(SIGTERM, &forward, &oldTerm);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGQUIT);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
    pid_t job = -1;
    int rc = posix_spawnp(&job, argv[0], nullptr, &attr, argv.data(), envp.data());
    posix_spawnattr_destroy(&attr);
    int status = 127;
    if (rc != 0) {
        io.err << "compilescope record: cannot run '" << cmd[0] << "': " << std::strerror(rc) << "\n";
    } else {
        g_job = job;
        int st = 0;
        while (::waitpid(job, &st, 0) < 0 && errno == EINTR) {
        }
        g_job = 0;
        status = statusOf(st);
        if (rec.control >= 0 && (WIFEXITED(st) || WIFSIGNALED(st))) {
            // The recorder stores it in the job's session: exit status, or minus the signal.
            std::string line = WIFEXITED(st) ? "exit " + std::to_string(job) + " " + std::to_string(status) + "\n"
                                             : "signal " + std::to_string(job) + " " + std::to_string(WTERMSIG(st)) + "\n";
            ssize_t ignored = ::write(rec.control, line.data(), line.size());
            (void)ignored;
        }
    }
    ::sigaction(SIGINT, &oldInt, nullptr);
    ::sigaction(SIGQUIT, &oldQuit, nullptr);
    ::sigaction(SIGTERM, &oldTerm, nullptr);
    return status;
}

// Closes the recorder's control pipe (it finishes the trace), waits for it and says what it lost.
void finishRecorder(const RecordOptions& o, const Recorder& rec, const std::string& socketPath, CommandIo& io) {
    struct sigaction none{};
    none.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &none, nullptr);
    ::close(rec.control);  // EOF: the recorder finishes the trace
    int st = 0;
    while (::waitpid(rec.pid, &st, 0) < 0 && errno == EINTR) {
    }
    ::unlink(socketPath.c_str());  // a killed recorder cannot remove it itself
    // kExitWriteFailed: the recorder has already said why, in the one warning.
    if (!WIFEXITED(st) || (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != recorder::kExitWriteFailed))
        io.err << "compilescope record: the recorder ended abnormally (" << statusOf(st)
               << "); " << o.output << " keeps what was committed\n";
    else {
        if (WEXITSTATUS(st) == 0) reportRecordingLosses(o.output, io.err);
        if (o.cuda) checkCudaHandshake(o.output, io.err);
    }
}

int runRecord(const std::vector<std::string>& args, CommandIo& io) {
    RecordOptions o;
    if (std::optional<int> done = parseRecordArgs(args, io, o)) return *done;
    std::string command;
    for (const auto& c : o.cmd) command += (command.empty() ? "" : " ") + c;
    std::string why;
    const std::string dir = trace::liveRegistryDir();
    const std::string socketPath = dir + "/rec-" + std::to_string(::getpid()) + ".sock";
    Recorder rec;
    if (dir.empty()) why = "no private runtime directory for the recorder's socket";
    else rec = startRecorder(o.output, socketPath, command, o.waitChildren, why);
    std::string injectDir;
    const std::string pythonPath = pythonInjection(io, o.python, injectDir);
    std::vector<std::string> env = jobEnvironment(o, rec, socketPath, why, pythonPath, io);
    struct sigaction oldPipe{};
    const int status = runJob(o.cmd, env, rec, io, oldPipe);
    if (rec.pid > 0) finishRecorder(o, rec, socketPath, io);
    ::sigaction(SIGPIPE, &oldPipe, nullptr);
    if (!injectDir.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(injectDir, ec);
    }
    return status;
}
}  // namespace

Command recordCommand() {
    return {"record", "run a command and record what its collectors report into a trace",
            "Usage: compilescope record -o TRACE [--warp] [--numba] [--torch] [--jax] [--cuda] [--wait-children SECONDS]\n"
            "                          [--] CMD [ARGS...]\n"
            "       compilescope record --list\n\n"
            "Starts compilescope-recorder writing TRACE (an existing file is replaced), then runs CMD with\n"
            "COMPILESCOPE_SOCKET set so that every process of CMD that uses the collector (C API, Python\n"
            "or Julia binding, fork and exec children included) records into TRACE as its own session.\n"
            "The exit status is CMD's (128 + signal number when CMD was killed). When TRACE cannot be\n"
            "written, one warning is printed and CMD runs unrecorded.\n"
            "--warp records NVIDIA Warp's module loads from Python jobs: the compilescope package and a\n"
            "sitecustomize that runs compilescope.warp.install() once the job imports warp go first on\n"
            "PYTHONPATH (a private temporary directory, removed afterwards).\n"
            "--numba records Numba's compiles and disk-cache loads the same way (compilescope.numba.install()\n"
            "once the job imports numba); the job needs no change.\n"
            "--torch records torch.compile's structured trace (compiles, phases, FX graph and AOT autograd\n"
            "cache lookups with their key components) through compilescope.torch.install() once the job\n"
            "imports torch (PyTorch 2.2 or later); --jax turns on jax_explain_cache_misses and records\n"
            "tracing-cache misses, persistent-cache traffic and compile times (compilescope.jax.install()).\n"
            "--list prints the recordings in progress for this user (pid, trace, command).\n"
            "--cuda also records CUDA: NVRTC / nvJitLink compiles through an LD_PRELOAD interposer and\n"
            "driver JIT, module loads and kernel launches through CUPTI (CUDA_INJECTION64_PATH); warns\n"
            "when no CUPTI handshake arrived (see docs/cuda.md).\n"
            "--wait-children SECONDS: after CMD ended, how long to wait for its processes that still record\n"
            "(default 2); what those still hold when the recording finishes is counted as dropped.\n"
            "When events were dropped, one line on stderr says how many, why, and what to set.\n"
            "Environment for the job: COMPILESCOPE_BUFFER_POLICY=wait|block|drop, COMPILESCOPE_BUFFER_KB,\n"
            "COMPILESCOPE_WAIT_MS, COMPILESCOPE_FLUSH_MS (see docs/collector.md).\n",
            runRecord};
}

}  // namespace cs::cli
