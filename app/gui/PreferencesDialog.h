#pragma once
// File ▸ Preferences: the user-interface language (System default / English / 简体中文),
// stored in QSettings under ui/language; it takes effect when the workbench restarts.
#include <QDialog>

class QComboBox;
class QLabel;

namespace moewb::gui {

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget* parent = nullptr);

    // The stored preference: "" (the system's), "en" or "zh_CN".
    static QString storedLanguage();
    // The choice in the dialog, in the same form.
    QString selectedLanguage() const;
    void selectLanguage(const QString& language);

    // Stores the selection (called on OK).
    void save();

private:
    void updateNote();

    QComboBox* m_language = nullptr;
    QLabel* m_note = nullptr;
};

} // namespace moewb::gui
