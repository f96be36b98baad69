#include "diff_view.h"

#include "filtered_table.h"

#include "app/models/text.h"

#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace cs::gui {

DiffView::DiffView(QWidget* parent)
    : QWidget(parent), m_model(makeDiffModel(this)), m_table(new FilteredTable(m_model, QStringLiteral("Filter changes"), this)),
      m_headline(new QLabel(this)), m_notes(new QLabel(this)) {
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_notes);
    m_headline->setText(QStringLiteral("No baseline: File > Compare with baseline… opens a run to compare this trace with "
                                       "(the same as `compilescope diff BASELINE TRACE`)."));
}

void DiffView::setPending(const QString& baseLabel, const QString& headLabel) {
    m_diff.reset();
    m_pending = true;
    m_baseLabel = baseLabel;
    m_headLabel = headLabel;
    m_model->setRows(diffRows(nullptr));
    m_notes->clear();
    m_headline->setText(QStringLiteral("Comparing %1 (baseline) with %2…").arg(baseLabel, headLabel));
}

void DiffView::setDiff(const TraceDiffPtr& diff) {
    m_diff = diff;
    m_pending = false;
    m_model->setRows(diffRows(diff));
    m_table->resizeColumns();
    QString text = QStringLiteral("%1 (baseline) → %2: %3").arg(m_baseLabel, m_headLabel, diffHeadline(*diff));
    if (diff->changes.empty()) text += QStringLiteral("\nNo change: the same compiles, findings and verdict.");
    m_headline->setText(text);
    QStringList notes;
    for (const auto& n : diff->notes) notes << qs(n);
    m_notes->setText(notes.join(QStringLiteral("\n")));
}

void DiffView::setError(const QString& message) {
    m_diff.reset();
    m_pending = false;
    m_model->setRows(diffRows(nullptr));
    m_headline->setText(QStringLiteral("The comparison failed: %1").arg(message));
}

QString DiffView::headline() const { return m_headline->text(); }

}  // namespace cs::gui
