// DocumentSet (document_set.h): the open traces, which one is current, and how they are numbered on
// the timeline.
#include "app/models/document_set.h"

#include "core/engine/accounting/session_labels.h"

#include <algorithm>
#include <string>

namespace cs::gui {

TraceDocument* DocumentSet::byId(int id) {
    for (TraceDocument& d : m_docs)
        if (d.id == id) return &d;
    return nullptr;
}

const TraceDocument* DocumentSet::byId(int id) const {
    for (const TraceDocument& d : m_docs)
        if (d.id == id) return &d;
    return nullptr;
}

std::vector<const TraceDocument*> DocumentSet::pointers() const {
    std::vector<const TraceDocument*> all;
    for (const TraceDocument& d : m_docs) all.push_back(&d);
    return all;
}

TraceDocument& DocumentSet::add(TraceDocument d) {
    m_docs.push_back(std::move(d));
    return m_docs.back();
}

const TraceDocument* DocumentSet::currentDocument() const {
    return m_current >= 0 && m_current < static_cast<int>(m_docs.size()) ? &at(m_current) : nullptr;
}

bool DocumentSet::setCurrent(int index) {
    if (index < 0 || index >= static_cast<int>(m_docs.size())) return false;
    m_current = index;
    return true;
}

int DocumentSet::timelineSourceOf(int index) const {
    int source = 0;
    for (int i = 0; i < static_cast<int>(m_docs.size()); ++i) {
        if (!at(i).timeline) continue;
        if (i == index) return source;
        ++source;
    }
    return -1;
}

int DocumentSet::documentOfSource(int source) const {
    if (source < 0) return -1;
    for (int i = 0; i < static_cast<int>(m_docs.size()); ++i)
        if (timelineSourceOf(i) == source) return i;
    return -1;
}

std::vector<int> DocumentSet::relabel() {
    std::vector<std::string> paths;
    for (const TraceDocument& d : m_docs) paths.push_back(d.path.toStdString());
    const std::vector<std::string> names = engine::distinguishingSuffixes(paths);
    std::vector<int> changed;
    for (std::size_t i = 0; i < m_docs.size(); ++i) {
        const QString label = QString::fromStdString(names[i]);
        if (label == m_docs[i].label) continue;
        m_docs[i].label = label;
        changed.push_back(static_cast<int>(i));
    }
    return changed;
}

const TraceDocument* DocumentSet::baseline() const {
    const TraceDocument* base = nullptr;
    for (const TraceDocument& d : m_docs)
        if (d.baseline) base = &d;
    return base;
}

void DocumentSet::setBaseline(int index) {
    for (TraceDocument& d : m_docs) d.baseline = false;
    if (index < 0 || index >= static_cast<int>(m_docs.size())) return;
    at(index).baseline = true;
}

int DocumentSet::comparedWithBaseline() const {
    if (const TraceDocument* d = currentDocument(); d && !d->baseline) return m_current;
    for (int i = 0; i < static_cast<int>(m_docs.size()); ++i)
        if (!at(i).baseline) return i;
    return -1;
}

int DocumentSet::indexOfPath(const QString& path) const {
    for (int i = 0; i < static_cast<int>(m_docs.size()); ++i)
        if (at(i).path == path) return i;
    return -1;
}

QString analysedPath(const TraceDocument& d) {
    if (d.analyses && d.analyses->trace && !d.analyses->trace->path.empty()) return QString::fromStdString(d.analyses->trace->path);
    return d.path;
}

}  // namespace cs::gui
