#include "Translations.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace moewb::i18n {

namespace {

constexpr char kResourceDir[] = ":/i18n";

// The catalogue names (without locale) embedded under :/i18n: "moewb_core", "moewb_gui", ...
QStringList catalogueNames() {
    QStringList names;
    const QStringList files =
        QDir(QString::fromLatin1(kResourceDir)).entryList({QStringLiteral("moewb_*.qm")}, QDir::Files, QDir::Name);
    for (const QString& file : files) {
        // moewb_<part>_<locale>.qm: the part has no underscore.
        const QString name = file.section(QLatin1Char('_'), 0, 1);
        if (!names.contains(name))
            names << name;
    }
    return names;
}

} // namespace

QString chooseLanguage(const QString& preference) {
    const QString env = qEnvironmentVariable(kLanguageEnvVar).trimmed();
    if (!env.isEmpty())
        return env;
    if (!preference.trimmed().isEmpty())
        return preference.trimmed();
    return QLocale::system().name();
}

QStringList availableLanguages() {
    QStringList locales;
    const QStringList files =
        QDir(QString::fromLatin1(kResourceDir)).entryList({QStringLiteral("moewb_*.qm")}, QDir::Files, QDir::Name);
    for (const QString& file : files) {
        const QString locale = file.section(QLatin1Char('_'), 2).chopped(3); // drop ".qm"
        // English is the source language; its catalogue holds plural forms only.
        if (!locale.isEmpty() && locale != QLatin1String("en") && !locales.contains(locale))
            locales << locale;
    }
    return locales;
}

namespace {

// English ("en", "C", or a locale without a catalogue): the texts stay the source's;
// only the plural forms of %n messages come from moewb_<part>_en.qm ("1 run", "2 runs").
int installEnglishPlurals(QCoreApplication& app) {
    int installed = 0;
    for (const QString& name : catalogueNames()) {
        auto* translator = new QTranslator(&app);
        if (translator->load(name + QStringLiteral("_en"), QString::fromLatin1(kResourceDir)) &&
            QCoreApplication::installTranslator(translator))
            ++installed;
        else
            delete translator;
    }
    return installed;
}

} // namespace

int installTranslations(QCoreApplication& app, const QString& locale) {
    const QLocale target(locale);
    if (target.language() == QLocale::English || target.language() == QLocale::C)
        return installEnglishPlurals(app);
    int installed = 0;
    for (const QString& name : catalogueNames()) {
        auto* translator = new QTranslator(&app);
        if (translator->load(target, name, QStringLiteral("_"), QString::fromLatin1(kResourceDir)) &&
            !translator->language().startsWith(QLatin1String("en")) &&
            QCoreApplication::installTranslator(translator)) {
            ++installed;
        } else {
            delete translator;
        }
    }
    if (installed == 0)
        return installEnglishPlurals(app);
    // Qt's own texts (standard buttons, file dialogs), when the system has them.
    auto* qt = new QTranslator(&app);
    const bool ok = qt->load(target, QStringLiteral("qtbase"), QStringLiteral("_"),
                             QLibraryInfo::path(QLibraryInfo::TranslationsPath)) &&
                    QCoreApplication::installTranslator(qt);
    if (!ok)
        delete qt;
    return installed;
}

int installWorkbenchTranslations(QCoreApplication& app) {
    return installTranslations(app, chooseLanguage(QSettings().value(QLatin1String(kLanguageSettingKey)).toString()));
}

} // namespace moewb::i18n
