// The start page (start_screen.h says why it exists).
#include "start_screen.h"

#include "how_to_record.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace cs::gui {

namespace {
QLabel* heading(const QString& text) {
    auto* l = new QLabel(text);
    QFont f = l->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    l->setFont(f);
    return l;
}

// One row per runtime: its name, then the command in a fixed-width, selectable label.
QWidget* recordBox() {
    auto* box = new QWidget;
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(16);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    int row = 0;
    for (const QString& line : recordLines()) {
        const int colon = line.indexOf(QStringLiteral(": "));
        auto* name = new QLabel(line.left(colon));
        auto* command = new QLabel(line.mid(colon + 2));
        command->setFont(mono);
        command->setTextInteractionFlags(Qt::TextSelectableByMouse);
        command->setWordWrap(true);
        command->setObjectName(QStringLiteral("recordCommand"));
        grid->addWidget(name, row, 0, Qt::AlignTop);
        grid->addWidget(command, row, 1);
        ++row;
    }
    grid->setColumnStretch(1, 1);
    return box;
}
}  // namespace

StartScreen::StartScreen(QWidget* parent)
    : QWidget(parent), m_open(new QPushButton(QStringLiteral("Open a trace or log…"))),
      m_demo(new QPushButton(QStringLiteral("Open the demo"))),
      m_attach(new QPushButton(QStringLiteral("Attach to a live recording…"))), m_recent(new QListWidget), m_recordBox(recordBox()) {
    auto* column = new QVBoxLayout;
    column->addWidget(heading(QStringLiteral("CompileScope")));
    column->addWidget(new QLabel(QStringLiteral("Shows every compile a JIT stack does, and why it happened. Open a trace "
                                                "(.cstrace) or a runtime's log to begin; logs are imported as they open.")));
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {m_open, m_demo, m_attach}) buttons->addWidget(b);
    buttons->addStretch(1);
    column->addLayout(buttons);
    m_open->setToolTip(QStringLiteral("Choose trace files (.cstrace) or logs to import (File > Open…)"));
    m_attach->setToolTip(QStringLiteral("Follow a recording while `compilescope record` writes it"));
    const QString demo = demoPath();
    m_demo->setEnabled(!demo.isEmpty());
    m_demo->setToolTip(demo.isEmpty() ? QStringLiteral("The bundled demo trace is not installed (set COMPILESCOPE_DEMO to its path)")
                                      : QStringLiteral("The bundled trace of real Warp, Julia, Numba and CUDA workloads: %1").arg(demo));
    column->addSpacing(12);
    column->addWidget(heading(QStringLiteral("Recent")));
    m_recent->setMaximumHeight(m_recent->fontMetrics().height() * 8);
    m_recent->setTextElideMode(Qt::ElideMiddle);
    column->addWidget(m_recent);
    column->addSpacing(12);
    column->addWidget(heading(QStringLiteral("How to record")));
    column->addWidget(m_recordBox);
    column->addStretch(1);
    auto* outer = new QHBoxLayout(this);  // a readable column in the middle of a wide window
    outer->addStretch(1);
    outer->addLayout(column, 6);
    outer->addStretch(1);
    connect(m_open, &QPushButton::clicked, this, &StartScreen::openRequested);
    connect(m_attach, &QPushButton::clicked, this, &StartScreen::attachRequested);
    connect(m_demo, &QPushButton::clicked, this, [this] {
        if (const QString p = demoPath(); !p.isEmpty()) emit pathsRequested({p});
    });
    connect(m_recent, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        if (item->flags() & Qt::ItemIsEnabled) emit pathsRequested({item->data(Qt::UserRole).toString()});
    });
    setRecent({});
}

void StartScreen::setRecent(const QStringList& paths) {
    m_recent->clear();
    for (const QString& p : paths) {
        auto* item = new QListWidgetItem(p, m_recent);
        item->setData(Qt::UserRole, p);
        item->setToolTip(p);
    }
    if (paths.isEmpty()) {
        auto* none = new QListWidgetItem(QStringLiteral("No trace opened yet: the traces you open are listed here."), m_recent);
        none->setFlags(Qt::NoItemFlags);
    }
}

QStringList StartScreen::recordText() const {
    QStringList out;
    const auto* grid = static_cast<QGridLayout*>(m_recordBox->layout());
    for (int r = 0; r < grid->rowCount(); ++r) {
        const auto* name = qobject_cast<QLabel*>(grid->itemAtPosition(r, 0) ? grid->itemAtPosition(r, 0)->widget() : nullptr);
        const auto* command = qobject_cast<QLabel*>(grid->itemAtPosition(r, 1) ? grid->itemAtPosition(r, 1)->widget() : nullptr);
        if (name && command) out << QStringLiteral("%1: %2").arg(name->text(), command->text());
    }
    return out;
}

QString StartScreen::demoPath() {
    const QByteArray env = qgetenv("COMPILESCOPE_DEMO");
    if (!env.isEmpty()) return QFileInfo::exists(QString::fromLocal8Bit(env)) ? QString::fromLocal8Bit(env) : QString();
    const QDir app(QCoreApplication::applicationDirPath());
    for (const char* up : {"..", "../.."}) {
        const QString p = app.filePath(QStringLiteral("%1/share/compilescope/demo/demo.cstrace").arg(QLatin1String(up)));
        if (QFileInfo::exists(p)) return QFileInfo(p).canonicalFilePath();
    }
    return {};
}

}  // namespace cs::gui
