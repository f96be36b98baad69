// What the surfaces beyond the figures table show of a trace's keyed figures (issue 35: "no surface
// shows a figure that is not keyed"): the Overview's headline, the Cache view's counts, the
// Invalidations view's summary and tree rows, the Ranks view's misses, and the CLI's check, explain
// and trees. Each number such a surface shows is read back as a user reads it and must be the text
// of one of the trace's keyed figures (engine/analysis/trace_figures.h), the same key where the surface names
// it; a share must be the keyed clocked compile time over the keyed wall time.
#pragma once

#include "app/gui/main_window.h"
#include "app/models/rank_models.h"
#include "app/models/text.h"
#include "app/plots/bar_chart.h"
#include "app/widgets/cache_view.h"
#include "app/widgets/invalidations_view.h"
#include "app/widgets/overview_view.h"
#include "cli_runner.h"
#include "core/engine/analysis/trace_figures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace cs::test::surfaces {

using FigureMap = std::map<std::string, std::optional<std::int64_t>>;

inline std::string textOf(const std::string& key, const std::optional<std::int64_t>& value) {
    return engine::figureText({key, "", value});
}

// The numbers of `text` as a reader sees them: counts ("1,234"), durations ("2.09 s", "318 ms") and
// shares ("99.9%"). Digits inside a word (a file name, "0x1001", "cuda:0") are no figure.
inline std::vector<std::string> numbersIn(const std::string& text) {
    static const std::regex number(R"(\d[\d,]*(?:\.\d+)?(?:%| (?:ns|us|µs|ms|s)(?![A-Za-z0-9_]))?)");
    std::vector<std::string> out;
    for (std::sregex_iterator i(text.begin(), text.end(), number), e; i != e; ++i) {
        const auto at = static_cast<std::size_t>(i->position());
        const unsigned char before = at ? static_cast<unsigned char>(text[at - 1]) : ' ';
        if (std::isalnum(before) || before == '_' || before == '.' || before == ':' || before == '#' || before == '-') continue;
        std::string n = i->str();
        while (!n.empty() && n.back() == ',') n.pop_back();  // "4, 7": the list's comma, not a digit group
        out.push_back(n);
    }
    return out;
}

// Every number of `text` is the text of a keyed figure; a share is clocked compile / wall.
inline void expectOnlyKeyedNumbers(const std::string& text, const FigureMap& figures, const std::string& what) {
    std::vector<std::string> keyed;
    for (const auto& [key, value] : figures) keyed.push_back(textOf(key, value));
    for (const std::string& n : numbersIn(text)) {
        if (n.ends_with('%')) {
            const auto clocked = figures.find("compile.clocked_ns"), wall = figures.find("wall_ns");
            ASSERT_TRUE(clocked != figures.end() && wall != figures.end() && clocked->second && wall->second && *wall->second > 0)
                << what << " shows the share " << n << " without a keyed compile and wall time: " << text;
            EXPECT_EQ(n, gui::percentText(static_cast<double>(*clocked->second) / static_cast<double>(*wall->second)).toStdString())
                << what << ": " << text;
            continue;
        }
        EXPECT_NE(std::find(keyed.begin(), keyed.end(), n), keyed.end())
            << what << " shows " << n << ", which is no keyed figure of the trace: " << text;
    }
}

// `text` holds "<label> <the key's text>" (e.g. "misses 23"), with that key's value.
inline void expectKeyed(const std::string& text, const std::string& label, const FigureMap& figures, const std::string& key,
                        const std::string& what) {
    const auto f = figures.find(key);
    ASSERT_NE(f, figures.end()) << what << " shows " << label << " but the trace has no figure " << key << ": " << text;
    EXPECT_NE(text.find(label + textOf(key, f->second)), std::string::npos) << what << ": " << key << " reads otherwise in: " << text;
}

// The lines of `text` that begin with `prefix` (after leading spaces).
inline std::vector<std::string> linesStarting(const std::string& text, const std::string& prefix) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const auto start = line.find_first_not_of(' ');
        if (start != std::string::npos && line.compare(start, prefix.size(), prefix) == 0) out.push_back(line.substr(start));
    }
    return out;
}

// check, explain and trees: their summary lines show keyed figures only, under their keys.
inline void expectCliSurfaces(const std::string& trace, const FigureMap& f) {
    const auto check = runCli({"check", trace}).out;
    for (const std::string& line : linesStarting(check, "replay: ")) {
        expectOnlyKeyedNumbers(line, f, "check");
        expectKeyed(line, "lookups ", f, "cache.lookups", "check");
        expectKeyed(line, "misses ", f, "cache.misses.replayed", "check");
    }
    for (const std::string& line : linesStarting(check, "module loads (")) {
        expectOnlyKeyedNumbers(line, f, "check");
        expectKeyed(line, "misses ", f, "modules.cache.misses.replayed", "check");
    }
    for (const std::string& line : linesStarting(check, "runtime cache")) expectOnlyKeyedNumbers(line, f, "check");
    const auto explain = runCli({"explain", trace}).out;
    for (const std::string& line : linesStarting(explain, "explain ")) {
        const std::string counts = line.substr(std::min(line.size(), line.find(": lookups ") == std::string::npos ? line.size() : line.find(": lookups ")));
        expectOnlyKeyedNumbers(counts, f, "explain");
    }
    // trees: one stderr line per tree, its counts under its keys.
    const auto trees = runCli({"trees", trace}).err;
    const auto lines = linesStarting(trees, "tree ");
    const auto count = f.find("invalidations.trees");
    EXPECT_EQ(static_cast<std::int64_t>(lines.size()), count == f.end() ? 0 : count->second.value_or(0)) << trees;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string key = engine::invalidationTreeKey(i);
        expectKeyed(lines[i], ": ", f, key + ".children", "trees");
        expectKeyed(lines[i], ", ", f, key + ".invalidated", "trees");
        expectOnlyKeyedNumbers(lines[i].substr(lines[i].find(':')), f, "trees");
    }
}

// The GUI's views of the window's current document, beyond the figures table.
inline void expectGuiSurfaces(gui::MainWindow& window, const FigureMap& f) {
    const gui::TraceDocument& doc = window.documents().at(0);
    const std::string headline = window.overview()->headline().toStdString();
    const std::string prefix = doc.label.toStdString() + ": ";
    ASSERT_TRUE(headline.starts_with(prefix)) << headline;
    expectOnlyKeyedNumbers(headline.substr(prefix.size()), f, "the Overview's headline");
    // Cache: the verdict's counts and the module cache's sentence; the chart's sentence without bars.
    window.setCurrentDocument(0);
    const std::string verdict = window.cache()->verdict().toStdString();
    static const std::regex counts(R"(([\d,]+) lookups, ([\d,]+) misses \(replayed\), ([\d,]+) entries)");
    if (std::smatch m; std::regex_search(verdict, m, counts)) {
        expectKeyed(m.str(0), "", f, "cache.lookups", "the Cache view");
        expectKeyed(m.str(0), "lookups, ", f, "cache.misses.replayed", "the Cache view");
        expectKeyed(m.str(0), "misses (replayed), ", f, "cache.entries", "the Cache view");
    }
    static const std::regex modules(R"(([\d,]+) compiled = misses, ([\d,]+) cached = hits)");
    if (std::smatch m; std::regex_search(verdict, m, modules)) {
        expectKeyed(m.str(0), "", f, "modules.cache.misses.replayed", "the Cache view");
        expectKeyed(m.str(0), "misses, ", f, "modules.cache.hits.replayed", "the Cache view");
    }
    expectOnlyKeyedNumbers(window.cache()->chart()->shownEmptyText().toStdString(), f, "the Cache view's chart");
    // Invalidations: the summary, and each root row's counts (one number per tree).
    const std::string summary = window.invalidations()->summary().toStdString();
    if (f.count("invalidations.trees")) expectOnlyKeyedNumbers(summary, f, "the Invalidations view");
    gui::InvalidationsModel* m = window.invalidations()->model();
    for (int r = 0; r < m->rowCount() && f.count("invalidations.trees"); ++r) {
        const gui::InvalidationItem* item = m->itemAt(m->index(r, 0));
        ASSERT_TRUE(item && !item->figureKey.empty()) << "a root row without its tree's key";
        ASSERT_TRUE(f.count(item->figureKey + ".children") && f.count(item->figureKey + ".invalidated")) << item->figureKey;
        EXPECT_EQ(m->index(r, 1).data().toLongLong(), f.at(item->figureKey + ".children").value_or(-1)) << item->figureKey;
        EXPECT_EQ(m->index(r, 2).data().toLongLong(), f.at(item->figureKey + ".invalidated").value_or(-1)) << item->figureKey;
    }
    // Ranks: the misses column is the one "misses" figure (Warp's compiled module loads count).
    auto ranks = gui::compareDocuments({&doc}, false);
    ASSERT_EQ(ranks->rows.size(), 1u);
    const auto misses = f.find("misses");
    EXPECT_EQ(ranks->rows[0].misses, misses == f.end() ? std::nullopt : misses->second);
}

}  // namespace cs::test::surfaces
