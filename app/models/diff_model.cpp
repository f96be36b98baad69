#include "diff_model.h"

#include "text.h"

#include <QMetaObject>
#include <QPointer>
#include <QThread>

namespace cs::gui {

namespace {
using measure::ChangeKind;
using measure::DiffChange;
constexpr Qt::Alignment kRight = Qt::AlignRight | Qt::AlignVCenter;

// The CLI's section headings, one per kind (app/cli/diff_output.cpp's words, singular).
QString kindText(ChangeKind k) {
    switch (k) {
    case ChangeKind::NewCompile: return QStringLiteral("new compile");
    case ChangeKind::GoneCompile: return QStringLiteral("gone");
    case ChangeKind::NowReused: return QStringLiteral("now from the cache");
    case ChangeKind::NowCompiled: return QStringLiteral("now compiled");
    case ChangeKind::NewRecompile: return QStringLiteral("more recompiles");
    case ChangeKind::FewerRecompiles: return QStringLiteral("fewer recompiles");
    case ChangeKind::Slower: return QStringLiteral("slower");
    case ChangeKind::Faster: return QStringLiteral("faster");
    case ChangeKind::InsideNoise: return QStringLiteral("inside noise");
    case ChangeKind::NewFinding: return QStringLiteral("new finding");
    case ChangeKind::ResolvedFinding: return QStringLiteral("resolved finding");
    case ChangeKind::VerdictChanged: return QStringLiteral("verdict");
    }
    return {};
}

Tone toneOf(ChangeKind k) {
    switch (k) {
    case ChangeKind::NewCompile:
    case ChangeKind::NowCompiled:
    case ChangeKind::NewRecompile:
    case ChangeKind::Slower:
    case ChangeKind::NewFinding: return Tone::Bad;
    case ChangeKind::GoneCompile:
    case ChangeKind::NowReused:
    case ChangeKind::FewerRecompiles:
    case ChangeKind::Faster:
    case ChangeKind::ResolvedFinding: return Tone::Good;
    default: return Tone::Neutral;
    }
}

bool timed(const DiffChange& c) {
    return c.kind == ChangeKind::Slower || c.kind == ChangeKind::Faster || c.kind == ChangeKind::InsideNoise;
}

// A finding or the verdict has no count of its own: the Numbers column says what changed.
bool counted(const DiffChange& c) {
    return c.kind != ChangeKind::NewFinding && c.kind != ChangeKind::ResolvedFinding && c.kind != ChangeKind::VerdictChanged;
}

QVariant sideText(const DiffChange& c, bool head) {
    if (timed(c)) return durationText(static_cast<std::int64_t>(head ? c.headMedianNs : c.baseMedianNs));
    if (!counted(c)) return QString();
    return QString::number(head ? c.headCount : c.baseCount);
}
}  // namespace

DiffModel* makeDiffModel(QObject* parent) {
    using C = DiffChange;
    return new DiffModel(
        {{QStringLiteral("Change"), [](const C& c) { return QVariant(kindText(c.kind)); },
          [](const C& c) { return QVariant(static_cast<int>(c.kind)); }, Qt::AlignLeft | Qt::AlignVCenter, {},
          [](const C& c) { return toneOf(c.kind); }},
         {QStringLiteral("What"), [](const C& c) { return QVariant(qs(c.subject)); }},
         {QStringLiteral("Baseline"), [](const C& c) { return sideText(c, false); },
          [](const C& c) { return QVariant(timed(c) ? c.baseMedianNs : static_cast<double>(c.baseCount)); }, kRight},
         {QStringLiteral("This run"), [](const C& c) { return sideText(c, true); },
          [](const C& c) { return QVariant(timed(c) ? c.headMedianNs : static_cast<double>(c.headCount)); }, kRight},
         {QStringLiteral("Numbers"), [](const C& c) { return QVariant(qs(c.detail)); }}},
        parent);
}

std::shared_ptr<const std::vector<DiffChange>> diffRows(const TraceDiffPtr& diff) {
    if (!diff) return std::make_shared<const std::vector<DiffChange>>();
    return {diff, &diff->changes};  // aliasing: kept alive by the diff, no copy
}

QString diffHeadline(const measure::TraceDiff& d) {
    return QStringLiteral("%1 -> %2 compiles, %3 -> %4 compiling; check %5 -> %6")
        .arg(d.baseCompiles)
        .arg(d.headCompiles)
        .arg(durationText(d.baseCostNs), durationText(d.headCostNs), qs(d.baseVerdict), qs(d.headVerdict));
}

DiffRunner::DiffRunner(QObject* parent) : QObject(parent) { qRegisterMetaType<TraceDiffPtr>(); }

DiffRunner::~DiffRunner() {
    if (m_thread) m_thread->wait();
}

void DiffRunner::run(const QString& basePath, const QString& headPath) {
    const int request = ++m_request;
    if (m_thread) m_thread->wait();  // one at a time; the older result is dropped below
    const std::string base = basePath.toStdString(), head = headPath.toStdString();
    QPointer<DiffRunner> self(this);
    m_thread = QThread::create([self, request, base, head] {
        TraceDiffPtr diff;
        QString error;
        try {
            const auto [b, h] = measure::analyseSides({base}, {head});
            diff = std::make_shared<const measure::TraceDiff>(measure::diffRuns(b, h));
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, request, diff, error] {
                if (!self || request != self->m_request) return;
                if (diff) emit self->ready(diff);
                else emit self->failed(error);
            },
            Qt::QueuedConnection);
    });
    m_thread->setParent(this);  // deleted with the runner, which waits for it first
    connect(m_thread, &QThread::finished, this, [this, t = m_thread] {
        t->deleteLater();
        if (m_thread == t) m_thread = nullptr;
    });
    m_thread->start();
}

}  // namespace cs::gui
