#include "build_models.h"

#include "text.h"

#include "core/util/saturating.h"

namespace cs::gui {

namespace {
using engine::build::BuildFile;
using engine::build::BuildReport;
using engine::build::Cost;
constexpr Qt::Alignment kRight = Qt::AlignRight | Qt::AlignVCenter;

QVariant ns(std::int64_t v) { return QVariant(qlonglong(v)); }

// A duration column: its text, sorted by the number.
template <typename Row>
Column<Row> durationColumn(const QString& header, std::int64_t (*of)(const Row&)) {
    return {header, [of](const Row& r) { return QVariant(durationText(of(r))); }, [of](const Row& r) { return ns(of(r)); }, kRight};
}

QString share(std::int64_t part, std::int64_t whole) {
    return whole > 0 ? percentText(static_cast<double>(part) / static_cast<double>(whole)) : QStringLiteral("-");
}
}  // namespace

BuildFilesModel* makeBuildFilesModel(QObject* parent) {
    using F = BuildFile;
    return new BuildFilesModel(
        {{QStringLiteral("File"), [](const F& f) { return QVariant(qs(f.label)); }, {}, Qt::AlignLeft | Qt::AlignVCenter,
          // The full label, then where the trace came from and the ninja output it was joined to.
          [](const F& f) {
              QString tip = qs(f.label);
              if (!f.source.empty() && f.source != f.label) tip += QStringLiteral("\n") + qs(f.source);
              if (!f.output.empty()) tip += QStringLiteral("\nninja output: ") + qs(f.output);
              return QVariant(tip);
          }},
         {QStringLiteral("Start"), [](const F& f) { return QVariant(offsetText(f.offsetNs)); },
          [](const F& f) { return ns(f.offsetNs); }, kRight},
         durationColumn<F>(QStringLiteral("Frontend"), [](const F& f) { return f.frontendNs; }),
         durationColumn<F>(QStringLiteral("Backend"), [](const F& f) { return f.backendNs; }),
         durationColumn<F>(QStringLiteral("Total"), [](const F& f) { return f.totalNs; }),
         {QStringLiteral("Backend share"), [](const F& f) { return QVariant(share(f.backendNs, f.totalNs)); },
          [](const F& f) { return QVariant(f.totalNs > 0 ? static_cast<double>(f.backendNs) / static_cast<double>(f.totalNs) : -1.0); },
          kRight},
         {QStringLiteral("Ninja command"),
          [](const F& f) { return QVariant(f.ninjaNs ? durationText(*f.ninjaNs) : QStringLiteral("-")); },
          [](const F& f) { return ns(f.ninjaNs.value_or(-1)); }, kRight}},
        parent);
}

std::shared_ptr<const std::vector<BuildFile>> buildFileRows(const BuildReportPtr& report) {
    if (!report) return std::make_shared<const std::vector<BuildFile>>();
    return {report, &report->files};
}

BuildCostModel* makeBuildCostModel(const QString& what, QObject* parent) {
    using C = Cost;
    return new BuildCostModel(
        {{what, [](const C& c) { return QVariant(qs(c.name)); }},
         durationColumn<C>(QStringLiteral("Time"), [](const C& c) { return c.ns; }),
         {QStringLiteral("Count"), [](const C& c) { return QVariant(groupedCount(c.count)); }, [](const C& c) { return ns(c.count); }, kRight},
         {QStringLiteral("Files"), [](const C& c) { return QVariant(groupedCount(c.files)); }, [](const C& c) { return ns(c.files); }, kRight},
         {QStringLiteral("Most expensive in"), [](const C& c) { return QVariant(qs(c.worstFile)); }},
         durationColumn<C>(QStringLiteral("There"), [](const C& c) { return c.worstNs; })},
        parent);
}

std::shared_ptr<const std::vector<Cost>> buildCostRows(const BuildReportPtr& report, const std::vector<Cost>& costs) {
    if (!report) return std::make_shared<const std::vector<Cost>>();
    return {report, &costs};
}

BuildPathModel* makeBuildPathModel(QObject* parent) {
    using P = BuildPathRow;
    return new BuildPathModel(
        {{QStringLiteral("#"), [](const P& p) { return QVariant(QString::number(p.step)); }, [](const P& p) { return QVariant(p.step); },
          kRight},
         {QStringLiteral("Output"), [](const P& p) { return QVariant(qs(p.path.output)); }},
         {QStringLiteral("Start"), [](const P& p) { return QVariant(offsetText(p.offsetNs)); },
          [](const P& p) { return ns(p.offsetNs); }, kRight},
         durationColumn<P>(QStringLiteral("Duration"), [](const P& p) { return p.path.durNs; })},
        parent);
}

std::shared_ptr<const std::vector<BuildPathRow>> buildPathRows(const BuildReport& report) {
    auto rows = std::make_shared<std::vector<BuildPathRow>>();
    int step = 0;
    for (const auto& p : report.schedule.criticalPath)
        rows->push_back({++step, p, util::satSub(p.startNs, report.spanStartNs)});
    return rows;
}

QString buildHeadline(const BuildReport& r) {
    QString text = QStringLiteral("<b>%1 files, %2 of compiler time</b>: frontend %3 (%4), backend %5 (%6).")
                       .arg(groupedCount(static_cast<std::int64_t>(r.files.size())), durationText(r.totalNs),
                            durationText(r.frontendNs), share(r.frontendNs, r.totalNs), durationText(r.backendNs),
                            share(r.backendNs, r.totalNs));
    const auto& s = r.schedule;
    if (s.targets > 0) {
        text += QStringLiteral("<br><b>Parallelism</b> (%1 %2): wall %3, busy %4, average %5, peak %6.")
                    .arg(groupedCount(s.targets), s.fromNinjaLog ? QStringLiteral("ninja commands") : QStringLiteral("files"),
                         durationText(s.wallNs), durationText(s.busyNs), QString::number(s.averageParallelism, 'f', 2))
                    .arg(s.peakConcurrency);
        text += QStringLiteral("<br><b>Critical path</b> %1 in %2 steps (%3 of the wall), by timing only: no dependency edges "
                               "are recorded, so each step is the command that ended latest before the next one started.")
                    .arg(durationText(s.criticalPathNs))
                    .arg(s.criticalPath.size())
                    .arg(share(s.criticalPathNs, s.wallNs));
    }
    if (!r.ninjaTargets.empty())
        text += QStringLiteral("<br>%1 ninja commands, %2 joined to a time trace.")
                    .arg(groupedCount(static_cast<std::int64_t>(r.ninjaTargets.size())), groupedCount(r.ninjaJoined));
    return text;
}

}  // namespace cs::gui
