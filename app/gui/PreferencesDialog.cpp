#include "PreferencesDialog.h"

#include "Translations.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QSettings>
#include <QVBoxLayout>

namespace moewb::gui {

PreferencesDialog::PreferencesDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("preferencesDialog"));
    setWindowTitle(tr("Preferences"));

    m_language = new QComboBox(this);
    m_language->setObjectName(QStringLiteral("languageCombo"));
    const QString system = QLocale::system().nativeLanguageName();
    m_language->addItem(system.isEmpty() ? tr("System default") : tr("System default (%1)").arg(system), QString());
    // Each language in its own name, so it can be found whatever the current one is.
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("简体中文"), QStringLiteral("zh_CN"));

    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("languageNote"));
    m_note->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(tr("&Language:"), m_language);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        save();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_note);
    layout->addStretch(1);
    layout->addWidget(buttons);

    selectLanguage(storedLanguage());
    connect(m_language, &QComboBox::currentIndexChanged, this, &PreferencesDialog::updateNote);
    updateNote();
    resize(420, sizeHint().height());
}

QString PreferencesDialog::storedLanguage() {
    return QSettings().value(QLatin1String(i18n::kLanguageSettingKey)).toString();
}

QString PreferencesDialog::selectedLanguage() const {
    return m_language->currentData().toString();
}

void PreferencesDialog::selectLanguage(const QString& language) {
    const int index = m_language->findData(language);
    m_language->setCurrentIndex(index >= 0 ? index : 0);
}

void PreferencesDialog::save() {
    QSettings().setValue(QLatin1String(i18n::kLanguageSettingKey), selectedLanguage());
}

void PreferencesDialog::updateNote() {
    if (qEnvironmentVariableIsEmpty(i18n::kLanguageEnvVar))
        m_note->setText(tr("The language changes the next time MoE Workbench starts."));
    else
        m_note->setText(tr("The language changes the next time MoE Workbench starts. While the environment "
                           "variable %1 is set (now: %2), it wins over this choice.")
                            .arg(QString::fromLatin1(i18n::kLanguageEnvVar), qEnvironmentVariable(i18n::kLanguageEnvVar)));
}

} // namespace moewb::gui
