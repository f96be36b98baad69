#include "core/trace/live_registry.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace cs::trace {

namespace {
bool pidAlive(std::int64_t pid) {
    if (pid <= 0) return false;
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

// Entry files are "key=value" lines; a newline inside a value is replaced so one entry stays one
// record per key.
std::string oneLine(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
}

bool parseInt(const std::string& s, std::int64_t& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno || *end) return false;
    out = v;
    return true;
}
}  // namespace

std::string liveRegistryDir() {
    std::string dir;
    if (const char* x = std::getenv("XDG_RUNTIME_DIR"); x && *x) dir = std::string(x) + "/compilescope";
    else dir = "/tmp/compilescope-" + std::to_string(::getuid());
    ::mkdir(dir.c_str(), 0700);
    struct stat st{};
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) return "";
    if ((st.st_mode & 0777) != 0700) ::chmod(dir.c_str(), 0700);
    return dir;
}

bool LiveRegistration::publish(const LiveRecording& rec, const std::string& dir) {
    remove();
    if (dir.empty()) return false;
    const std::string entry = dir + "/" + std::to_string(rec.pid) + ".live";
    const std::string tmp = entry + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << "pid=" << rec.pid << "\n"
            << "trace=" << oneLine(rec.trace) << "\n"
            << "command=" << oneLine(rec.command) << "\n"
            << "start_unix_ns=" << rec.startUnixNs << "\n"
            << "socket=" << oneLine(rec.socket) << "\n";
        if (!out) return false;
    }
    if (std::rename(tmp.c_str(), entry.c_str()) != 0) {
        std::remove(tmp.c_str());
        return false;
    }
    m_entry = entry;
    return true;
}

void LiveRegistration::remove() {
    if (m_entry.empty()) return;
    std::remove(m_entry.c_str());
    m_entry.clear();
}

std::vector<LiveRecording> listLiveRecordings(const std::string& dir) {
    std::vector<LiveRecording> out;
    if (dir.empty()) return out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
        if (e.path().extension() != ".live") continue;
        std::ifstream in(e.path());
        LiveRecording rec;
        rec.entryPath = e.path().string();
        std::string line;
        bool hasPid = false;
        while (std::getline(in, line)) {
            auto eq = line.find('=');
            if (eq == std::string::npos) continue;
            std::string key = line.substr(0, eq), value = line.substr(eq + 1);
            if (key == "pid") hasPid = parseInt(value, rec.pid);
            else if (key == "trace") rec.trace = value;
            else if (key == "command") rec.command = value;
            else if (key == "start_unix_ns") parseInt(value, rec.startUnixNs);
            else if (key == "socket") rec.socket = value;
        }
        if (!hasPid || rec.trace.empty()) continue;  // malformed: not ours to interpret
        if (!pidAlive(rec.pid)) {
            std::filesystem::remove(e.path(), ec);  // stale: its recorder died without cleaning up
            continue;
        }
        out.push_back(std::move(rec));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.startUnixNs < b.startUnixNs; });
    return out;
}

std::vector<std::string> liveRegistrySearchDirs() {
    const std::string uid = std::to_string(::getuid());
    std::vector<std::string> candidates;
    if (const char* x = std::getenv("XDG_RUNTIME_DIR"); x && *x) candidates.push_back(std::string(x) + "/compilescope");
    candidates.push_back("/run/user/" + uid + "/compilescope");
    candidates.push_back("/tmp/compilescope-" + uid);
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& c : candidates) {
        struct stat st{};
        if (::lstat(c.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) continue;
        const std::string canonical = std::filesystem::weakly_canonical(c, ec).string();
        if (std::find(out.begin(), out.end(), canonical) == out.end()) out.push_back(canonical);
    }
    return out;
}

std::vector<LiveRecording> findLiveRecordings() {
    std::vector<LiveRecording> all;
    for (const auto& dir : liveRegistrySearchDirs())
        for (auto& r : listLiveRecordings(dir)) {
            bool dup = false;
            for (const auto& o : all) dup = dup || (o.pid == r.pid && o.trace == r.trace);
            if (!dup) all.push_back(std::move(r));
        }
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.startUnixNs < b.startUnixNs; });
    return all;
}

}  // namespace cs::trace
