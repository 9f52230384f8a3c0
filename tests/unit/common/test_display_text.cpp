// The one rule for text from someone else's file (common/DisplayText.h): hidden
// characters escaped, backslashes doubled once anything is, long text cut with "…"
// and never inside a surrogate pair, line breaks kept where asked. Expected strings
// are written out by hand.
#include "common/DisplayText.h"

#include <QtTest>

using moewb::displayText;
using moewb::isHiddenCharacter;
using moewb::LineBreaks;

class TestDisplayText : public QObject {
    Q_OBJECT
private slots:
    void hiddenCharactersByCategory() {
        for (char32_t cp : {U'\x00', U'\x1b', U'\x7f', U'\x85', U'\x9b', U'\u061c', U'\u200b', U'\u200e', U'\u200f',
                            U'\u202a', U'\u202e', U'\u2028', U'\u2029', U'\u2060', U'\u2066', U'\u2069', U'\ufeff',
                            U'\U000E0001', char32_t(0xD800)})
            QVERIFY2(isHiddenCharacter(cp), qPrintable(QString::number(uint(cp), 16)));
        for (char32_t cp : {U' ', U'a', U'~', U'\u00a0', U'\u00e9', U'\u2014', U'\u2027', U'\u202f', U'\u4e2d',
                            U'\U0001F600'})
            QVERIFY2(!isHiddenCharacter(cp), qPrintable(QString::number(uint(cp), 16)));
    }

    void plainTextComesBackUnchanged() {
        const QString name = QStringLiteral("demo-train-64e-top6 \\ 中文 ") + QString::fromUcs4(U"\U0001F600", 1);
        QCOMPARE(displayText(name, 256), name);
    }

    void rightToLeftOverrideIsShownEscaped() {
        // "rtl-invoice", U+202E, "txt.exe", U+202C would show as "rtl-invoiceexe.txt" unescaped.
        const QString name = QStringLiteral("rtl-invoice") + QChar(0x202E) + QStringLiteral("txt.exe") + QChar(0x202C);
        QCOMPARE(displayText(name, 256), QStringLiteral("rtl-invoice\\u{202e}txt.exe\\u{202c}"));
        QCOMPARE(displayText(QStringLiteral("a\\b") + QChar(0x200F), 256), QStringLiteral("a\\\\b\\u{200f}"));
        QCOMPARE(displayText(QStringLiteral("x\x1b[2Jy\n"), 256), QStringLiteral("x\\x1b[2Jy\\x0a"));
        QCOMPARE(displayText(QStringLiteral("x") + QString::fromUcs4(U"\U000E0041", 1), 256),
                 QStringLiteral("x\\u{e0041}"));
    }

    void lineBreaksKeptWhereAsked() {
        QCOMPARE(displayText(QStringLiteral("one\n\ttwo"), 100, LineBreaks::Keep), QStringLiteral("one\n\ttwo"));
        QCOMPARE(displayText(QStringLiteral("one\r\n"), 100, LineBreaks::Keep), QStringLiteral("one\\x0d\n"));
    }

    // What is shown is capped, escapes included, and never ends inside an escape.
    void escapesCountTowardTheCap() {
        QString name;
        for (int i = 0; i < 200; ++i)
            name += QStringLiteral("r") + QChar(0x202E);
        const QString shown = displayText(name, 256);
        QVERIFY2(shown.size() <= 256, qPrintable(QString::number(shown.size())));
        QVERIFY(shown.endsWith(QChar(0x2026)));
        // 1 + 8 characters a pair: 28 whole pairs (252) fit before the ellipsis, and the
        // 29th "r" (253) too.
        QCOMPARE(shown, QStringLiteral("r\\u{202e}").repeated(28) + QStringLiteral("r") + QChar(0x2026));
    }

    void longTextIsCut() {
        const QString shown = displayText(QString(300, QLatin1Char('n')), 256);
        QCOMPARE(shown.size(), 256);
        QCOMPARE(shown, QString(255, QLatin1Char('n')) + QChar(0x2026));
        // A surrogate pair at the cut is left out whole, never halved.
        const QString emoji = QString::fromUcs4(U"\U0001F600", 1);
        const QString text = QString(254, QLatin1Char('a')) + emoji + QStringLiteral("tail");
        QCOMPARE(displayText(text, 256), QString(254, QLatin1Char('a')) + QChar(0x2026));
        QCOMPARE(displayText(QString(10, QLatin1Char('b')), 10), QString(10, QLatin1Char('b')));
    }
};

QTEST_APPLESS_MAIN(TestDisplayText)
#include "test_display_text.moc"
