#include "Translations.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
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
        if (!locale.isEmpty() && !locales.contains(locale))
            locales << locale;
    }
    return locales;
}

int installTranslations(QCoreApplication& app, const QString& locale) {
    const QLocale target(locale);
    // QLocale("en") and QLocale("C") have no catalogue: nothing to install.
    if (target.language() == QLocale::English || target.language() == QLocale::C)
        return 0;
    int installed = 0;
    for (const QString& name : catalogueNames()) {
        auto* translator = new QTranslator(&app);
        if (translator->load(target, name, QStringLiteral("_"), QString::fromLatin1(kResourceDir)) &&
            QCoreApplication::installTranslator(translator)) {
            ++installed;
        } else {
            delete translator;
        }
    }
    if (installed > 0) {
        // Qt's own texts (standard buttons, file dialogs), when the system has them.
        auto* qt = new QTranslator(&app);
        const bool ok = qt->load(target, QStringLiteral("qtbase"), QStringLiteral("_"),
                                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)) &&
                        QCoreApplication::installTranslator(qt);
        if (!ok)
            delete qt;
    }
    return installed;
}

} // namespace moewb::i18n
