// ImportDialog: the dialog's parts, the list of files and folders, the record, run and
// options (ImportDialogCheck.cpp checks and stores).
#include "ImportDialog.h"

#include "ImportDialogParts.h"
#include "ImportJob.h"

#include "importers/Importer.h"
#include "runimport/FileNotes.h"
#include "store/ProjectStore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QStyle>
#include <QTableWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

#include <utility>

namespace moewb::gui {

namespace {

QStringList localPaths(const QMimeData* mime) {
    QStringList paths;
    if (!mime || !mime->hasUrls())
        return paths;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && !url.toLocalFile().isEmpty())
            paths << url.toLocalFile();
    return paths;
}

QPushButton* smallButton(const QString& text, const QString& name, QWidget* parent) {
    auto* b = new QPushButton(text, parent);
    b->setObjectName(name);
    b->setAutoDefault(false); // Return imports; it never presses these
    return b;
}

QComboBox* compactCombo(const QString& name, QWidget* parent) {
    auto* c = new QComboBox(parent);
    c->setObjectName(name);
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(14);
    return c;
}

} // namespace

ImportDialog::ImportDialog(store::ProjectStore* project, QWidget* parent)
    : QDialog(parent), m_project(project), m_job(new ImportJob(this)), m_checkTimer(new QTimer(this)) {
    setObjectName(QStringLiteral("importDialog"));
    setWindowTitle(tr("Import measurements"));
    setAcceptDrops(true);
    m_checkTimer->setSingleShot(true);
    m_checkTimer->setInterval(300);

    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("The files and folders below become ONE run: a Megatron-Core --save folder with its "
           "rank files, a TensorBoard folder, console logs. They are read and checked against each "
           "other first; nothing is stored until you press Import."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* columns = new QHBoxLayout;
    layout->addLayout(columns, 1);

    // Left: what to import, and as what.
    auto* left = new QVBoxLayout;
    columns->addLayout(left, 1);
    auto* pathForm = new QFormLayout;
    auto* pathRow = new QHBoxLayout;
    m_pathEdit = new QLineEdit(this);
    m_pathEdit->setObjectName(QStringLiteral("importFile"));
    m_pathEdit->setPlaceholderText(tr("type a path and press Return, or drop files here"));
    m_pathEdit->setClearButtonEnabled(true);
    auto* addTyped = smallButton(tr("&Add"), QStringLiteral("importAddPath"), this);
    addTyped->setToolTip(tr("Add the typed file or folder to the list"));
    pathRow->addWidget(m_pathEdit, 1);
    pathRow->addWidget(addTyped);
    pathForm->addRow(tr("&File or folder"), pathRow);
    if (auto* pathLabel = qobject_cast<QLabel*>(pathForm->labelForField(pathRow)))
        pathLabel->setBuddy(m_pathEdit); // a row of two: the label names the path
    left->addLayout(pathForm);

    m_paths = new QTreeWidget(this);
    m_paths->setObjectName(QStringLiteral("importPaths"));
    m_paths->setHeaderHidden(true);
    m_paths->setRootIsDecorated(false);
    m_paths->setColumnCount(1);
    m_paths->setTextElideMode(Qt::ElideMiddle);
    m_paths->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_paths->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_paths->header()->setStretchLastSection(true);
    m_paths->setToolTip(
        tr("What is imported, as one run. Folders are walked; Delete removes the selected entries."));
    left->addWidget(m_paths, 1);

    auto* listButtons = new QHBoxLayout;
    auto* addFiles = smallButton(tr("Add fi&les…"), QStringLiteral("importAddFiles"), this);
    auto* addFolder = smallButton(tr("Add fol&der…"), QStringLiteral("importAddFolder"), this);
    m_removeButton = smallButton(tr("Re&move"), QStringLiteral("importRemove"), this);
    listButtons->addWidget(addFiles);
    listButtons->addWidget(addFolder);
    listButtons->addStretch(1);
    listButtons->addWidget(m_removeButton);
    left->addLayout(listButtons);

    auto* form = new QFormLayout;
    m_record = compactCombo(QStringLiteral("importRecord"), this);
    m_record->setPlaceholderText(tr("choose the config record"));
    form->addRow(tr("Config &record"), m_record);
    m_recordWarning = new QLabel(this);
    m_recordWarning->setObjectName(QStringLiteral("importRecordWarning"));
    m_recordWarning->setWordWrap(true);
    m_recordWarning->setVisible(false);
    form->addRow(QString(), m_recordWarning);

    m_mode = compactCombo(QStringLiteral("importMode"), this);
    m_mode->addItem(tr("a new run"));
    m_mode->addItem(tr("added to an existing run"));
    form->addRow(tr("&Store as"), m_mode);
    m_runName = new QLineEdit(this);
    m_runName->setObjectName(QStringLiteral("importRunName"));
    form->addRow(tr("Run &name"), m_runName);
    m_intoRunName = compactCombo(QStringLiteral("importIntoRun"), this);
    m_intoRunName->setPlaceholderText(tr("choose the run"));
    form->addRow(tr("Add &to run"), m_intoRunName);

    m_format = compactCombo(QStringLiteral("importFormat"), this);
    m_format->addItem(tr("Detect each file's format"), QString());
    for (const QString& f : importers::importFormats())
        m_format->addItem(f, f);
    form->addRow(tr("F&ormat"), m_format);
    // A log of several nccl-tests tests with two all-to-all tests (alltoall_perf, then
    // alltoallv_perf): which one is imported (moewb import --collective). Shown only then.
    m_collective = compactCombo(QStringLiteral("importCollective"), this);
    m_collective->addItem(tr("the first with data"), QString());
    for (const char* test : {"alltoall", "alltoallv"})
        m_collective->addItem(QLatin1String(test), QLatin1String(test));
    m_collective->setToolTip(tr("The log holds several all-to-all tests: the one to import (the plan lists the "
                                "tests left out, with their lines)."));
    form->addRow(tr("All-to-all t&est"), m_collective);
    form->setRowVisible(m_collective, false);
    m_exclude = new QLineEdit(this);
    m_exclude->setObjectName(QStringLiteral("importExclude"));
    m_exclude->setPlaceholderText(tr("wildcards, comma separated: *.csv, old/*"));
    m_exclude->setToolTip(
        tr("Files in the folders that match one of these wildcards (by name or by path inside "
           "the folder) are left out."));
    form->addRow(tr("E&xclude"), m_exclude);
    m_allowPartial = new QCheckBox(tr("Allow &partial steps"), this);
    m_allowPartial->setObjectName(QStringLiteral("importAllowPartial"));
    m_allowPartial->setToolTip(
        tr("When the rank files do not all hold the same steps, import the steps every rank "
           "file has (the plan says which were left out). Off: refuse."));
    form->addRow(QString(), m_allowPartial);
    m_strict = new QCheckBox(tr("Refuse &damaged log lines"), this);
    m_strict->setObjectName(QStringLiteral("importStrict"));
    m_strict->setToolTip(
        tr("Console logs (Megatron, NeMo, torchtitan): refuse a file at its first damaged line. Off: keep the "
           "readable fields of a damaged line and list the line in the plan."));
    form->addRow(QString(), m_strict);
    left->addLayout(form);
    m_checkButton = smallButton(tr("Chec&k again"), QStringLiteral("importCheck"), this);
    m_checkButton->setToolTip(
        tr("Read and check the files now (they are checked after every change anyway)"));
    auto* checkRow = new QHBoxLayout;
    checkRow->addStretch(1);
    checkRow->addWidget(m_checkButton);
    left->addLayout(checkRow);

    // Right: the plan.
    auto* right = new QVBoxLayout;
    columns->addLayout(right, 2);
    auto* planTitle = new QLabel(tr("<b>Plan</b> — what Import will store"), this);
    right->addWidget(planTitle);
    m_planSummary = new QLabel(this);
    m_planSummary->setObjectName(QStringLiteral("importPlanSummary"));
    m_planSummary->setWordWrap(true);
    right->addWidget(m_planSummary);
    m_planTable = new QTableWidget(0, ColumnCount, this);
    m_planTable->setObjectName(QStringLiteral("importPlan"));
    m_planTable->setHorizontalHeaderLabels({tr("File"), tr("Format"), tr("Rows"), tr("What it gives")});
    m_planTable->verticalHeader()->setVisible(false);
    m_planTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_planTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_planTable->setTextElideMode(Qt::ElideMiddle);
    m_planTable->setWordWrap(false);
    m_planTable->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_planTable->setTabKeyNavigation(false);
    m_planTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    // The file column gets what its names need, up to about half; the role the rest
    // (fitPlanColumns): never sideways scrolling.
    m_planTable->horizontalHeader()->setSectionResizeMode(ColFile, QHeaderView::Interactive);
    m_planTable->horizontalHeader()->setSectionResizeMode(ColFormat, QHeaderView::ResizeToContents);
    m_planTable->horizontalHeader()->setSectionResizeMode(ColRows, QHeaderView::ResizeToContents);
    m_planTable->horizontalHeader()->setSectionResizeMode(ColRole, QHeaderView::Stretch);
    m_planTable->viewport()->installEventFilter(this);
    m_planTable->horizontalHeaderItem(ColRows)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    right->addWidget(m_planTable, 3);
    m_planNotes = new QPlainTextEdit(this);
    m_planNotes->setObjectName(QStringLiteral("importPlanNotes"));
    m_planNotes->setReadOnly(true);
    m_planNotes->setTabChangesFocus(true);
    // Errors can be selected and copied from the keyboard too; a highlight rim shows the focus.
    m_planNotes->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_planNotes->setStyleSheet(QStringLiteral(
        "QPlainTextEdit#importPlanNotes { border: 1px solid palette(mid); padding: 1px; }"
        "QPlainTextEdit#importPlanNotes:focus { border: 2px solid palette(highlight); padding: 0px; }"));
    m_planNotes->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_planNotes->setPlaceholderText(tr("What the merge did, or what is wrong with the files, appears here."));
    right->addWidget(m_planNotes, 1);

    // Bottom: progress, result, buttons.
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("importProgress"));
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_progress->setTextVisible(false); // a percentage only while something runs
    m_now = new ElidedLabel(this);
    m_now->setObjectName(QStringLiteral("importNow"));
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("importResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_progress);
    layout->addWidget(m_now);
    layout->addWidget(m_result);

    m_buttons = new QDialogButtonBox(this);
    m_import = m_buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
    m_import->setObjectName(QStringLiteral("importStart"));
    m_cancel = m_buttons->addButton(tr("Cancel import"), QDialogButtonBox::ActionRole);
    m_cancel->setObjectName(QStringLiteral("importCancel"));
    m_cancel->setAutoDefault(false);
    m_buttons->addButton(QDialogButtonBox::Close)->setAutoDefault(false);
    layout->addWidget(m_buttons);
    m_import->setDefault(true);
    m_import->setEnabled(false);
    m_cancel->setEnabled(false);

    if (project)
        for (const auto& r : project->configRecords())
            m_record->addItem(r.complete ? r.name : tr("%1 (incomplete)").arg(r.name), r.name);
    // The record is chosen explicitly: preset only when one is the obvious choice (the
    // only complete one, or the only one); the window presets the selected run's.
    if (project) {
        QStringList complete;
        const auto records = project->configRecords();
        for (const auto& r : records)
            if (r.complete)
                complete << r.name;
        if (complete.size() == 1)
            setRecord(complete.first());
        else if (records.size() == 1)
            setRecord(records.first().name);
    }
    reloadRuns();
    modeChanged();
    recordChanged();

    connect(addTyped, &QPushButton::clicked, this, &ImportDialog::addTypedPath);
    connect(addFiles, &QPushButton::clicked, this, &ImportDialog::browseFiles);
    connect(addFolder, &QPushButton::clicked, this, &ImportDialog::browseFolder);
    connect(m_removeButton, &QPushButton::clicked, this, &ImportDialog::removeSelected);
    connect(m_paths, &QTreeWidget::itemSelectionChanged, this, &ImportDialog::updateState);
    connect(m_record, &QComboBox::currentIndexChanged, this, &ImportDialog::recordChanged);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &ImportDialog::modeChanged);
    connect(m_intoRunName, &QComboBox::currentIndexChanged, this, &ImportDialog::modeChanged);
    connect(m_runName, &QLineEdit::textChanged, this, &ImportDialog::updateState);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ImportDialog::invalidatePlan);
    connect(m_collective, &QComboBox::currentIndexChanged, this, &ImportDialog::invalidatePlan);
    connect(m_exclude, &QLineEdit::textChanged, this, &ImportDialog::invalidatePlan);
    connect(m_allowPartial, &QCheckBox::toggled, this, &ImportDialog::invalidatePlan);
    connect(m_strict, &QCheckBox::toggled, this, &ImportDialog::invalidatePlan);
    connect(m_checkButton, &QPushButton::clicked, this, &ImportDialog::check);
    connect(m_checkTimer, &QTimer::timeout, this, &ImportDialog::startCheck);
    connect(m_import, &QPushButton::clicked, this, [this] { startImport(); });
    connect(m_cancel, &QPushButton::clicked, this, &ImportDialog::cancelImport);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ImportDialog::reject);
    connect(m_job, &ImportJob::progress, this, [this](double fraction, const QString& what) {
        if (m_cancelling)
            return;
        if (fraction < 0) {
            m_progress->setRange(0, 0); // busy: the length is not known yet
        } else {
            m_progress->setRange(0, 100);
            m_progress->setValue(int(fraction * 100));
        }
        m_progress->setTextVisible(fraction >= 0);
        m_now->setFullText(what);
    });
    connect(m_job, &ImportJob::planned, this, &ImportDialog::onPlanned);
    connect(m_job, &ImportJob::finished, this, &ImportDialog::onStored);

    m_pathEdit->setFocus();
    showPlan();
    updateState();
    // Room for the plan, within a 1366 × 768 screen.
    QSize size = preferredSize();
    if (const QScreen* s = parent ? parent->screen() : QGuiApplication::primaryScreen())
        size = size.boundedTo(s->availableGeometry().size() - QSize(40, 60));
    size = size.expandedTo(minimumSizeHint());
    // Wrapped text needs more height when narrow (large fonts, a small screen).
    if (layout->hasHeightForWidth())
        size.setHeight(std::max(size.height(), layout->totalHeightForWidth(size.width())));
    resize(size);
}

ImportDialog::~ImportDialog() = default;

QSize ImportDialog::preferredSize() {
    return {1200, 680};
}

bool ImportDialog::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_planTable->viewport() && event->type() == QEvent::Resize)
        fitPlanColumns();
    return QDialog::eventFilter(watched, event);
}

void ImportDialog::fitPlanColumns() {
    QHeaderView* header = m_planTable->horizontalHeader();
    const int room =
        m_planTable->viewport()->width() - header->sectionSize(ColFormat) - header->sectionSize(ColRows);
    int wanted =
        header->fontMetrics().horizontalAdvance(m_planTable->horizontalHeaderItem(ColFile)->text()) + 24;
    for (int r = 0; r < m_planTable->rowCount(); ++r)
        if (const QTableWidgetItem* item = m_planTable->item(r, ColFile))
            wanted = std::max(wanted, m_planTable->fontMetrics().horizontalAdvance(item->text()) + 16);
    header->resizeSection(ColFile, std::max(60, std::min(wanted, room * 45 / 100)));
}

// --- the list -----------------------------------------------------------------------

QStringList ImportDialog::paths() const {
    QStringList list;
    for (int i = 0; i < m_paths->topLevelItemCount(); ++i)
        list << m_paths->topLevelItem(i)->data(0, Qt::UserRole).toString();
    return list;
}

void ImportDialog::setPaths(const QStringList& paths) {
    m_paths->clear();
    addPaths(paths);
    pathsChanged(); // also when the list was and stays empty
}

void ImportDialog::addPaths(const QStringList& added) {
    if (m_storing)
        return;
    const QStringList have = paths();
    bool changed = false;
    for (const QString& raw : added) {
        const QString trimmed = raw.trimmed();
        if (trimmed.isEmpty())
            continue;
        const QFileInfo info(trimmed);
        const QString path = info.exists() ? info.absoluteFilePath() : trimmed;
        if (have.contains(path) || paths().contains(path))
            continue;
        auto* item = new QTreeWidgetItem(m_paths);
        const bool dir = info.isDir();
        item->setText(0, dir ? QDir::toNativeSeparators(path) + QDir::separator()
                             : QDir::toNativeSeparators(path));
        item->setData(0, Qt::UserRole, path);
        item->setIcon(0, style()->standardIcon(dir ? QStyle::SP_DirIcon : QStyle::SP_FileIcon));
        item->setToolTip(0, info.exists() ? (dir ? tr("%1\nfolder: every log in it is read").arg(path) : path)
                                          : tr("%1\ndoes not exist").arg(path));
        changed = true;
    }
    if (changed)
        pathsChanged();
}

void ImportDialog::pathsChanged() {
    m_runName->setPlaceholderText(tr("default: %1").arg(defaultRunName()));
    invalidatePlan();
}

void ImportDialog::addTypedPath() {
    const QString path = m_pathEdit->text().trimmed();
    if (path.isEmpty())
        return;
    addPaths({path});
    m_pathEdit->clear();
}

void ImportDialog::removeSelected() {
    const auto selected = m_paths->selectedItems();
    if (selected.isEmpty() || m_storing)
        return;
    qDeleteAll(selected);
    pathsChanged();
}

void ImportDialog::browseFiles() {
    const QStringList have = paths();
    const QString start = have.isEmpty() ? QString() : QFileInfo(have.last()).absolutePath();
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Add files to import"), start);
    if (!files.isEmpty())
        addPaths(files);
}

void ImportDialog::browseFolder() {
    const QStringList have = paths();
    const QString start = have.isEmpty() ? QString() : QFileInfo(have.last()).absolutePath();
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Add a folder to import"), start);
    if (!dir.isEmpty())
        addPaths({dir});
}

void ImportDialog::keyPressEvent(QKeyEvent* event) {
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (enter && focusWidget() == m_pathEdit) {
        addTypedPath();
        return;
    }
    if (enter && focusWidget() == m_exclude) {
        check();
        return;
    }
    if ((event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) && focusWidget() == m_paths) {
        removeSelected();
        return;
    }
    QDialog::keyPressEvent(event);
}

void ImportDialog::dragEnterEvent(QDragEnterEvent* event) {
    if (!m_storing && !localPaths(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void ImportDialog::dropEvent(QDropEvent* event) {
    const QStringList dropped = localPaths(event->mimeData());
    if (dropped.isEmpty() || m_storing)
        return;
    addPaths(dropped);
    event->acceptProposedAction();
}

// --- record, run, options -----------------------------------------------------------

void ImportDialog::setRecord(const QString& name) {
    const int i = m_record->findData(name);
    if (i >= 0)
        m_record->setCurrentIndex(i);
}

QString ImportDialog::record() const {
    return m_record->currentData().toString();
}

void ImportDialog::setRunName(const QString& name) {
    m_mode->setCurrentIndex(0);
    m_runName->setText(name);
}

void ImportDialog::setIntoRun(const QString& name) {
    if (name.isEmpty()) {
        m_mode->setCurrentIndex(0);
        return;
    }
    const int i = m_intoRunName->findData(name);
    if (i < 0)
        return;
    m_intoRunName->setCurrentIndex(i);
    m_mode->setCurrentIndex(1);
}

void ImportDialog::setAllowPartialSteps(bool allow) {
    m_allowPartial->setChecked(allow);
}

void ImportDialog::setExclude(const QStringList& patterns) {
    m_exclude->setText(patterns.join(QStringLiteral(", ")));
}

bool ImportDialog::intoMode() const {
    return m_mode->currentIndex() == 1;
}

void ImportDialog::reloadRuns() {
    const QString current = m_intoRunName->currentData().toString();
    const QSignalBlocker block(m_intoRunName);
    m_intoRunName->clear();
    if (m_project)
        for (const auto& r : m_project->runs())
            m_intoRunName->addItem(tr("%1 (record %2)").arg(r.name, r.recordName), r.name);
    m_intoRunName->setCurrentIndex(m_intoRunName->findData(current));
    m_runName->setPlaceholderText(tr("default: %1").arg(defaultRunName()));
}

void ImportDialog::modeChanged() {
    const bool into = intoMode();
    for (QFormLayout* form : findChildren<QFormLayout*>()) {
        if (form->indexOf(m_runName) >= 0) {
            form->setRowVisible(m_runName, !into);
            form->setRowVisible(m_intoRunName, into);
        }
    }
    if (into) {
        // The run's record is used: the files are checked and merged by its layout.
        const QString run = m_intoRunName->currentData().toString();
        if (m_project && !run.isEmpty())
            if (const auto row = m_project->run(run))
                setRecord(row->recordName);
    }
    m_record->setEnabled(!into && !m_storing);
    invalidatePlan();
}

void ImportDialog::recordChanged() {
    QString warning;
    if (m_project && !record().isEmpty()) {
        const auto row = m_project->configRecord(record());
        if (row && !row->complete)
            warning =
                tr("⚠ %1 is an incomplete (draft) record. The run is stored, but every stage refuses to "
                   "compare it until the record is complete (Records ▸ %1).")
                    .arg(row->name);
    } else if (m_project && m_record->count() == 0) {
        warning = tr("⚠ The project has no config record yet; add one first (Records ▸ New record…).");
    }
    m_recordWarning->setText(warning);
    m_recordWarning->setVisible(!warning.isEmpty());
    invalidatePlan();
}

QString ImportDialog::defaultRunName() const {
    const QStringList list = paths();
    QStringList taken;
    if (m_project)
        for (const auto& r : m_project->runs())
            taken << r.name;
    return uniqueRunName(taken, list.isEmpty() ? QStringLiteral("run") : runNameForPath(list.first()));
}

QString ImportDialog::blocker() const {
    if (!m_project)
        return tr("No project is open.");
    if (m_record->count() == 0)
        return tr(
            "Every run belongs to a config record and the project has none; add one first (Records ▸ New "
            "record…).");
    if (intoMode()) {
        const QString run = m_intoRunName->currentData().toString();
        if (run.isEmpty())
            return tr("Choose the run to add the files to.");
        if (!m_project->run(run))
            return tr("There is no run named %1 any more; choose another.").arg(run);
        return {};
    }
    if (record().isEmpty())
        return tr("Choose the config record the run belongs to.");
    const QString name = m_runName->text().trimmed();
    if (!name.isEmpty() && m_project->run(name))
        return tr("A run named %1 already exists; choose another name, or store as added to an existing run.")
            .arg(name);
    return {};
}
} // namespace moewb::gui
