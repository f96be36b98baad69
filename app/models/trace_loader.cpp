#include "trace_loader.h"

#include "load_gate.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/analysis/trace_figures.h"
#include "core/trace/live_registry.h"
#include "core/trace/reader.h"
#include "core/trace/trace_error.h"
#include "core/trace/trace_follower.h"

#include "core/ingest/import_files.h"

#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace cs::gui {

TraceLoader::TraceLoader(QObject* parent) : QObject(parent), m_gate(std::make_shared<LoadGate>(QThread::idealThreadCount())) {
    qRegisterMetaType<SummaryPtr>();
    qRegisterMetaType<TimelinePtr>();
    qRegisterMetaType<FindingsPtr>();
    qRegisterMetaType<AnalysesPtr>();
    qRegisterMetaType<LiveRefresh>();
}

TraceLoader::~TraceLoader() {
    for (auto& [id, job] : m_jobs) job.cancel->store(true);
    for (auto& [id, job] : m_jobs) {
        job.thread->wait();
        delete job.thread;
    }
}

namespace {
// SQLite's 16-byte magic: anything else is a foreign file to import.
bool isSqliteFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char head[16] = {};
    in.read(head, sizeof head);
    return in.gcount() == sizeof head && std::memcmp(head, "SQLite format 3", 16) == 0;
}
}  // namespace

std::string TraceLoader::importForeign(const std::string& file, int docId) {
    const std::string name = std::filesystem::path(file).filename().string();
    emit progress(docId, 0, QStringLiteral("importing %1").arg(QString::fromStdString(name)));
    static std::atomic<int> serial{0};
    const std::string out = m_imports->filePath(QStringLiteral("%1-%2.cstrace").arg(++serial).arg(QString::fromStdString(name)))
                                .toStdString();
    try {
        ingest::importFiles({.inputs = {file}, .output = out, .forcedFormat = "", .overwrite = true});
    } catch (const ingest::ImportError& e) {
        throw std::runtime_error(std::string(e.what()) + " (it is not a CompileScope trace either)");
    }
    return out;
}

int TraceLoader::load(const QString& path, bool outlineFirst) {
    int id = m_nextId++;
    if (!m_imports) m_imports = std::make_unique<QTemporaryDir>();
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    if (outlineFirst) m_gate->outlineQueued();  // before the thread starts: no full read goes ahead of it
    QThread* thread = QThread::create([this, id, path, cancel, outlineFirst] { run(id, path, cancel, outlineFirst); });
    m_jobs[id] = {thread, cancel};
    connect(thread, &QThread::finished, this, [this, id] {
        auto it = m_jobs.find(id);
        if (it == m_jobs.end()) return;
        it->second.thread->deleteLater();
        bool cancelled = it->second.cancel->load();
        m_jobs.erase(it);
        emit finished(id, cancelled);
    });
    thread->start(QThread::LowPriority);
    return id;
}

bool TraceLoader::isLiveRecording(const std::string& trace) {
    std::error_code ec;
    auto canonical = [&ec](const std::string& p) { return std::filesystem::weakly_canonical(p, ec).string(); };
    const std::string mine = canonical(trace);
    for (const trace::LiveRecording& r : trace::findLiveRecordings())
        if (canonical(r.trace) == mine) return true;
    return false;
}

void TraceLoader::prioritise(int docId) { m_gate->prioritise(docId); }

void TraceLoader::cancel(int docId) {
    auto it = m_jobs.find(docId);
    if (it != m_jobs.end()) it->second.cancel->store(true);
}

namespace {
// The gate's bookkeeping of one job, whatever way it ends: its outline counted done once, its slot
// given back.
struct GateTurn {
    LoadGate& gate;
    bool outlinePending = false, holding = false;
    void outlineDone() {
        if (outlinePending) gate.outlineDone();
        outlinePending = false;
    }
    ~GateTurn() {
        outlineDone();
        if (holding) gate.release();
    }
};
}  // namespace

void TraceLoader::run(int docId, const QString& path, const std::shared_ptr<std::atomic<bool>>& cancel, bool outlineFirst) {
    GateTurn turn{*m_gate, outlineFirst};
    // Progress: timeline and summary 0-80 %, engines 80-90 %, findings 90-100 %.
    auto stageControl = [&](int from, int to) {
        engine::LoadControl c;
        c.cancel = cancel.get();
        c.progress = [this, docId, from, to](int p, std::string_view stage) {
            emit progress(docId, from + (to - from) * p / 100, QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size())));
        };
        return c;
    };
    // One scan of the spans feeds the timeline and the summary: the timeline goes out first, as the
    // paint waits on nothing else; then the summary folds the scan's sorted tracks (kept for it).
    SummaryPtr lastSummary;
    auto snapshot = [&](const trace::TraceReader& reader, int from, int to) {
        engine::CompileSummaryBuilder summary(reader);
        engine::SpanTracks tracks;
        emit timelineReady(docId, std::make_shared<const engine::TimelineData>(
                                      engine::loadTimeline(reader, stageControl(from, from + (to - from) * 15 / 16), &tracks)));
        summary.addAll(tracks.ids, tracks.tracks);
        tracks = {};
        lastSummary = std::make_shared<const engine::CompileSummary>(summary.finish(stageControl(from, to)));
        emit summaryReady(docId, lastSummary);
    };
    try {
        std::string file = path.toStdString();
        std::error_code ec;
        if (std::filesystem::is_regular_file(file, ec) && std::filesystem::file_size(file, ec) > 0 && !ec && !isSqliteFile(file))
            file = importForeign(file, docId);
        // The one analysis of the trace (core/engine/analysis/trace_analysis.h), over the summary just
        // published: every view renders it, nothing is computed twice.
        auto analyse = [&](const trace::TraceReader& reader, const SummaryPtr& summary, int from, int to) {
            auto trace = engine::analyseTrace(reader, *summary, {}, stageControl(from, to));
            auto analyses = std::make_shared<Analyses>();
            analyses->trace = trace;
            analyses->cache = trace->cache;
            if (trace->moduleLoads() > 0) analyses->modules = trace->modules;
            analyses->invalidations = trace->invalidations;
            analyses->figures = std::make_shared<const engine::TraceFigures>(engine::traceFigures(*trace));
            if (cancel->load()) throw engine::LoadCancelled();
            emit analysesReady(docId, analyses);
            emit findingsReady(docId, std::shared_ptr<const std::vector<engine::Finding>>(trace, &trace->findings));
        };
        std::unique_ptr<trace::TraceReader> reader;
        if (isLiveRecording(file)) {
            turn.outlineDone();  // followed as always, and no full read waits on it
            // A recording in progress is followed through a private mirror: each refresh copies only
            // the rows committed since the last one (trace_follower.h), then the views and the
            // analysis read the mirror, so findings appear while the job runs.
            const std::string mirror =
                m_imports->filePath(QStringLiteral("live-%1.cstrace").arg(docId)).toStdString();
            followLive(docId, file, mirror, *cancel, snapshot, analyse, lastSummary);
            trace::TraceFollower::removeMirror(mirror);  // a copy of the whole recording: not kept
            reader = trace::TraceReader::open(file);     // the finished trace, indexes and all
            snapshot(*reader, 80, 80);
            emit liveChanged(docId, false);
        } else {
            // Among many traces, the outline goes out before the check of every page's checksum: a
            // rank's outline reads a few pages, its check reads the whole file (1.3 GB for 256 ranks,
            // all before the first paint when the files are not in the page cache). The check runs
            // before the full read; a damaged trace then fails as it would have on open.
            reader = trace::TraceReader::open(file, {.deferPageCheck = outlineFirst});
            if (outlineFirst) {
                emit timelineReady(docId, std::make_shared<const engine::TimelineData>(engine::loadTimelineOutline(*reader, stageControl(0, 1))));
                turn.outlineDone();
                emit progress(docId, 1, QStringLiteral("waiting for the traces before it"));
                if (!m_gate->acquire(docId, *cancel)) throw engine::LoadCancelled();
                turn.holding = true;
                reader->checkPagesNow();
            }
            snapshot(*reader, outlineFirst ? 1 : 0, 80);
        }
        analyse(*reader, lastSummary, 80, 100);
        emit progress(docId, 100, QStringLiteral("done"));
    } catch (const engine::LoadCancelled&) {
        // finished(docId, true) tells the window; nothing half-built was published.
    } catch (const std::exception& e) {
        emit failed(docId, QString::fromUtf8(e.what()));
    }
}

}  // namespace cs::gui
