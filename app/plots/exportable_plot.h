// What "Export plot as PNG / SVG" needs from whichever plot the current view shows.
#pragma once

#include <QString>

namespace cs::gui {

class ExportablePlot {
public:
    virtual ~ExportablePlot() = default;
    virtual QString toSvg() const = 0;
    virtual bool savePng(const QString& path) const = 0;
};

}  // namespace cs::gui
