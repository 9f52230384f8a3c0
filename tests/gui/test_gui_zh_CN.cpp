// The workbench in Simplified Chinese, offscreen, through the real window on the demo
// project: with MOEWB_LANG=zh_CN the embedded catalogues are installed, every page is
// visited (start screen, overview, stages 1–4 with their verdicts, records, runs, the
// Learn pages, the assessment sheet, the warnings list, Preferences) and every visible
// label, button, group box, tab, tree and table header and menu action is read: a text
// with an English word of three or more letters and no Chinese character is a string that
// is not wrapped in tr() or not translated, and fails the test with its page and widget.
// Screenshots: the build dir's tests/artifacts/gui/zh_CN/. Also: the language choice
// (MOEWB_LANG beats Preferences beats the system locale), the Preferences dialog, and the
// command-line program following LANG.
#include "GuiTestSupport.h"
#include "MainWindow.h"
#include "PreferencesDialog.h"
#include "ProjectBrowser.h"
#include "StageFrame.h"
#include "StartScreen.h"
#include "Translations.h"
#include "WarningsBar.h"
#include "store/ProjectStore.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QTabBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextDocumentFragment>
#include <QTreeView>
#include <QTreeWidget>
#include <QtTest>

#include <algorithm>

using namespace moewb;
using Kind = gui::StageState::Kind;

namespace {

bool hasCjk(const QString& text) {
    return std::any_of(text.begin(), text.end(), [](QChar c) {
        const char16_t u = c.unicode();
        return (u >= 0x4E00 && u <= 0x9FFF) || (u >= 0x3400 && u <= 0x4DBF) || (u >= 0x3000 && u <= 0x303F) ||
               (u >= 0xFF00 && u <= 0xFFEF);
    });
}

// Words that stay English in the Chinese interface (docs/translations.md, the glossary):
// product and tool names, abbreviations, units, format names.
const QSet<QString>& keptWords() {
    static const QSet<QString> words = {
        QStringLiteral("MoE"),      QStringLiteral("Workbench"),   QStringLiteral("NCCL"),
        QStringLiteral("MPI"),      QStringLiteral("GPU"),         QStringLiteral("GPUs"),
        QStringLiteral("CPU"),      QStringLiteral("Top-K"),       QStringLiteral("Top-k"),
        QStringLiteral("all-to-all"), QStringLiteral("JSON"),      QStringLiteral("CSV"),
        QStringLiteral("PDF"),      QStringLiteral("PNG"),         QStringLiteral("TSV"),
        QStringLiteral("SSH"),      QStringLiteral("SFTP"),        QStringLiteral("Slurm"),
        QStringLiteral("Megatron"), QStringLiteral("TensorBoard"), QStringLiteral("moewb"),
        QStringLiteral("moe-workbench"), QStringLiteral("moe-probe"), QStringLiteral("nccl-tests"),
        QStringLiteral("KiB"),      QStringLiteral("MiB"),         QStringLiteral("GiB"),
        QStringLiteral("TiB"),      QStringLiteral("GB"),          QStringLiteral("Gb"),
        QStringLiteral("MaxVio"),   QStringLiteral("Expert-Choice"), QStringLiteral("InfiniBand"),
        QStringLiteral("RoCE"),     QStringLiteral("NVLink"),      QStringLiteral("SwiGLU"),
        QStringLiteral("Adam"),     QStringLiteral("SGD"),         QStringLiteral("bf16"),
        QStringLiteral("fp16"),     QStringLiteral("fp32"),        QStringLiteral("fp8"),
        QStringLiteral("Ctrl"),     QStringLiteral("Enter"),       QStringLiteral("P99"),
        QStringLiteral("SPEC"),     QStringLiteral("seed"),
    };
    return words;
}

} // namespace

class TestGuiZhCN : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<gui::MainWindow> m_window;
    QStringList m_names;    // record, run, cluster and node names of the open project
    QStringList m_problems; // "page: Class#objectName: text"
    int m_textsRead = 0;

    static QString artifacts() {
        const QString dir = QStringLiteral(MOEWB_BINARY_DIR "/tests/artifacts/gui/zh_CN");
        QDir().mkpath(dir);
        return dir;
    }

    void screenshot(QWidget* w, const QString& name) {
        QApplication::processEvents();
        const QImage image = w->grab().toImage();
        QVERIFY(!image.isNull());
        QVERIFY(image.save(artifacts() + QLatin1Char('/') + name + QStringLiteral(".png")));
    }

    // A text is English when, after the project's own names, paths and kept words are
    // taken out, a word of 3+ letters is left and the text has no Chinese character.
    bool isEnglish(QString text) const {
        if (hasCjk(text))
            return false;
        for (const QString& name : m_names)
            if (name.size() >= 2)
                text.replace(name, QStringLiteral(" "));
        static const QRegularExpression path(QStringLiteral(R"(\S*[/\\]\S*|\S+\.[A-Za-z0-9]{1,6}\b)"));
        text.replace(path, QStringLiteral(" "));
        static const QRegularExpression word(QStringLiteral(R"([A-Za-z][A-Za-z0-9]*(?:[-'][A-Za-z0-9]+)*)"));
        for (auto it = word.globalMatch(text); it.hasNext();) {
            const QString w = it.next().captured();
            if (keptWords().contains(w))
                continue;
            const auto letters = std::count_if(w.begin(), w.end(), [](QChar c) { return c.isLetter(); });
            if (letters >= 3)
                return true;
        }
        return false;
    }

    void check(const QString& page, const QObject* where, QString text) {
        if (text.isEmpty())
            return;
        if (Qt::mightBeRichText(text))
            text = QTextDocumentFragment::fromHtml(text).toPlainText();
        text.remove(QLatin1Char('&')); // accelerators
        ++m_textsRead;
        if (isEnglish(text)) {
            const QString line = QStringLiteral("%1: %2#%3: %4")
                                     .arg(page, QString::fromLatin1(where->metaObject()->className()),
                                          where->objectName(), text.simplified().left(160));
            if (!m_problems.contains(line))
                m_problems << line;
        }
    }

    void checkMenu(const QString& page, const QMenu* menu) {
        for (const QAction* a : menu->actions()) {
            if (a->isSeparator())
                continue;
            check(page, menu, a->text());
            if (a->menu())
                checkMenu(page, a->menu());
        }
    }

    void checkHeader(const QString& page, const QAbstractItemView* view, Qt::Orientation o) {
        const QAbstractItemModel* model = view->model();
        if (!model)
            return;
        const int n = o == Qt::Horizontal ? model->columnCount() : 0;
        for (int i = 0; i < n; ++i)
            check(page, view, model->headerData(i, o, Qt::DisplayRole).toString());
    }

    void checkTreeItems(const QString& page, const QTreeWidget* tree, const QTreeWidgetItem* item) {
        for (int c = 0; c < tree->columnCount(); ++c)
            check(page, tree, item->text(c));
        for (int i = 0; i < item->childCount(); ++i)
            checkTreeItems(page, tree, item->child(i));
    }

    // Reads every visible text of `top` and its children, as the user sees them now.
    void checkVisible(const QString& page, QWidget* top) {
        QApplication::processEvents();
        QList<QWidget*> widgets = top->findChildren<QWidget*>();
        widgets.prepend(top);
        for (QWidget* w : widgets) {
            if (!w->isVisibleTo(top) || (w != top && !w->isVisible()))
                continue;
            if (auto* l = qobject_cast<QLabel*>(w))
                check(page, l, l->text());
            else if (auto* b = qobject_cast<QAbstractButton*>(w))
                check(page, b, b->text());
            else if (auto* tabs = qobject_cast<QTabBar*>(w)) {
                for (int i = 0; i < tabs->count(); ++i)
                    check(page, tabs, tabs->tabText(i));
            }
            if (auto* g = qobject_cast<QGroupBox*>(w))
                check(page, g, g->title());
            if (auto* tree = qobject_cast<QTreeWidget*>(w)) {
                checkTreeItems(page, tree, tree->invisibleRootItem());
                if (!tree->isHeaderHidden())
                    checkTreeItems(page, tree, tree->headerItem());
            } else if (auto* view = qobject_cast<QTreeView*>(w)) {
                if (!view->isHeaderHidden())
                    checkHeader(page, view, Qt::Horizontal);
            } else if (auto* table = qobject_cast<QTableView*>(w)) {
                if (table->horizontalHeader()->isVisible())
                    checkHeader(page, table, Qt::Horizontal);
            }
        }
    }

    void visit(const QString& page) {
        checkVisible(page, m_window.get());
        screenshot(m_window.get(), page);
    }

    gui::StageState state(int stage) const { return m_window->browser()->stageStateOf(stage); }

    void evaluate(int stage) {
        m_window->showStage(stage);
        auto* button = m_window->stageFrame(stage)->page()->findChild<QPushButton*>(QStringLiteral("evaluateButton"));
        QVERIFY(button);
        QTRY_VERIFY(button->isVisible() && button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(state(stage).kind != Kind::NotStarted && state(stage).kind != Kind::Running, 60000);
    }

private slots:
    void initTestCase() {
        const QString error = testing::startGuiTest(m_dir, QStringLiteral("test_gui_zh_CN"));
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void languageChoice() {
        qunsetenv(i18n::kLanguageEnvVar);
        QCOMPARE(i18n::chooseLanguage(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
        QCOMPARE(i18n::chooseLanguage(QString()), QLocale::system().name());
        qputenv(i18n::kLanguageEnvVar, "en");
        QCOMPARE(i18n::chooseLanguage(QStringLiteral("zh_CN")), QStringLiteral("en"));
        QCOMPARE(i18n::availableLanguages(), QStringList{QStringLiteral("zh_CN")});
        // English installs only the plural forms; the texts stay the source's.
        QVERIFY(i18n::installTranslations(*qApp, QStringLiteral("en")) > 0);
        QVERIFY(i18n::installTranslations(*qApp, QStringLiteral("C")) > 0);
        QCOMPARE(QCoreApplication::translate("moewb::gui::MainWindow", "&File"), QStringLiteral("&File"));
        QCOMPARE(QCoreApplication::translate("Report", "%n node(s)", nullptr, 1), QStringLiteral("1 node"));
        QCOMPARE(QCoreApplication::translate("Report", "%n node(s)", nullptr, 3), QStringLiteral("3 nodes"));
    }

    void preferencesStoreTheLanguage() {
        qunsetenv(i18n::kLanguageEnvVar);
        gui::PreferencesDialog dialog;
        auto* combo = dialog.findChild<QComboBox*>(QStringLiteral("languageCombo"));
        QVERIFY(combo);
        QCOMPARE(dialog.selectedLanguage(), QString()); // system default at first
        QVERIFY(combo->findText(QStringLiteral("简体中文")) >= 0);
        QVERIFY(combo->findText(QStringLiteral("English")) >= 0);
        combo->setCurrentIndex(combo->findText(QStringLiteral("简体中文")));
        auto* note = dialog.findChild<QLabel*>(QStringLiteral("languageNote"));
        QVERIFY(note && note->text().contains(QStringLiteral("next time")));
        dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(QSettings().value(QLatin1String(i18n::kLanguageSettingKey)).toString(), QStringLiteral("zh_CN"));
        QCOMPARE(gui::PreferencesDialog::storedLanguage(), QStringLiteral("zh_CN"));
        // Cancel keeps what was stored.
        gui::PreferencesDialog again;
        QCOMPARE(again.selectedLanguage(), QStringLiteral("zh_CN"));
        again.selectLanguage(QStringLiteral("en"));
        again.reject();
        QCOMPARE(gui::PreferencesDialog::storedLanguage(), QStringLiteral("zh_CN"));
        QSettings().remove(QLatin1String(i18n::kLanguageSettingKey));
    }

    void chineseIsInstalled() {
        // As moe-workbench's main() does, with the variable the tests and users set.
        qputenv(i18n::kLanguageEnvVar, "zh_CN");
        const QString language = i18n::chooseLanguage(QStringLiteral("en"));
        QCOMPARE(language, QStringLiteral("zh_CN"));
        // One catalogue per part: core, gui, pages, report, cli, remote.
        const int installed = i18n::installTranslations(*qApp, language);
        // The window first, so that a wrong count does not take the later cases with it.
        const QString shown = testing::showMainWindow(m_window, {1500, 940});
        QVERIFY2(shown.isEmpty(), qPrintable(shown));
        QCOMPARE(installed, 6);
        QCOMPARE(QCoreApplication::translate("moewb::gui::MainWindow", "&File"), QStringLiteral("文件(&F)"));
        QCOMPARE(QCoreApplication::translate("RemoteLaunch", "connecting"), QStringLiteral("正在连接"));
    }

    void startScreenAndMenus() {
        QCOMPARE(m_window->currentPage(), static_cast<QWidget*>(m_window->startScreen()));
        visit(QStringLiteral("00-start-screen"));
        for (QAction* a : m_window->menuBar()->actions()) {
            check(QStringLiteral("menu bar"), m_window->menuBar(), a->text());
            if (a->menu())
                checkMenu(QStringLiteral("menu ") + a->text(), a->menu());
        }
        gui::PreferencesDialog dialog(m_window.get());
        dialog.show();
        checkVisible(QStringLiteral("preferences"), &dialog);
        screenshot(&dialog, QStringLiteral("01-preferences"));
    }

    void everyPageOfTheDemo() {
        const QString demo = testing::openDemo(*m_window);
        QVERIFY2(demo.isEmpty(), qPrintable(demo));
        store::ProjectStore* project = m_window->project();
        QVERIFY(project);
        for (const auto& r : project->configRecords())
            m_names << r.name;
        for (const auto& r : project->runs())
            m_names << r.name;
        for (const auto& c : project->clusters()) {
            m_names << c.name;
            for (const auto& n : project->nodes(c.id))
                m_names << n.address;
        }
        // Longest first, so "a-b" is taken out before "a".
        std::sort(m_names.begin(), m_names.end(), [](const QString& a, const QString& b) { return a.size() > b.size(); });

        using K = gui::ProjectBrowser::ItemKind;
        gui::ProjectBrowser* b = m_window->browser();
        QVERIFY(b->select(K::Overview));
        visit(QStringLiteral("02-overview"));
        for (int stage = 1; stage <= 4; ++stage) {
            m_window->showStage(stage);
            visit(QStringLiteral("03-stage%1-before").arg(stage));
        }
        for (int stage = 1; stage <= 3; ++stage) {
            evaluate(stage);
            visit(QStringLiteral("04-stage%1-evaluated").arg(stage));
        }
        m_window->showStage(4);
        visit(QStringLiteral("04-stage4-locked"));
        QVERIFY(b->select(K::Overview));
        visit(QStringLiteral("05-overview-after"));
        for (const auto& r : project->configRecords()) {
            QVERIFY(b->select(K::Record, r.name));
            visit(QStringLiteral("06-record-") + r.name);
        }
        QVERIFY(b->select(K::RecordsSection));
        visit(QStringLiteral("07-records"));
        QVERIFY(b->select(K::RunsSection));
        visit(QStringLiteral("08-runs"));
        if (m_window->costPage()) {
            QVERIFY(b->select(K::LearnCost));
            visit(QStringLiteral("09-learn-cost"));
            QVERIFY(b->select(K::LearnRouting));
            visit(QStringLiteral("10-learn-routing"));
        }
        if (m_window->assessmentPage()) {
            QVERIFY(b->select(K::Assessment));
            visit(QStringLiteral("11-assessment"));
        }
        gui::WarningsDialog* list = m_window->warningsBar()->openList();
        QVERIFY(list && list->isVisible());
        checkVisible(QStringLiteral("warnings"), list);
        screenshot(list, QStringLiteral("12-warnings"));
        list->close();
    }

    void nothingLeftInEnglish() {
        QVERIFY2(m_textsRead > 200, qPrintable(QStringLiteral("only %1 texts read").arg(m_textsRead)));
        if (!m_problems.isEmpty())
            QFAIL(qPrintable(QStringLiteral("%1 of %2 visible texts are English in zh_CN (not in tr(), or not "
                                            "translated):\n  %3")
                                 .arg(m_problems.size())
                                 .arg(m_textsRead)
                                 .arg(m_problems.join(QStringLiteral("\n  ")))));
    }

    void cliFollowsTheLocale() {
        const QString moewb = QStringLiteral(MOEWB_BINARY_DIR "/app/moewb");
        QVERIFY2(QFileInfo::exists(moewb), qPrintable(moewb));
        const auto help = [&](const QString& lang) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            for (const char* v : {"MOEWB_LANG", "LC_ALL", "LC_MESSAGES", "LC_NUMERIC", "LANGUAGE"})
                env.remove(QString::fromLatin1(v));
            env.insert(QStringLiteral("LANG"), lang);
            p.setProcessEnvironment(env);
            p.start(moewb, {QStringLiteral("--help")});
            p.waitForFinished(30000);
            return QString::fromUtf8(p.readAllStandardOutput());
        };
        const QString chinese = help(QStringLiteral("zh_CN.UTF-8"));
        QVERIFY2(hasCjk(chinese), qPrintable(chinese));
        const QString english = help(QStringLiteral("C"));
        QVERIFY2(english.contains(QStringLiteral("Usage: moewb")) && !hasCjk(english), qPrintable(english));
    }

    void cleanupTestCase() {
        testing::closeMainWindow(m_window);
        qunsetenv(i18n::kLanguageEnvVar);
    }
};

QTEST_MAIN(TestGuiZhCN)
#include "test_gui_zh_CN.moc"
