#include "core/report/sections.h"

#include <algorithm>
#include <string>

namespace cs::report {

void openSection(HtmlBuilder& h, Trusted id, std::string_view title, std::int64_t count) {
    h.open("section", {{"id", id.view()}, {"data-count", count}, {"class", "card"}});
    h.open("h2").text(title);
    h.leaf("span", std::to_string(count), {{"class", "count"}});
    // Every section leads back to the index of compiles (tlparse's first page).
    if (id.view() != "compiles") h.leaf("a", "\xE2\x86\x91 index", {{"class", "up"}, {"href", "#compiles"}});
    h.close();
}

void traceHeading(HtmlBuilder& h, const std::vector<TraceReport>& traces, const TraceReport& t) {
    if (traces.size() < 2) return;
    h.open("h3", {{"class", "trace-label"}});
    h.leaf("span", t.label, {{"class", "tag"}});
    h.text(" ").shortText(t.path, 120);
    h.close();
}

void openTable(HtmlBuilder& h, std::initializer_list<Attr> attrs, std::initializer_list<std::string_view> columns) {
    h.open("table", attrs).open("thead").open("tr");
    for (auto c : columns) {
        if (c.size() > 1 && c[0] == '#') h.leaf("th", c.substr(1), {{"class", "num"}});
        else h.leaf("th", c);
    }
    h.close().close().open("tbody");
}

void openWideTable(HtmlBuilder& h, std::initializer_list<Attr> attrs, std::initializer_list<std::string_view> columns) {
    h.open("div", {{"class", "scroll"}});
    openTable(h, attrs, columns);
}

void closeWideTable(HtmlBuilder& h) { h.close().close().close(); }

void moreRows(HtmlBuilder& h, std::int64_t total, size_t shown) {
    if (total <= static_cast<std::int64_t>(shown)) return;
    h.leaf("p",
           std::to_string(total - static_cast<std::int64_t>(shown)) + " more rows in the trace are not listed (" +
               std::to_string(shown) + " of " + std::to_string(total) + " shown; query the trace with `compilescope sql`).",
           {{"class", "more"}});
}

void emptyNote(HtmlBuilder& h, std::string_view what) { h.leaf("p", what, {{"class", "empty"}}); }

void fractionBar(HtmlBuilder& h, double fraction, Trusted cls) {
    fraction = std::clamp(fraction, 0.0, 1.0);
    h.open("svg", {{"class", cls.view()}, {"width", "100"}, {"height", "8"}, {"viewBox", "0 0 100 8"},
                   {"aria-hidden", "true"}});
    h.open("rect", {{"class", "track"}, {"width", "100"}, {"height", "8"}, {"rx", "2"}}).close();
    h.open("rect", {{"class", "fill"}, {"width", fraction * 100.0}, {"height", "8"}, {"rx", "2"}}).close();
    h.close();
}

void sourceNote(HtmlBuilder& h, std::string_view source) {
    if (!source.empty()) h.leaf("p", "Source of these figures: " + std::string(source) + ".", {{"class", "source"}});
}

}  // namespace cs::report
