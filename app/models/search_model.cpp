#include "search_model.h"

#include "text.h"
#include "core/util/saturating.h"

namespace cs::gui {

SearchModel* makeSearchModel(QObject* parent) {
    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    return new SearchModel(
        {{QStringLiteral("Name"), [](const SearchRow& r) { return QVariant(r.name); }},
         {QStringLiteral("Category"), [](const SearchRow& r) { return QVariant(categoryName(r.item.category)); }},
         {QStringLiteral("Start (s)"),
          [](const SearchRow& r) { return QVariant(QString::number(static_cast<double>(r.item.startNs - r.originNs) / 1e9, 'f', 6)); },
          [](const SearchRow& r) { return QVariant(qlonglong(cs::util::satSub(r.item.startNs, r.originNs))); }, right},
         {QStringLiteral("Duration"), [](const SearchRow& r) { return QVariant(durationText(cs::util::satSub(r.item.endNs, r.item.startNs))); },
          [](const SearchRow& r) { return QVariant(qlonglong(cs::util::satSub(r.item.endNs, r.item.startNs))); }, right},
         {QStringLiteral("Lane"), [](const SearchRow& r) { return QVariant(r.lane); }},
         {QStringLiteral("Trace"), [](const SearchRow& r) { return QVariant(r.trace); }}},
        parent);
}

std::shared_ptr<const std::vector<SearchRow>> searchNames(const std::vector<SearchInput>& traces, const QString& needle,
                                                          std::size_t limit) {
    auto rows = std::make_shared<std::vector<SearchRow>>();
    std::string n = needle.trimmed().toStdString();
    for (std::size_t s = 0; s < traces.size() && rows->size() < limit; ++s) {
        const engine::TimelineData& d = *traces[s].timeline;
        for (const engine::SearchHit& h : engine::searchTimeline(d, n, limit - rows->size())) {
            const engine::TimelineLane& lane = d.lanes[static_cast<std::size_t>(h.lane)];
            QString name = qs(d.str(h.item.name));
            if (lane.source == engine::LaneSource::Spans)  // the header or template a time-trace span worked on
                if (const std::uint32_t detail = d.detailOf(h.item.rowId)) name += QStringLiteral(": ") + qs(d.str(detail));
            rows->push_back({static_cast<int>(s), traces[s].label, qs(lane.process) + QStringLiteral(" · ") + qs(lane.name),
                             name, h.lane, h.item, d.minNs});
        }
    }
    return rows;
}

}  // namespace cs::gui
