#include "core/ingest/tef/tef_flows.h"

#include <algorithm>

namespace cs::ingest {

namespace {
constexpr size_t kRecentSlices = 32;  // finished slices per track kept to bind later flow events
}

std::int64_t TefFlowBinder::findRecent(const TrackState& t, std::int64_t tsNs, bool enclosing) const {
    std::int64_t best = 0, bestKey = INT64_MAX;
    bool bestEndsThere = true;
    for (const Recent& r : t.recent) {
        if (enclosing) {
            // The innermost (shortest) slice that contains ts. A slice that ends exactly at ts loses
            // to one that is still open there, as in Perfetto: with a slice [a, t] followed by [t, b],
            // a flow event at t belongs to the second (the exporter writes flows at a slice's start).
            if (r.startNs <= tsNs && tsNs <= r.endNs) {
                const bool endsThere = tsNs == r.endNs && r.startNs < r.endNs;
                const std::int64_t len = r.endNs - r.startNs;
                if (endsThere < bestEndsThere || (endsThere == bestEndsThere && len < bestKey)) {
                    best = r.spanId;
                    bestKey = len;
                    bestEndsThere = endsThere;
                }
            }
        } else if (r.startNs >= tsNs && r.startNs < bestKey) {
            // The first slice that begins at or after ts.
            best = r.spanId;
            bestKey = r.startNs;
        }
    }
    return best;
}

void TefFlowBinder::link(std::int64_t from, std::int64_t to) {
    const Endpoint& a = m_endpoints[from];
    const Endpoint& b = m_endpoints[to];
    if (a.spanId == 0 || b.spanId == 0) return;
    m_writer.addFlow({.fromSpanId = a.spanId, .toSpanId = b.spanId, .name = a.name});
    ++m_written;
}

void TefFlowBinder::bind(std::int64_t endpoint, std::int64_t spanId) {
    Endpoint& e = m_endpoints[endpoint];
    e.spanId = spanId;
    std::int64_t prev = e.prev, next = e.next;
    if (prev >= 0) link(prev, endpoint);
    if (next >= 0) link(endpoint, next);
}

void TefFlowBinder::onSlice(std::int64_t track, std::int64_t spanId, std::int64_t startNs, std::int64_t endNs) {
    auto it = m_tracks.find(track);
    if (it == m_tracks.end()) it = m_tracks.emplace(track, TrackState{}).first;
    TrackState& t = it->second;
    if (!t.waiting.empty()) {
        auto fits = [&](const Waiting& w) {
            return w.enclosing ? (startNs <= w.tsNs && w.tsNs <= endNs) : startNs >= w.tsNs;
        };
        // Bind first, then drop the bound ones (bind() does not touch t.waiting).
        for (const Waiting& w : t.waiting)
            if (fits(w)) bind(w.endpoint, spanId);
        std::erase_if(t.waiting, fits);
    }
    t.recent.push_back({spanId, startNs, endNs});
    if (t.recent.size() > kRecentSlices) t.recent.pop_front();
}

bool TefFlowBinder::onFlowEvent(std::int64_t track, char phase, const std::string& key, std::int64_t tsNs,
                                bool enclosing, bool openSlices, trace::StringId name) {
    std::int64_t prev = -1, early = -1;
    bool endsEarly = false;  // an `f` read before its `s`
    auto chain = m_openChains.find(key);
    if (phase == 's') {
        if (chain != m_openChains.end()) m_openChains.erase(chain);  // a new flow with a reused id
        auto first = m_earlyEnds.find(key);
        if (first != m_earlyEnds.end()) {
            early = first->second;
            m_earlyEnds.erase(first);
        }
    } else if (chain != m_openChains.end()) {
        prev = chain->second;
    } else if (phase == 'f') {
        // The file is not in time order (files are written per thread; the viewers sort by time):
        // the flow's end came first. It waits for its `s`.
        endsEarly = true;
    } else {
        return false;
    }
    std::int64_t idx = m_nextEndpoint++;
    Endpoint& e = m_endpoints[idx];
    e.prev = prev;
    e.name = name;
    if (prev >= 0) {
        Endpoint& p = m_endpoints[prev];
        p.next = idx;
        if (e.name == 0) e.name = p.name;
    }
    if (early >= 0) {
        e.next = early;
        m_endpoints[early].prev = idx;
        if (m_endpoints[early].spanId != 0 && e.name == 0) e.name = m_endpoints[early].name;
    } else if (endsEarly) {
        auto [slot, fresh] = m_earlyEnds.try_emplace(key, idx);
        if (!fresh) {
            ++m_lostEarlyEnds;  // a second end before any start: the first one can never link
            slot->second = idx;
        }
    } else if (phase == 'f') {
        m_openChains.erase(key);
    } else {
        m_openChains[key] = idx;
    }

    TrackState& t = m_tracks[track];
    // With a `B` slice open the enclosing slice is still to come; otherwise look at what just ended.
    std::int64_t span = (enclosing && openSlices) ? 0 : findRecent(t, tsNs, enclosing);
    if (span) bind(idx, span);
    else t.waiting.push_back({idx, tsNs, enclosing});
    return true;
}

void TefFlowBinder::onBindId(const std::string& bindId, std::int64_t spanId, bool flowOut, bool flowIn) {
    if (flowIn) {
        auto out = m_flowOut.find(bindId);
        if (out != m_flowOut.end()) {
            m_writer.addFlow({.fromSpanId = out->second, .toSpanId = spanId});
            ++m_written;
        } else {
            m_flowInWaiting[bindId].push_back(spanId);
        }
    }
    if (flowOut) {
        m_flowOut[bindId] = spanId;
        auto waiting = m_flowInWaiting.find(bindId);
        if (waiting != m_flowInWaiting.end()) {
            for (std::int64_t to : waiting->second) {
                m_writer.addFlow({.fromSpanId = spanId, .toSpanId = to});
                ++m_written;
            }
            m_flowInWaiting.erase(waiting);
        }
    }
}

std::int64_t TefFlowBinder::unbound() const {
    std::int64_t n = 0;
    for (const auto& [track, t] : m_tracks) n += static_cast<std::int64_t>(t.waiting.size());
    for (const auto& [id, v] : m_flowInWaiting) n += static_cast<std::int64_t>(v.size());
    n += static_cast<std::int64_t>(m_earlyEnds.size()) + m_lostEarlyEnds;  // ends whose start never came
    return n;
}

}  // namespace cs::ingest
