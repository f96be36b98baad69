#include "core/measure/warp_measure.h"
#include "core/measure/noise_band.h"

#include "core/formats/warp_log_lines.h"
#include "core/measure/warp_inject.h"
#include "core/util/json_writer.h"
#include "core/util/subprocess.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

namespace cs::engine::warp {

namespace fs = std::filesystem;

namespace {
std::string makeScratchDir() {
    std::string templ = (fs::temp_directory_path() / "compilescope-measure-XXXXXX").string();
    if (!::mkdtemp(templ.data())) throw std::runtime_error("cannot create a temporary directory under " + fs::temp_directory_path().string());
    return templ;
}

// Files in a cache directory: the evidence that a cold run populated it (and the warm run had it).
std::int64_t countFiles(const fs::path& dir) {
    std::int64_t n = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec)) ++n;
    return n;
}

// Generated source bytes (.cpp / .cu) and LTO artifacts (.lto / .ltoir) left in Warp's cache.
void inventory(const fs::path& cache, std::int64_t& sourceBytes, std::int64_t& lto, std::int64_t& ltoBytes) {
    sourceBytes = lto = ltoBytes = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(cache, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        auto ext = it->path().extension().string();
        auto size = static_cast<std::int64_t>(it->file_size(ec));
        if (ext == ".cpp" || ext == ".cu") sourceBytes += size;
        else if (ext == ".lto" || ext == ".ltoir") ++lto, ltoBytes += size;
    }
}

// One run of the command against a sample's private caches. WARP_CACHE_ROOT is set beside
// WARP_CACHE_PATH because some project setups read it; CUDA_CACHE_PATH isolates the driver's compute
// cache, which would otherwise donate PTX-to-SASS results from earlier runs and hide a difference.
RunRecord runOnce(const MeasureOptions& o, int sample, const std::string& phase, const SampleIsolation& iso,
                  const std::string& launchRecord) {
    std::map<std::string, std::string> env = {{"WARP_CACHE_PATH", iso.warpCache},
                                              {"WARP_CACHE_ROOT", iso.warpCache},
                                              {"CUDA_CACHE_PATH", iso.cudaCache}};
    if (o.instrumentPython) {
        auto inject = (fs::path(iso.scratch) / "inject").string();
        const char* old = std::getenv("PYTHONPATH");
        env["PYTHONPATH"] = old && *old ? inject + ":" + old : inject;
        if (!launchRecord.empty()) env["COMPILESCOPE_LAUNCH_RECORD"] = launchRecord;
    }
    auto logPath = (fs::path(iso.scratch) / (phase + ".log")).string();
    auto pr = util::runProcess(o.command, env, logPath, o.timeout);
    if (!pr.started) throw std::runtime_error("cannot run \"" + o.command.front() + "\" (not found or not executable)");
    RunRecord r{.sample = sample, .phase = phase, .exitCode = pr.exitCode, .timedOut = pr.timedOut, .wallMs = pr.wallMs};
    std::ifstream log(logPath, std::ios::binary);
    r.log = summariseWarpOutput(log);
    r.warpCacheFiles = countFiles(iso.warpCache);
    r.cudaCacheFiles = countFiles(iso.cudaCache);
    return r;
}

std::string fixed2(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%10.2f", v);
    return buf;
}

void writeJsonValue(util::JsonWriter& w, const util::JsonValue& v) {
    using T = util::JsonValue::Type;
    switch (v.type) {
    case T::Null: w.null(); break;
    case T::Bool: w.value(v.boolean); break;
    case T::Number: w.value(v.num); break;
    case T::String: w.value(v.str); break;
    case T::Array:
        w.beginArray();
        for (const auto& i : v.items) writeJsonValue(w, i);
        w.endArray();
        break;
    case T::Object:
        w.beginObject();
        for (const auto& [k, m] : v.members) writeJsonValue(w.key(k), m);
        w.endObject();
        break;
    }
}
}  // namespace


// The probe's definitions: cold module work sums the (compiled) load timers only (cached loads are
// not compile work); warm work sums every load, since a warm run should pay nearly nothing at all.
// Identities are distinct compiled (label, device, block_dim), the count that does not move with
// machine load.
LogSummary summariseWarpOutput(std::istream& in) {
    LogSummary s;
    std::set<std::string> identities, modules;
    std::string line;
    while (std::getline(in, line)) {
        auto l = ingest::warp::parseWarpLine(line);
        if (l.kind == ingest::warp::LineKind::Compile) s.nativeMs += static_cast<double>(l.durNs) / 1e6;
        if (l.kind != ingest::warp::LineKind::ModuleLoad) continue;
        double ms = static_cast<double>(l.durNs) / 1e6;
        std::string status = l.result == CS_MODULE_COMPILED ? "compiled" : l.result == CS_MODULE_CACHED ? "cached"
                             : l.result == CS_MODULE_ERROR ? "error" : "unknown";
        std::string label = l.hash.empty() ? l.name : l.name + " " + l.hash;
        s.events.push_back({label, l.name, l.hash, l.device, status, l.blockDim, ms});
        s.allModuleMs += ms;
        if (l.result == CS_MODULE_COMPILED) {
            ++s.compiled;
            s.compiledMs += ms;
            identities.insert(label + '\x1f' + l.device + '\x1f' + (l.blockDim ? std::to_string(*l.blockDim) : ""));
            modules.insert(l.name);
        } else if (l.result == CS_MODULE_CACHED) {
            ++s.cached;
        } else if (l.result == CS_MODULE_ERROR) {
            ++s.errors;
        }
    }
    s.identities = static_cast<int>(identities.size());
    s.modules = static_cast<int>(modules.size());
    return s;
}

MeasureReport measure(const MeasureOptions& o, std::ostream& progress) {
    if (o.command.empty()) throw std::runtime_error("no command given after --");
    if (o.samples < 1) throw std::runtime_error("--samples must be at least 1");
    MeasureReport rep;
    rep.options = o;
    rep.cwd = fs::current_path().string();
    std::vector<double> cold, coldWall, warm, warmWall, native, elapsed;
    bool haveReference = false;
    for (int i = 1; i <= o.samples; ++i) {
        SampleIsolation iso;
        iso.scratch = makeScratchDir();
        iso.warpCache = (fs::path(iso.scratch) / "warp-cache").string();
        iso.cudaCache = (fs::path(iso.scratch) / "cuda-cache").string();
        fs::create_directories(iso.warpCache);
        fs::create_directories(iso.cudaCache);
        std::string launchRecord = (fs::path(iso.scratch) / "launches.json").string();
        // The injected sitecustomize lives in the sample's scratch directory, so it is removed with the
        // caches and nothing is ever written into the measured project.
        if (o.instrumentPython) {
            fs::create_directories(fs::path(iso.scratch) / "inject");
            std::ofstream(fs::path(iso.scratch) / "inject" / "sitecustomize.py") << warpSiteCustomize(WarpHook::MeasureTimersAndLaunches);
        }
        try {
            RunRecord c = runOnce(o, i, "cold", iso, launchRecord);
            progress << "  sample " << i << "/" << o.samples << " cold: module work " << fixed2(c.log.compiledMs)
                     << " ms, wall " << fixed2(c.wallMs) << " ms, " << c.log.compiled << " compiled"
                     << (c.exitCode ? ", exit " + std::to_string(c.exitCode) : "") << (c.timedOut ? ", timed out" : "") << "\n";
            bool ok = c.exitCode == 0 && !c.timedOut;
            // The first successful cold run is the reference for events, source bytes, LTO and launches,
            // as in the probe: those are structural and do not vary between samples.
            if (ok && !haveReference) {
                haveReference = true;
                rep.reference = c.log;
                inventory(iso.warpCache, rep.sourceBytes, rep.ltoArtifacts, rep.ltoBytes);
                std::ifstream lr(launchRecord, std::ios::binary);
                if (lr) {
                    try {
                        rep.launches = util::parseJson(lr);
                    } catch (const std::exception&) {
                        rep.launches = {};
                    }
                }
            }
            rep.runs.push_back(c);
            if (ok) {
                cold.push_back(c.log.compiledMs);
                coldWall.push_back(c.wallMs);
                native.push_back(c.log.nativeMs);
                RunRecord w = runOnce(o, i, "warm", iso, "");
                progress << "  sample " << i << "/" << o.samples << " warm: module work " << fixed2(w.log.allModuleMs)
                         << " ms, wall " << fixed2(w.wallMs) << " ms, " << w.log.cached << " cached, " << w.log.compiled
                         << " compiled" << (w.exitCode ? ", exit " + std::to_string(w.exitCode) : "") << "\n";
                // A failing warm run exits early; its wall clock would overstate compile elapsed.
                if (w.exitCode == 0 && !w.timedOut) {
                    warm.push_back(w.log.allModuleMs);
                    warmWall.push_back(w.wallMs);
                    elapsed.push_back(c.wallMs - w.wallMs);
                }
                rep.runs.push_back(std::move(w));
            } else {
                ++rep.failedSamples;
            }
        } catch (...) {
            std::error_code ec;
            fs::remove_all(iso.scratch, ec);
            throw;
        }
        std::error_code ec;
        fs::remove_all(iso.scratch, ec);
        iso.removed = !fs::exists(iso.scratch);
        rep.isolation.push_back(iso);
    }
    if (cold.empty()) throw std::runtime_error("all " + std::to_string(o.samples) +
                                               " cold runs failed (non-zero exit or timeout); fix the command first");
    rep.coldValues = cold;
    rep.coldWallValues = coldWall;
    std::tie(rep.coldMedian, rep.coldMad) = measure::medianMad(cold);
    rep.nativeMedian = measure::medianMad(native).first;
    std::tie(rep.coldWallMedian, rep.coldWallMad) = measure::medianMad(coldWall);
    if (!warm.empty()) rep.warmMedian = measure::medianMad(warm).first, rep.warmWallMedian = measure::medianMad(warmWall).first;
    if (!elapsed.empty()) {
        auto [m, d] = measure::medianMad(elapsed);
        rep.elapsedMedian = m;
        rep.elapsedMad = d;
        // > 1 only when builds ran concurrently: summed timers then exceed the elapsed compile time.
        if (m > 0) rep.overlap = rep.coldMedian / m;
    }
    return rep;
}

void writeMeasureJson(const MeasureReport& r, std::ostream& out) {
    util::JsonWriter w(out, true);
    auto optional = [&](const char* key, const std::optional<double>& v) {
        w.key(key);
        if (v) w.value(*v);
        else w.null();
    };
    auto numbers = [&](const char* key, const std::vector<double>& values) {
        w.key(key).beginArray();
        for (double v : values) w.value(v);
        w.endArray();
    };
    w.beginObject();
    w.key("tool").value("compilescope measure");
    w.key("command").beginArray();
    for (const auto& a : r.options.command) w.value(a);
    w.endArray();
    w.key("cwd").value(r.cwd);
    w.key("label").value(r.options.label);
    w.key("samples").value(r.options.samples);
    w.key("failed_samples").value(r.failedSamples);
    w.key("cold_module_ms_median").value(r.coldMedian);
    w.key("cold_module_ms_mad").value(r.coldMad);
    numbers("cold_module_ms_values", r.coldValues);
    w.key("native_compile_ms_median").value(r.nativeMedian);
    optional("warm_module_ms_median", r.warmMedian);
    w.key("cold_wall_ms_median").value(r.coldWallMedian);
    w.key("cold_wall_ms_mad").value(r.coldWallMad);
    numbers("cold_wall_ms_values", r.coldWallValues);
    optional("warm_wall_ms_median", r.warmWallMedian);
    optional("compile_elapsed_ms_median", r.elapsedMedian);
    optional("compile_elapsed_ms_mad", r.elapsedMad);
    optional("overlap_factor", r.overlap);
    w.key("identities").value(r.reference.identities);
    w.key("modules").value(r.reference.modules);
    w.key("compiled_events").value(r.reference.compiled);
    w.key("cached_events").value(r.reference.cached);
    w.key("error_events").value(r.reference.errors);
    w.key("generated_source_bytes").value(r.sourceBytes);
    w.key("lto_artifacts").value(r.ltoArtifacts);
    w.key("lto_bytes").value(r.ltoBytes);
    w.key("module_events").beginArray();
    for (const auto& e : r.reference.events) {
        w.beginObject();
        w.key("label").value(e.label).key("device").value(e.device).key("block_dim");
        if (e.blockDim) w.value(*e.blockDim);
        else w.null();
        w.key("ms").value(e.ms).key("status").value(e.status).key("name").value(e.name).key("hash").value(e.hash);
        w.endObject();
    }
    w.endArray();
    w.key("launches");
    if (r.launches.isArray()) writeJsonValue(w, r.launches);
    else w.beginArray().endArray();
    // Every run, and where each sample's private caches lived (removed afterwards).
    w.key("runs").beginArray();
    for (const auto& run : r.runs) {
        w.beginObject();
        w.key("sample").value(run.sample).key("phase").value(run.phase).key("exit_code").value(run.exitCode);
        w.key("timed_out").value(run.timedOut).key("wall_ms").value(run.wallMs);
        w.key("module_ms").value(run.phase == "cold" ? run.log.compiledMs : run.log.allModuleMs);
        w.key("native_compile_ms").value(run.log.nativeMs);
        w.key("compiled_events").value(run.log.compiled).key("cached_events").value(run.log.cached);
        w.key("error_events").value(run.log.errors);
        w.key("warp_cache_files").value(run.warpCacheFiles).key("cuda_cache_files").value(run.cudaCacheFiles);
        w.endObject();
    }
    w.endArray();
    w.key("isolation").beginArray();
    for (const auto& iso : r.isolation) {
        w.beginObject();
        w.key("scratch").value(iso.scratch).key("warp_cache_path").value(iso.warpCache);
        w.key("cuda_cache_path").value(iso.cudaCache).key("removed").value(iso.removed);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    out << "\n";
}

void printMeasureReport(const MeasureReport& r, std::ostream& out) {
    out << "Cold module work   " << fixed2(r.coldMedian) << " ms  (median of " << r.coldValues.size() << " of "
        << r.options.samples << " samples, MAD " << fixed2(r.coldMad) << ")\n";
    out << "  native compile   " << fixed2(r.nativeMedian) << " ms\n";
    out << "  cold wall clock  " << fixed2(r.coldWallMedian) << " ms\n";
    if (r.elapsedMedian) out << "  compile elapsed  " << fixed2(*r.elapsedMedian) << " ms  (cold wall - warm wall)\n";
    if (r.warmMedian) out << "  warm repeat      " << fixed2(*r.warmMedian) << " ms\n";
    out << "  generated source " << r.sourceBytes << " bytes\n";
    if (r.ltoArtifacts) out << "  LTO artifacts    " << r.ltoArtifacts << " (" << r.ltoBytes << " bytes)\n";
    out << "  launches         " << (r.launches.isArray() ? r.launches.items.size() : 0) << "\n";
    if (r.overlap && *r.overlap > 1.15)
        out << "\n  BUILDS OVERLAPPED: summed module timers are " << fixed2(*r.overlap)
            << "x the elapsed compile time; judge this run on compile elapsed.\n";
    if (r.warmMedian && r.coldMedian > 0 && *r.warmMedian > 0.25 * r.coldMedian)
        out << "\n  CACHE NOT REUSED: the warm repeat still pays " << static_cast<int>(*r.warmMedian * 100 / r.coldMedian)
            << "% of the cold module work; something discards compiled kernels between runs.\n";
    if (r.failedSamples)
        out << "\n  WARNING: " << r.failedSamples << " of " << r.options.samples
            << " samples exited non-zero; their timings are not evidence.\n";
    if (r.reference.compiled == 0) {
        out << "\nNo modules were compiled: either no kernels ran or the command did not print Warp's module log.\n";
        return;
    }
    out << "\n" << r.reference.compiled << " compiled module loads, " << r.reference.identities << " identities across "
        << r.reference.modules << " module(s):\n";
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %9s  %-10s %9s  %-9s %s\n", "ms", "device", "block_dim", "hash", "module");
    out << buf;
    auto events = r.reference.events;
    std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.ms > b.ms; });
    for (const auto& e : events) {
        if (e.status != "compiled") continue;
        std::snprintf(buf, sizeof buf, "  %9.2f  %-10s %9s  %-9s %s\n", e.ms, e.device.c_str(),
                      e.blockDim ? std::to_string(*e.blockDim).c_str() : "-", e.hash.empty() ? "-" : e.hash.c_str(),
                      e.name.c_str());
        out << buf;
    }
}

}  // namespace cs::engine::warp
