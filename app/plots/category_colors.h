// One colour per span category, shared by the timeline and the Overview chart.
#pragma once

#include <compilescope/trace_constants.h>

#include <QColor>

namespace cs::gui {

inline QColor categoryColor(int category) {
    static const QColor colors[CS_CAT_COUNT] = {
        QColor(0x9e, 0x9e, 0x9e),  // other
        QColor(0xd6, 0x45, 0x3d),  // compile
        QColor(0x4c, 0xaf, 0x50),  // cache load
        QColor(0x3f, 0x7f, 0xbf),  // module load
        QColor(0x8e, 0x6c, 0xc9),  // launch
        QColor(0xe0, 0x9a, 0x2b),  // import
        QColor(0xb0, 0x8d, 0x57),  // init
        QColor(0x60, 0x7d, 0x8b),  // step
        QColor(0xf0, 0x7c, 0x6c),  // inference
        QColor(0xc2, 0x18, 0x5b),  // codegen
        QColor(0x00, 0x96, 0x88),  // link
        QColor(0xff, 0xb7, 0x4d),  // compiler phase
        QColor(0x79, 0x55, 0x48),  // gc
    };
    return category >= 0 && category < CS_CAT_COUNT ? colors[category] : colors[0];
}

}  // namespace cs::gui
