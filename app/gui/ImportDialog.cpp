#include "ImportDialog.h"

#include "ImportJob.h"

#include "importers/Importer.h"
#include "store/ProjectStore.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace moewb::gui {

ImportDialog::ImportDialog(store::ProjectStore* project, QWidget* parent)
    : QDialog(parent), m_project(project), m_job(new ImportJob(this)) {
    setObjectName(QStringLiteral("importDialog"));
    setWindowTitle(tr("Import measurements"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Each file becomes one run of the chosen config record. The file is read completely "
                                "before anything is stored; an error stores nothing."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* form = new QFormLayout;
    auto* fileRow = new QHBoxLayout;
    m_file = new QLineEdit(this);
    m_file->setObjectName(QStringLiteral("importFile"));
    auto* browseButton = new QPushButton(tr("Browse…"), this);
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browseButton);
    form->addRow(tr("&File"), fileRow);
    if (auto* fileLabel = qobject_cast<QLabel*>(form->labelForField(fileRow)))
        fileLabel->setBuddy(m_file); // a row of two: the label names the path
    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("importFormat"));
    m_format->addItem(tr("Detect from the content"), QString());
    for (const QString& f : importers::importFormats())
        m_format->addItem(f, f);
    form->addRow(tr("F&ormat"), m_format);
    m_detectedLabel = new QLabel(this);
    m_detectedLabel->setWordWrap(true);
    form->addRow(QString(), m_detectedLabel);
    m_record = new QComboBox(this);
    m_record->setObjectName(QStringLiteral("importRecord"));
    if (project)
        for (const auto& r : project->configRecords())
            m_record->addItem(r.name);
    form->addRow(tr("Config &record"), m_record);
    m_runName = new QLineEdit(this);
    m_runName->setObjectName(QStringLiteral("importRunName"));
    m_runName->setPlaceholderText(tr("default: the file's name"));
    form->addRow(tr("Run &name"), m_runName);
    layout->addLayout(form);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("importProgress"));
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_now = new QLabel(this);
    m_now->setObjectName(QStringLiteral("importNow"));
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("importResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_progress);
    layout->addWidget(m_now);
    layout->addWidget(m_result, 1);

    m_buttons = new QDialogButtonBox(this);
    m_import = m_buttons->addButton(tr("Import"), QDialogButtonBox::AcceptRole);
    m_import->setObjectName(QStringLiteral("importStart"));
    m_cancel = m_buttons->addButton(tr("Cancel import"), QDialogButtonBox::ActionRole);
    m_cancel->setObjectName(QStringLiteral("importCancel"));
    m_buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(m_buttons);
    m_cancel->setEnabled(false);

    connect(browseButton, &QPushButton::clicked, this, &ImportDialog::browse);
    connect(m_file, &QLineEdit::editingFinished, this, &ImportDialog::detect);
    connect(m_import, &QPushButton::clicked, this, [this] { startImport(); });
    connect(m_cancel, &QPushButton::clicked, this, &ImportDialog::cancelImport);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ImportDialog::reject);
    connect(m_job, &ImportJob::progress, this, [this](double fraction, const QString& what) {
        if (m_cancelling)
            return;
        if (fraction < 0) {
            m_progress->setRange(0, 0); // busy: the length is not known while parsing
        } else {
            m_progress->setRange(0, 100);
            m_progress->setValue(int(fraction * 100));
        }
        m_now->setText(what);
    });
    connect(m_job, &ImportJob::finished, this, [this](bool ok, const QString& message, bool cancelled) {
        setBusy(false);
        m_progress->setRange(0, 100);
        m_progress->setValue(ok ? 100 : 0);
        m_now->clear();
        if (ok) {
            m_result->setText(tr("✔ Imported %1 as run %2.").arg(QFileInfo(m_file->text()).fileName(), message));
            emit imported(message);
        } else {
            m_result->setText(cancelled ? message : tr("✖ %1").arg(message));
        }
        m_cancelling = false;
    });
    resize(620, 360);
}

ImportDialog::~ImportDialog() = default;

void ImportDialog::browse() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Import measurements"), m_file->text());
    if (!path.isEmpty())
        setFile(path);
}

void ImportDialog::setFile(const QString& path) {
    m_file->setText(path);
    if (m_runName->text().isEmpty())
        m_runName->setPlaceholderText(tr("default: %1").arg(QFileInfo(path).completeBaseName()));
    detect();
}

void ImportDialog::setRecord(const QString& name) {
    const int i = m_record->findText(name);
    if (i >= 0)
        m_record->setCurrentIndex(i);
}

void ImportDialog::setRunName(const QString& name) { m_runName->setText(name); }

void ImportDialog::detect() {
    m_detected.clear();
    const QString path = m_file->text().trimmed();
    if (path.isEmpty()) {
        m_detectedLabel->clear();
        return;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        m_detectedLabel->setText(tr("%1: cannot be read (%2).").arg(path, f.errorString()));
        return;
    }
    // The first 64 KiB are enough to tell the formats apart.
    const auto format = importers::detectFormat(f.read(64 * 1024), path);
    if (format) {
        m_detected = *format;
        m_detectedLabel->setText(tr("Detected: %1").arg(m_detected));
    } else {
        m_detectedLabel->setText(format.error().text());
    }
}

void ImportDialog::setBusy(bool busy) {
    m_import->setEnabled(!busy);
    m_cancel->setEnabled(busy);
    m_file->setEnabled(!busy);
    m_format->setEnabled(!busy);
    m_record->setEnabled(!busy);
    m_runName->setEnabled(!busy);
}

bool ImportDialog::startImport() {
    if (!m_project) {
        m_result->setText(tr("No project is open."));
        return false;
    }
    const QString file = m_file->text().trimmed();
    if (file.isEmpty() || !QFileInfo::exists(file)) {
        m_result->setText(file.isEmpty() ? tr("Choose a file to import.") : tr("%1: no such file.").arg(file));
        return false;
    }
    if (m_record->currentText().isEmpty()) {
        m_result->setText(tr("Every run belongs to a config record and the project has none; add one first "
                             "(Config records → New record…)."));
        return false;
    }
    const QString runName = m_runName->text().trimmed();
    if (!runName.isEmpty() && m_project->run(runName)) {
        m_result->setText(tr("A run named %1 already exists; choose another name.").arg(runName));
        return false;
    }
    ImportRequest request{m_project->path(), file, m_format->currentData().toString(), m_record->currentText(),
                          runName};
    if (!m_job->start(request)) {
        m_result->setText(tr("An import is still finishing; try again in a moment."));
        return false;
    }
    m_result->clear();
    setBusy(true);
    return true;
}

void ImportDialog::cancelImport() {
    if (!m_job->isRunning())
        return;
    m_cancelling = true;
    m_job->cancel();
    m_cancel->setEnabled(false);
    m_now->setText(tr("Cancelling…"));
}

bool ImportDialog::isRunning() const { return m_job->isRunning(); }

QString ImportDialog::resultText() const { return m_result->text(); }

void ImportDialog::reject() {
    // Closing the dialog during an import cancels it (nothing is stored).
    if (m_job->isRunning()) {
        cancelImport();
        m_job->wait();
    }
    QDialog::reject();
}

} // namespace moewb::gui
