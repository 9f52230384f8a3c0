#pragma once
// The user-interface language of both programs (Qt Core only). The catalogues are the
// .qm files compiled from translations/moewb_<part>_<locale>.ts and embedded under :/i18n.
#include <QString>
#include <QStringList>

class QCoreApplication;

namespace moewb::i18n {

// QSettings key of the workbench's language preference: "" (the system's), "en", "zh_CN".
inline constexpr char kLanguageSettingKey[] = "ui/language";
// Environment variable that overrides both the preference and the system locale
// (e.g. MOEWB_LANG=zh_CN, MOEWB_LANG=en).
inline constexpr char kLanguageEnvVar[] = "MOEWB_LANG";

// The locale name to translate to: MOEWB_LANG when set and not empty, else `preference`
// when not empty, else the system locale's name (e.g. "zh_CN", "en_US", "C").
QString chooseLanguage(const QString& preference = QString());

// The locales there is a translation for, e.g. {"zh_CN"} (not "en", the source language,
// whose catalogue holds plural forms only).
QStringList availableLanguages();

// Installs on `app` every embedded moewb_*_<locale>.qm that matches `locale` (its
// UI-language fallbacks included: "zh_Hans_CN" finds zh_CN), and Qt's own qtbase_<locale>.qm
// from QLibraryInfo::TranslationsPath when present. English ("en", "C", or any locale
// without a catalogue) installs the English plural forms (moewb_<part>_en.qm: "%n run(s)"
// reads "1 run", "2 runs"), nothing else. Returns how many moewb catalogues were installed.
int installTranslations(QCoreApplication& app, const QString& locale);

// What moe-workbench installs at start (the GUI tests install the same): the catalogues
// of chooseLanguage() with the Preferences choice (kLanguageSettingKey in the
// application's QSettings) as the preference. Returns installTranslations()' count.
int installWorkbenchTranslations(QCoreApplication& app);

} // namespace moewb::i18n
