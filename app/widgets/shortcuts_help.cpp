#include "shortcuts_help.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QVBoxLayout>

namespace cs::gui {

const std::vector<Shortcut>& timelineShortcuts() {
    static const std::vector<Shortcut> keys = {
        {QStringLiteral("W / S, mouse wheel"), QStringLiteral("zoom in / out about the mouse cursor")},
        {QStringLiteral("A / D, drag"), QStringLiteral("pan left / right")},
        {QStringLiteral("F"), QStringLiteral("fit the selected span (everything when nothing is selected)")},
        {QStringLiteral("0, Home"), QStringLiteral("fit everything")},
        {QStringLiteral("Page Up / Page Down"), QStringLiteral("scroll the lanes")},
        {QStringLiteral("O / Shift+O"), QStringLiteral("move the time axis' zero to the selection's start / back to the first event")},
        {QStringLiteral("P, right-click a lane"), QStringLiteral("pin the selected span's lane to the top (it stays while the lanes scroll) / unpin it")},
        {QStringLiteral("Enter"), QStringLiteral("open the selected cache lookup in the Cache view")},
        {QStringLiteral("Click"), QStringLiteral("select a span, a fold or a mark; on a process header: collapse / expand")},
        {QStringLiteral("Shift + drag"), QStringLiteral("sum a time range of the lanes crossed (the Range tab)")},
        {QStringLiteral("?"), QStringLiteral("this help")},
    };
    return keys;
}

const std::vector<Shortcut>& windowShortcuts() {
    static const std::vector<Shortcut> keys = {
        {QStringLiteral("Ctrl+O"), QStringLiteral("open a trace or a log (Warp, Julia, TEF, nvcc, PyTorch, JAX)")},
        {QStringLiteral("Ctrl+F"), QStringLiteral("search every name, hash and argument")},
        {QStringLiteral("Ctrl+Q"), QStringLiteral("quit")},
    };
    return keys;
}

ShortcutsHelp::ShortcutsHelp(QWidget* parent) : QDialog(parent) {
    setWindowTitle(QStringLiteral("Keyboard shortcuts"));
    QString html = QStringLiteral("<h3>Timeline</h3><table cellspacing='4'>");
    auto rows = [&](const std::vector<Shortcut>& keys) {
        for (const Shortcut& k : keys) {
            html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(k.keys.toHtmlEscaped(), k.action.toHtmlEscaped());
            m_text += k.keys + QStringLiteral(": ") + k.action + QLatin1Char('\n');
        }
    };
    rows(timelineShortcuts());
    html += QStringLiteral("</table><h3>Window</h3><table cellspacing='4'>");
    rows(windowShortcuts());
    html += QStringLiteral("</table>");
    auto* label = new QLabel(html, this);
    label->setTextFormat(Qt::RichText);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(label);
    layout->addWidget(buttons);
}

QString ShortcutsHelp::text() const { return m_text; }

}  // namespace cs::gui
