// Issue 38, the window's parts: the document set (the open traces, numbered on the timeline only
// when they have a timeline) and the navigator's typed targets for evidence rows.
#include "app/gui/navigator.h"
#include "app/models/document_set.h"
#include "core/engine/julia/invalidation_findings.h"

#include <gtest/gtest.h>

#include <memory>

using cs::gui::DocumentSet;
using cs::gui::NavTarget;
using cs::gui::TraceDocument;

namespace {
TraceDocument opened(int id, const char* path, bool withTimeline) {
    TraceDocument d;
    d.id = id;
    d.path = QString::fromUtf8(path);
    d.label = QStringLiteral("trace.cstrace");
    if (withTimeline) d.timeline = std::make_shared<const cs::engine::TimelineData>();
    return d;
}
}  // namespace

TEST(DocumentSet, TimelineSourcesCountOnlyTracesWithATimeline) {
    DocumentSet docs;
    docs.add(opened(7, "/runs/rank0/trace.cstrace", true));
    docs.add(opened(8, "/runs/rank1/trace.cstrace", false));  // still loading: not drawn yet
    docs.add(opened(9, "/runs/rank2/trace.cstrace", true));
    EXPECT_EQ(docs.timelineSourceOf(0), 0);
    EXPECT_EQ(docs.timelineSourceOf(1), -1);
    EXPECT_EQ(docs.timelineSourceOf(2), 1);
    EXPECT_EQ(docs.documentOfSource(0), 0);
    EXPECT_EQ(docs.documentOfSource(1), 2);
    EXPECT_EQ(docs.documentOfSource(2), -1);
    EXPECT_EQ(docs.documentOfSource(-1), -1);
    ASSERT_NE(docs.byId(9), nullptr);
    EXPECT_EQ(docs.byId(9)->path, QStringLiteral("/runs/rank2/trace.cstrace"));
    EXPECT_EQ(docs.byId(10), nullptr);
}

TEST(DocumentSet, LabelsTellTracesApartAndOnlyChangedOnesAreReported) {
    DocumentSet docs;
    docs.add(opened(1, "/runs/rank0/trace.cstrace", true));
    EXPECT_TRUE(docs.relabel().empty()) << "one trace keeps its file name";
    docs.add(opened(2, "/runs/rank1/trace.cstrace", true));
    EXPECT_EQ(docs.relabel(), (std::vector<int>{0, 1}));
    EXPECT_EQ(docs.at(0).label, QStringLiteral("rank0/trace.cstrace"));
    EXPECT_EQ(docs.at(1).label, QStringLiteral("rank1/trace.cstrace"));
    EXPECT_TRUE(docs.relabel().empty());
}

TEST(DocumentSet, OneBaselineAndTheTraceComparedWithIt) {
    DocumentSet docs;
    EXPECT_FALSE(docs.setCurrent(0));
    EXPECT_EQ(docs.currentDocument(), nullptr);
    docs.add(opened(1, "/a.cstrace", true));
    docs.add(opened(2, "/b.cstrace", true));
    ASSERT_TRUE(docs.setCurrent(0));
    EXPECT_EQ(docs.baseline(), nullptr);
    docs.setBaseline(1);
    ASSERT_NE(docs.baseline(), nullptr);
    EXPECT_EQ(docs.baseline()->id, 2);
    EXPECT_EQ(docs.comparedWithBaseline(), 0);
    docs.setBaseline(0);  // the current trace becomes the baseline: the other one is compared
    EXPECT_FALSE(docs.at(1).baseline);
    EXPECT_EQ(docs.comparedWithBaseline(), 1);
    EXPECT_EQ(docs.indexOfPath(QStringLiteral("/b.cstrace")), 1);
    EXPECT_EQ(docs.indexOfPath(QStringLiteral("/c.cstrace")), -1);
    docs.setBaseline(-1);
    EXPECT_EQ(docs.baseline(), nullptr);
}

TEST(Navigator, EvidenceRowsBecomeTypedTargets) {
    auto lookup = cs::gui::targetOf({"cache_lookups", 42, ""});
    ASSERT_TRUE(lookup);
    EXPECT_EQ(lookup->view, NavTarget::View::Cache);
    EXPECT_EQ(lookup->rowId, 42);
    auto load = cs::gui::targetOf({"module_loads", 5, ""});
    ASSERT_TRUE(load);
    EXPECT_EQ(load->view, NavTarget::View::Modules);
    auto tree = cs::gui::targetOf({cs::engine::kInvalidationTreeEvidence, 3, ""});
    ASSERT_TRUE(tree);
    EXPECT_EQ(tree->view, NavTarget::View::Invalidations);
    EXPECT_FALSE(cs::gui::targetOf({"spans", 1, ""})) << "no view lists a bare span as evidence";
}
