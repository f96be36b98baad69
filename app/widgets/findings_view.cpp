#include "findings_view.h"

#include "filtered_table.h"

#include "core/engine/analysis/fix_sources.h"
#include "core/engine/fix/fix_view.h"

#include <QAction>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace cs::gui {

namespace {
// The change as text, read-only and monospaced, with Copy (to the clipboard) and Save (a file the user
// applies with `patch`, or pastes from).
QDialog* changeDialog(QWidget* parent, const QString& title, const QString& text, bool isDiff) {
    auto* dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("fixChangeDialog"));
    dialog->setWindowTitle(title);
    auto* edit = new QPlainTextEdit(text, dialog);
    edit->setObjectName(QStringLiteral("fixChangeText"));
    edit->setReadOnly(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QPushButton* copy = buttons->addButton(QStringLiteral("Copy"), QDialogButtonBox::ActionRole);
    copy->setObjectName(QStringLiteral("fixChangeCopy"));
    QPushButton* save = buttons->addButton(QStringLiteral("Save…"), QDialogButtonBox::ActionRole);
    QObject::connect(copy, &QPushButton::clicked, dialog, [text] { QGuiApplication::clipboard()->setText(text); });
    QObject::connect(save, &QPushButton::clicked, dialog, [dialog, text, isDiff] {
        const QString path = QFileDialog::getSaveFileName(dialog, QStringLiteral("Save the change"),
                                                          isDiff ? QStringLiteral("change.patch") : QStringLiteral("change.txt"));
        QFile f(path);
        if (!path.isEmpty() && f.open(QIODevice::WriteOnly | QIODevice::Truncate)) f.write(text.toUtf8());
    });
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(edit);
    layout->addWidget(buttons);
    dialog->resize(820, 480);
    return dialog;
}
}  // namespace

FindingsView::FindingsView(QWidget* parent)
    : QWidget(parent), m_model(makeFindingsModel(this)), m_details(new QTextBrowser(this)),
      m_showChange(new QAction(QStringLiteral("Show the change…"), this)) {
    m_table = new FilteredTable(m_model, QStringLiteral("Filter findings (title, kind, evidence)"), this);
    m_showChange->setEnabled(false);
    m_showChange->setToolTip(QStringLiteral("The diff or snippet `compilescope fix` writes for this finding"));
    connect(m_showChange, &QAction::triggered, this, [this] { showChange(); });
    m_table->view()->addAction(m_showChange);
    m_table->view()->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* button = new QToolButton(this);
    button->setDefaultAction(m_showChange);
    auto* lower = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(m_details);
    lowerLayout->addWidget(button, 0, Qt::AlignLeft);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(lower);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);
    m_details->setHtml(QStringLiteral("<p>No findings yet.</p>"));
    connect(m_table, &FilteredTable::current, this, [this](const QModelIndex& i) {
        if (const FindingItem* it = m_model->itemAt(i)) select(it->finding);
    });
    connect(m_table, &FilteredTable::activated, this, [this](const QModelIndex& i) {
        const FindingItem* it = m_model->itemAt(i);
        if (!it) return;
        // An evidence row is a link to its own view; the finding row leads to all of its evidence.
        if (it->evidence >= 0 && !evidenceView(it->finding->evidence[static_cast<std::size_t>(it->evidence)]).isEmpty())
            emit evidenceActivated(it->findingIndex, it->evidence);
        else
            emit findingActivated(it->findingIndex);
    });
}

void FindingsView::setDocument(const TraceDocument& doc) {
    m_analysis = doc.analyses ? doc.analyses->trace : nullptr;
    m_plan = m_analysis ? std::make_shared<const engine::fix::FixPlan>(engine::fix::planFixesForTrace(engine::fixSourcesOf(*m_analysis))) : nullptr;
    fill(doc.findings);
}

void FindingsView::select(const engine::Finding* f) {
    m_selected = f;
    if (f) m_details->setHtml(findingHtml(*f));
    m_showChange->setEnabled(currentChange() != nullptr);
}

const engine::fix::FixChange* FindingsView::currentChange() const {
    if (!m_selected || !m_plan || !m_analysis) return nullptr;
    return engine::fix::changeFor(*m_plan, engine::fixSourcesOf(*m_analysis), *m_selected);
}

QDialog* FindingsView::showChange() {
    const engine::fix::FixChange* c = currentChange();
    if (!c) return nullptr;
    const QString title = QStringLiteral("The change for finding %1: %2")
                              .arg(c->finding + 1)
                              .arg(QString::fromStdString(c->kind));
    QDialog* d = changeDialog(this, title, QString::fromStdString(engine::fix::changeText(*c)), !c->diff.empty());
    d->show();
    return d;
}

void FindingsView::setFindings(FindingsPtr findings) {
    m_analysis.reset();  // no document: no changes to show
    m_plan.reset();
    fill(std::move(findings));
}

void FindingsView::fill(FindingsPtr findings) {
    select(nullptr);
    m_tree = buildFindingTree(findings);
    m_model->setTree(m_tree);
    m_table->view()->expandToDepth(0);
    m_details->setHtml(findings && !findings->empty()
                           ? QStringLiteral("<p>%1 finding(s). Select one for its mechanism, evidence, cost and fix; "
                                            "activate it (Enter, double-click) to see it on the timeline.</p>")
                                 .arg(findings->size())
                           : QStringLiteral("<p>No findings: no analysis found a problem in this trace.</p>"));
    if (findings && !findings->empty()) showFinding(0);  // the most severe first, explained
}

void FindingsView::showFinding(int index) {
    if (!m_tree) return;
    for (int root : m_tree->roots)
        if (m_tree->nodes[static_cast<std::size_t>(root)].item.findingIndex == index) {
            m_table->selectSource(m_model->indexOfNode(root));
            select(m_tree->nodes[static_cast<std::size_t>(root)].item.finding);
        }
}

QString FindingsView::details() const { return m_details->toPlainText(); }

}  // namespace cs::gui
