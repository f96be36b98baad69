#include "findings_model.h"

#include "text.h"
#include "core/engine/julia/invalidation_findings.h"
#include "core/util/saturating.h"

namespace cs::gui {

std::shared_ptr<const FindingTree> buildFindingTree(FindingsPtr findings, std::size_t limit) {
    auto tree = std::make_shared<FindingTreeSnapshot>();
    tree->findings = findings;
    if (!findings) return tree;
    for (std::size_t i = 0; i < findings->size() && i < limit; ++i) {
        const engine::Finding& f = (*findings)[i];
        int node = tree->add({&f, -1, static_cast<int>(i)});
        for (std::size_t e = 0; e < f.evidence.size(); ++e) tree->add({&f, static_cast<int>(e), static_cast<int>(i)}, node);
    }
    return tree;
}

QString evidenceView(const engine::Evidence& e) {
    if (e.table == "cache_lookups") return QStringLiteral("Cache");
    if (e.table == "module_loads") return QStringLiteral("Modules");
    if (e.table == engine::kInvalidationTreeEvidence) return QStringLiteral("Invalidations");
    return {};
}

FindingsModel* makeFindingsModel(QObject* parent) {
    auto cost = [](const FindingItem& it) {
        return it.evidence < 0 && it.finding->costNs ? QVariant(durationText(*it.finding->costNs)) : QVariant();
    };
    return new FindingsModel(
        {{QStringLiteral("Finding / evidence"),
          [](const FindingItem& it) {
              if (it.evidence < 0) return QVariant(qs(it.finding->title));
              const engine::Evidence& e = it.finding->evidence[static_cast<std::size_t>(it.evidence)];
              return QVariant(qs(engine::evidenceText(e)));
          },
          {},
          Qt::AlignLeft | Qt::AlignVCenter,
          // The full text, as every elided cell, and where activating an evidence row leads.
          [](const FindingItem& it) {
              if (it.evidence < 0) return QVariant(qs(it.finding->title));
              const engine::Evidence& e = it.finding->evidence[static_cast<std::size_t>(it.evidence)];
              const QString view = evidenceView(e);
              const QString text = qs(engine::evidenceText(e));
              return QVariant(view.isEmpty() ? text : QStringLiteral("%1\nEnter or double-click: open it in the %2 view").arg(text, view));
          },
          [](const FindingItem& it) {
              return it.evidence >= 0 && !evidenceView(it.finding->evidence[static_cast<std::size_t>(it.evidence)]).isEmpty()
                         ? Tone::Link
                         : Tone::Neutral;
          }},
         {QStringLiteral("Severity"),
          [](const FindingItem& it) { return it.evidence < 0 ? QVariant(QString::fromLatin1(engine::severityName(it.finding->severity))) : QVariant(); },
          [](const FindingItem& it) { return QVariant(static_cast<int>(it.finding->severity)); }},
         {QStringLiteral("Cost"), cost,
          [](const FindingItem& it) { return QVariant(qlonglong(it.finding->costNs.value_or(0))); },
          Qt::AlignRight | Qt::AlignVCenter},
         {QStringLiteral("Kind"), [](const FindingItem& it) { return it.evidence < 0 ? QVariant(qs(it.finding->kind)) : QVariant(); }}},
        parent);
}

QString findingHtml(const engine::Finding& f) {
    QString html = QStringLiteral("<h3>%1</h3>").arg(qs(f.title).toHtmlEscaped());
    html += QStringLiteral("<p><b>Severity:</b> %1 &nbsp; <b>Kind:</b> %2").arg(QString::fromLatin1(engine::severityName(f.severity)),
                                                                                 qs(f.kind).toHtmlEscaped());
    if (f.costNs) html += QStringLiteral(" &nbsp; <b>Estimated cost:</b> %1").arg(durationText(*f.costNs));
    html += QStringLiteral("</p><p><b>Mechanism.</b> %1</p>").arg(qs(f.mechanism).toHtmlEscaped());
    if (!f.evidence.empty()) {
        html += QStringLiteral("<p><b>Evidence.</b></p><ul>");
        for (const engine::Evidence& e : f.evidence)
            html += QStringLiteral("<li>%1</li>").arg(qs(engine::evidenceText(e)).toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    html += QStringLiteral("<p><b>Fix.</b> %1</p>").arg(qs(f.fix).toHtmlEscaped());
    if (f.startNs && f.endNs)
        html += QStringLiteral("<p><i>Activate to show %1 on the timeline.</i></p>").arg(durationText(cs::util::satSub(*f.endNs, *f.startNs)));
    return html;
}

}  // namespace cs::gui
