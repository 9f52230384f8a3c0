#include "ReferenceDialog.h"

#include "ReferenceEvaluation.h"
#include "ReferenceMarker.h"
#include "Worker.h"
#include "store/ProjectStore.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace moewb::gui {

using Outcome = Expected<reference::ReferenceResult, reference::ReferenceError>;

QString ReferenceDialog::defaultPath() {
    return QFileInfo(store::ProjectStore::defaultProjectPath()).absolutePath() + QStringLiteral("/reference.moewb");
}

ReferenceDialog::ReferenceDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("referenceDialog"));
    setWindowTitle(tr("Measure a reference evaluation on this computer"));
    auto* layout = new QVBoxLayout(this);
    auto* lead = new QLabel(
        tr("Runs the whole four-stage method on measurements taken here: four tiny language-model trainings (dense, "
           "and MoE with capacity factor 1.0, 1.25 and dropless; 4 processes on the CPU) with the collector "
           "attached, and stage 1 on two clusters made on this computer (loopback, and — as root — network "
           "namespaces behind a slower shaped link). Every number is measured; the scale is tiny."),
        this);
    lead->setWordWrap(true);
    layout->addWidget(lead);

    auto* form = new QFormLayout;
    auto* pathRow = new QHBoxLayout;
    m_path = new QLineEdit(QDir::toNativeSeparators(defaultPath()), this);
    m_path->setObjectName(QStringLiteral("referencePath"));
    m_browse = new QPushButton(tr("Browse…"), this);
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(m_browse);
    form->addRow(tr("Project file:"), pathRow);
    m_quick = new QCheckBox(tr("Quick (a few minutes; fewer steps and message sizes)"), this);
    m_quick->setObjectName(QStringLiteral("referenceQuick"));
    m_quick->setChecked(true);
    form->addRow(QString(), m_quick);
    m_force = new QCheckBox(tr("Replace the file if it exists"), this);
    m_force->setObjectName(QStringLiteral("referenceForce"));
    form->addRow(QString(), m_force);
    layout->addLayout(form);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("referenceProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_progress->setFormat(QStringLiteral("%p%"));
    layout->addWidget(m_progress);
    m_status = new QLabel(tr("Not started."), this);
    m_status->setObjectName(QStringLiteral("referenceStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_log = new QPlainTextEdit(this);
    m_log->setObjectName(QStringLiteral("referenceLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setPlaceholderText(tr("The trainings' and probes' output appears here."));
    layout->addWidget(m_log, 1);

    auto* buttons = new QDialogButtonBox(this);
    m_start = buttons->addButton(tr("Start"), QDialogButtonBox::AcceptRole);
    m_start->setObjectName(QStringLiteral("referenceStart"));
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(QStringLiteral("referenceCancel"));
    layout->addWidget(buttons);
    connect(m_start, &QPushButton::clicked, this, &ReferenceDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &ReferenceDialog::reject);
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("Reference project"), m_path->text(),
                                                       tr("MoE Workbench projects (*.moewb)"));
        if (!f.isEmpty())
            m_path->setText(QDir::toNativeSeparators(f));
    });
    resize(720, 480);
}

ReferenceDialog::~ReferenceDialog() {
    if (m_thread) {
        m_evaluation->cancel();
        m_thread->wait();
    }
}

void ReferenceDialog::setRunning(bool running) {
    m_path->setEnabled(!running);
    m_browse->setEnabled(!running);
    m_quick->setEnabled(!running);
    m_force->setEnabled(!running);
    m_start->setEnabled(!running);
}

void ReferenceDialog::onProgress(double fraction, const QString& what) {
    m_progress->setValue(int(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000)));
    if (!m_cancelling)
        m_status->setText(what);
}

void ReferenceDialog::onLog(const QString& line) { m_log->appendPlainText(line); }

void ReferenceDialog::start() {
    if (m_thread)
        return;
    QString path = QDir::fromNativeSeparators(m_path->text().trimmed());
    if (path.isEmpty()) {
        m_status->setText(tr("Give the project file to write."));
        return;
    }
    if (!path.endsWith(QLatin1String(".moewb")))
        path += QStringLiteral(".moewb");
    reference::ReferenceOptions options;
    options.projectPath = path;
    options.quick = m_quick->isChecked();
    options.overwrite = m_force->isChecked();
    QPointer<ReferenceDialog> self(this);
    // Callbacks come from worker threads: posted to this dialog's thread.
    const auto progress = [self](double fraction, const QString& what) {
        QMetaObject::invokeMethod(
            self.data(), [self, fraction, what] { if (self) self->onProgress(fraction, what); }, Qt::QueuedConnection);
    };
    const auto log = [self](const QString& line) {
        QMetaObject::invokeMethod(
            self.data(), [self, line] { if (self) self->onLog(line); }, Qt::QueuedConnection);
    };
    m_evaluation = std::make_shared<reference::ReferenceEvaluation>(options, progress, log);
    m_cancelling = false;
    setRunning(true);
    m_log->clear();
    m_status->setText(tr("Starting…"));
    std::shared_ptr<reference::ReferenceEvaluation> evaluation = m_evaluation;
    m_thread = runInWorker<Outcome>(
        this, [evaluation]() -> Outcome { return evaluation->run(); },
        [this](Outcome outcome) {
            m_thread = nullptr;
            setRunning(false);
            if (outcome) {
                m_progress->setValue(1000);
                m_status->setText(tr("Done in %1 s: %2").arg(qRound(outcome->seconds)).arg(outcome->projectPath));
                emit finishedProject(outcome->projectPath);
                QDialog::accept();
                return;
            }
            if (outcome.error().cancelled) {
                m_status->setText(tr("Cancelled: nothing was kept."));
                if (m_cancelling)
                    QDialog::reject();
                return;
            }
            m_status->setText(tr("Failed: %1").arg(outcome.error().message));
            m_log->appendPlainText(outcome.error().message);
        });
}

void ReferenceDialog::reject() {
    if (!m_thread) {
        QDialog::reject();
        return;
    }
    // Cancel: the worker ends the processes and hands back "cancelled"; the dialog
    // closes then.
    m_cancelling = true;
    m_cancel->setEnabled(false);
    m_status->setText(tr("Cancelling: stopping the trainings and probes…"));
    m_evaluation->cancel();
}

void ReferenceDialog::closeEvent(QCloseEvent* event) {
    if (m_thread) {
        reject();
        event->ignore();
        return;
    }
    QDialog::closeEvent(event);
}

} // namespace moewb::gui
