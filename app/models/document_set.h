// DocumentSet: the open traces and their analyses, as the window holds them. One TraceDocument per
// trace opened, in the order opened, and which one the tables show (the current one).
//
// Why a class of its own: the window, the navigator (app/gui/navigator.h) and the comparison with a
// baseline all ask the same questions of the open traces: which timeline source a trace is drawn as
// (only traces with a timeline are drawn, so the two numberings differ), which trace is the
// baseline, what each is called. They are answered here once, without widgets, and tested alone.
#pragma once

#include "app/models/trace_document.h"

#include <QString>

#include <vector>

namespace cs::gui {

class DocumentSet {
public:
    const std::vector<TraceDocument>& all() const { return m_docs; }
    std::size_t size() const { return m_docs.size(); }
    auto begin() const { return m_docs.begin(); }
    auto end() const { return m_docs.end(); }
    bool empty() const { return m_docs.empty(); }
    // Index `index` in the order opened; the caller checks the range.
    TraceDocument& at(int index) { return m_docs[static_cast<std::size_t>(index)]; }
    const TraceDocument& at(int index) const { return m_docs[static_cast<std::size_t>(index)]; }
    // By the loader's id; null when no open trace has it.
    TraceDocument* byId(int id);
    const TraceDocument* byId(int id) const;
    // Every open trace, as pointers (the form the rank comparison and the loss banner take).
    std::vector<const TraceDocument*> pointers() const;

    TraceDocument& add(TraceDocument d);
    int current() const { return m_current; }
    // The trace the tables show; null before any trace opens.
    const TraceDocument* currentDocument() const;
    // False (and nothing changes) when `index` is not an open trace.
    bool setCurrent(int index);

    // The timeline source trace `index` is drawn as (traces with a timeline, in the order opened), or -1.
    int timelineSourceOf(int index) const;
    // The trace drawn as timeline source `source`, or -1.
    int documentOfSource(int source) const;

    // Names each trace by the shortest trailing path that tells it apart from the others open (the
    // ranks of a job all write trace.cstrace, each in a folder of its own); returns the indexes
    // whose label changed.
    std::vector<int> relabel();

    // The baseline (File > Compare with baseline…), or null. At most one trace is.
    const TraceDocument* baseline() const;
    // Makes trace `index` the one baseline (-1: none).
    void setBaseline(int index);
    // The index of the trace compared with the baseline: the current one unless it is the baseline,
    // else the first other one; -1 when there is none.
    int comparedWithBaseline() const;
    // The open trace at absolute path `path`, or -1.
    int indexOfPath(const QString& path) const;

private:
    std::vector<TraceDocument> m_docs;
    int m_current = -1;
};

// The file the engine analysed for `d`: an import's trace, a live recording's mirror, or else the
// file opened.
QString analysedPath(const TraceDocument& d);

}  // namespace cs::gui
