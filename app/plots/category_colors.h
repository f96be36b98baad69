// One colour per span category and per cache-lookup outcome, shared by the timeline, its legend and
// the Overview chart.
//
// Why these colours: the palette is Okabe and Ito's colour-blind-safe set, extended with Paul Tol's
// muted colours, and every outcome has its own (issue 39): a compile (vermillion) is not a cache miss
// (wine), a cache load (bluish green) is not a cache hit (pale cyan). The marks also differ in shape:
// a miss is a full-height bar labelled "miss", a hit a half-height tick, so the outcome reads without
// colour at all.
#pragma once

#include <compilescope/trace_constants.h>

#include <QColor>

namespace cs::gui {

inline QColor categoryColor(int category) {
    static const QColor colors[CS_CAT_COUNT] = {
        QColor(0x9e, 0x9e, 0x9e),  // other: grey
        QColor(0xd5, 0x5e, 0x00),  // compile: vermillion
        QColor(0x00, 0x9e, 0x73),  // cache load: bluish green
        QColor(0x00, 0x72, 0xb2),  // module load: blue
        QColor(0xcc, 0x79, 0xa7),  // launch: reddish purple
        QColor(0xe6, 0x9f, 0x00),  // import: orange
        QColor(0xb0, 0x8d, 0x57),  // init: tan
        QColor(0x60, 0x7d, 0x8b),  // step: blue grey
        QColor(0x56, 0xb4, 0xe9),  // inference: sky blue
        QColor(0x99, 0x99, 0x33),  // codegen: olive
        QColor(0x33, 0x22, 0x88),  // link: indigo
        QColor(0xf0, 0xe4, 0x42),  // compiler phase: yellow
        QColor(0x79, 0x55, 0x48),  // gc: brown
    };
    return category >= 0 && category < CS_CAT_COUNT ? colors[category] : colors[0];
}

// A cache-lookup mark: a miss, or a hit.
inline QColor lookupColor(bool miss) { return miss ? QColor(0xaa, 0x33, 0x77) : QColor(0x88, 0xcc, 0xee); }

}  // namespace cs::gui
