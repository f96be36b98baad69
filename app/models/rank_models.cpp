// The ranks of the open traces compared (see rank_models.h for why).
#include "rank_models.h"

#include "text.h"

#include "core/engine/analysis/rank_compare.h"
#include "core/engine/analysis/trace_analysis.h"

#include <QStringList>

#include <algorithm>

namespace cs::gui {

namespace {
// "1 program", "3 programs".
QString count(std::size_t n, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(n).arg(QString::fromLatin1(n == 1 ? one : many));
}

// Whether `rank` is in the smaller of the two sides (the side that did something different).
bool apart(const std::string& rank, const std::vector<std::string>& a, const std::vector<std::string>& b) {
    const auto& fewer = a.size() <= b.size() ? a : b;
    return std::find(fewer.begin(), fewer.end(), rank) != fewer.end();
}
}  // namespace

RanksPtr compareDocuments(const std::vector<const TraceDocument*>& docs, bool asRanks) {
    auto out = std::make_shared<RanksSnapshot>();
    std::vector<const engine::TraceAnalysis*> analyses;
    for (const TraceDocument* d : docs) analyses.push_back(d->analyses ? d->analyses->trace.get() : nullptr);
    out->compared = asRanks || engine::tracesOfOneProgram(analyses);
    std::vector<engine::RankTrace> ranks;
    for (std::size_t i = 0; i < docs.size(); ++i) {
        const TraceDocument& d = *docs[i];
        RankRow row;
        row.doc = static_cast<int>(i);
        row.label = d.label;
        row.path = d.path;
        const engine::TraceAnalysis* a = d.analyses ? d.analyses->trace.get() : nullptr;
        row.analysed = a != nullptr;
        row.compared = out->compared;
        if (a) {
            ranks.push_back(engine::rankTraceOf(d.label.toStdString(), a));
            row.compileNs = a->summary.compileNs;
            // The trace's one miss figure (engine/analysis/trace_figures.h, "misses"): Warp's compiled module
            // loads count, as in check, explain and the Cache view (the lookups alone read 0 for Warp).
            const engine::Figure* misses = d.analyses->figures ? d.analyses->figures->find("misses") : nullptr;
            row.misses = misses ? misses->value : std::nullopt;
        } else {
            ++out->waiting;
        }
        out->rows.push_back(row);
    }
    if (!out->compared) {
        out->findings = std::make_shared<const std::vector<engine::Finding>>();
        return out;
    }
    out->divergence = engine::compareRanks(ranks);
    out->findings = std::make_shared<const std::vector<engine::Finding>>(engine::rankDivergenceFindings(out->divergence));
    const engine::RankDivergence& dv = out->divergence;
    for (RankRow& row : out->rows) {
        if (!row.analysed) continue;
        const std::string rank = row.label.toStdString();
        if (dv.medianCompileNs && *dv.medianCompileNs > 0)
            row.timesMedian = static_cast<double>(row.compileNs) / static_cast<double>(*dv.medianCompileNs);
        for (const auto& p : dv.programs) row.programsApart += apart(rank, p.compiledBy, p.notBy) ? 1 : 0;
        for (const auto& s : dv.steps) row.stepsApart += apart(rank, s.missedBy, s.notBy) ? 1 : 0;
        row.slow = std::any_of(dv.slow.begin(), dv.slow.end(), [&](const engine::RankSlow& s) { return s.rank == rank; });
    }
    return out;
}

QString ranksHeadline(const RanksSnapshot& s) {
    const int analysed = static_cast<int>(s.rows.size()) - s.waiting;
    const engine::RankDivergence& d = s.divergence;
    if (!s.compared)
        return QStringLiteral("<b>%1 traces of different programs, side by side</b>: not compared as ranks "
                              "(<code>compilescope-gui --ranks</code> compares them as the ranks of one job).")
            .arg(s.rows.size());
    QString text = QStringLiteral("<b>%1 traces read as the ranks of one job</b>").arg(s.rows.size());
    if (s.waiting > 0) text += QStringLiteral(" (compared so far: %1 analysed, %2 still loading)").arg(analysed).arg(s.waiting);
    text += QStringLiteral(": ");
    text += d.diverges() ? QStringLiteral("<b>they DIVERGE</b>: %1 not every rank compiled, %2 at which only some ranks missed "
                                          "(<code>compilescope check</code> fails).")
                               .arg(count(d.programs.size(), "program", "programs"), count(d.steps.size(), "step", "steps"))
                         : QStringLiteral("they compiled the same programs at the same steps.");
    if (d.medianCompileNs) text += QStringLiteral(" The median rank compiled for %1.").arg(durationText(*d.medianCompileNs));
    if (!d.slow.empty())
        text += d.slow.size() == 1 ? QStringLiteral(" 1 rank compiled at least twice as long: the others wait for it.")
                                   : QStringLiteral(" %1 ranks compiled at least twice as long: the others wait for them.").arg(d.slow.size());
    return text;
}

QString rankNote(const RankRow& r) {
    if (!r.analysed) return {};
    QStringList parts;
    if (r.slow) parts << (r.timesMedian ? QStringLiteral("slow rank: %1x the median").arg(*r.timesMedian, 0, 'f', 2) : QStringLiteral("slow rank"));
    // On the odd side: compiled what the others did not (or the reverse), missed where they hit.
    if (r.programsApart) parts << QStringLiteral("diverges on %1").arg(count(static_cast<std::size_t>(r.programsApart), "program", "programs"));
    if (r.stepsApart) parts << QStringLiteral("missed apart at %1").arg(count(static_cast<std::size_t>(r.stepsApart), "step", "steps"));
    return parts.join(QStringLiteral(", "));
}

std::vector<QString> rankNotes(const RanksSnapshot& s, std::size_t documents) {
    std::vector<QString> out(documents);
    for (const RankRow& r : s.rows)
        if (r.doc >= 0 && static_cast<std::size_t>(r.doc) < documents) out[static_cast<std::size_t>(r.doc)] = rankNote(r);
    return out;
}

int rankDocOf(const RanksSnapshot& s, const engine::Evidence& e) {
    for (const RankRow& row : s.rows)
        if (e.note == "in " + row.label.toStdString()) return row.doc;
    return -1;
}

RanksModel* makeRanksModel(QObject* parent) {
    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    auto verdict = [](const RankRow& r) {
        if (!r.analysed) return QStringLiteral("loading");
        if (!r.compared) return QStringLiteral("not compared (another program)");
        const QString note = rankNote(r);
        return note.isEmpty() ? QStringLiteral("as the others") : note;
    };
    return new RanksModel(
        {{QStringLiteral("Rank"), [](const RankRow& r) { return QVariant(r.label); }, {}, Qt::AlignLeft | Qt::AlignVCenter,
          [](const RankRow& r) { return QVariant(QStringLiteral("%1\nEnter or double-click: show this rank").arg(r.path)); }},
         {QStringLiteral("Compile time"), [](const RankRow& r) { return r.analysed ? QVariant(durationText(r.compileNs)) : QVariant(); },
          [](const RankRow& r) { return QVariant(qlonglong(r.compileNs)); }, right},
         {QStringLiteral("× median"),
          [](const RankRow& r) { return r.timesMedian ? QVariant(QString::number(*r.timesMedian, 'f', 2)) : QVariant(); },
          [](const RankRow& r) { return QVariant(r.timesMedian.value_or(0)); }, right, {},
          [](const RankRow& r) { return r.slow ? Tone::Bad : Tone::Neutral; }},
         {QStringLiteral("Misses"), [](const RankRow& r) { return r.misses ? QVariant(groupedCount(*r.misses)) : QVariant(); },
          [](const RankRow& r) { return QVariant(qlonglong(r.misses.value_or(-1))); }, right,
          [](const RankRow& r) {
              return r.analysed && !r.misses ? QVariant(QStringLiteral("no cache lookups or module loads recorded")) : QVariant();
          }},
         {QStringLiteral("Verdict"), [verdict](const RankRow& r) { return QVariant(verdict(r)); }, {}, Qt::AlignLeft | Qt::AlignVCenter, {},
          [](const RankRow& r) {
              return !r.analysed || !r.compared ? Tone::Neutral : r.slow || r.programsApart || r.stepsApart ? Tone::Bad : Tone::Good;
          }}},
        parent);
}

}  // namespace cs::gui
