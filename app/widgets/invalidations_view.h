// Invalidations view: SnoopCompile-style trees (inserted / deleted method -> mt_backedges and
// backedges -> caller trees) with children counts and recompile cost; sort by any column, filter
// by module, search, and the path from a root to a method (SnoopCompile's findcaller); below, the
// forest as an icicle weighted by recompile cost, whose blocks select their rows.
#pragma once

#include "app/models/invalidation_models.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;

namespace cs::gui {

class FilteredTable;
class IcicleView;

class InvalidationsView : public QWidget {
    Q_OBJECT
public:
    explicit InvalidationsView(QWidget* parent = nullptr);
    void setDocument(const TraceDocument& doc);
    InvalidationsModel* model() const { return m_model; }
    FilteredTable* table() const { return m_table; }
    QComboBox* moduleFilter() const { return m_module; }
    IcicleView* icicle() const { return m_icicle; }
    // Selects the first node whose MethodInstance contains `needle`, expanding the path to it.
    bool showPathTo(const QString& needle);
    // Selects the root of tree `index` of the analysis's forest (a finding's evidence), showing all
    // modules first when a module filter hides it.
    bool showTree(std::size_t index);
    QString summary() const;

    // The summary line: the whole forest's keyed figures (`figures`), or a module filter's own counts.
    static QString forestSummary(const engine::InvalidationForest& shown, const engine::InvalidationForest& all,
                                 const engine::TraceFigures* figures);

private:
    void rebuild();
    InvalidationsModel* m_model;
    FilteredTable* m_table;
    IcicleView* m_icicle;
    QComboBox* m_module;
    QLineEdit* m_path;
    QLabel* m_summary;
    std::shared_ptr<const engine::InvalidationForest> m_forest;
    std::shared_ptr<const engine::InvalidationForest> m_shown;
    std::shared_ptr<const engine::TraceFigures> m_figures;  // the analysis's, for the whole forest
    std::shared_ptr<const InvalidationTreeSnapshot> m_tree;
};

}  // namespace cs::gui
