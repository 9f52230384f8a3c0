// The CLI's output filter: what could drive a terminal is escaped, everything else
// (UTF-8 text, newlines, tabs, Chinese) passes byte for byte, also when a character is
// split across two writes; JSON stays valid JSON with the same values.
#include "TerminalSafeDevice.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using moewb::cli::TerminalSafeDevice;

namespace {

// Every byte of `in` written in pieces of `piece` bytes; what reached the file.
QByteArray throughDevice(const QByteArray& in, int piece) {
    char* buf = nullptr;
    size_t size = 0;
    std::FILE* f = open_memstream(&buf, &size);
    {
        TerminalSafeDevice d(f);
        for (qsizetype i = 0; i < in.size(); i += piece)
            d.write(in.constData() + i, qMin<qsizetype>(piece, in.size() - i));
    }
    std::fclose(f);
    QByteArray out(buf, qsizetype(size));
    std::free(buf);
    return out;
}

} // namespace

class TestTerminalSafeDevice : public QObject {
    Q_OBJECT
private slots:
    void plainTextPassesUnchanged() {
        const QByteArray text = QStringLiteral("stage 3\tPASS\n最忙设备份额 12.5 % — ok\r\n").toUtf8().replace("\r", "");
        for (int piece : {1, 2, 3, 7, 1000})
            QCOMPARE(throughDevice(text, piece), text);
    }

    void terminalControlsAreEscaped() {
        // ESC ] 0 ; title BEL, CSI 2 J, CR, DEL, C1 CSI (U+009B), RLO (U+202E), LS (U+2028).
        const QByteArray in = QByteArray("run\x1b]0;owned\x07 a\x1b[2Jb\rc\x7f") + QString(QChar(0x9B)).toUtf8() +
                              QStringLiteral("x").toUtf8() + QString(QChar(0x202E)).toUtf8() + "y" +
                              QString(QChar(0x2028)).toUtf8() + "z\n";
        const QByteArray expected = "run\\x1b]0;owned\\x07 a\\x1b[2Jb\\x0dc\\x7f\\x9bx\\u{202e}y\\u{2028}z\n";
        for (int piece : {1, 2, 3, 5, 1000}) {
            const QByteArray out = throughDevice(in, piece);
            QCOMPARE(out, expected);
            for (char c : out)
                QVERIFY((uchar(c) >= 0x20 && uchar(c) < 0x7F) || c == '\n');
        }
    }

    void neighboursOfEscapedCharactersPass() {
        // U+00A0 (C2 A0), U+2014 (E2 80 94), U+2027, U+202F, Chinese and a 4-byte emoji are text.
        const QString s = QString(QChar(0xA0)) + QChar(0x2014) + QChar(0x2027) + QChar(0x202F) +
                          QStringLiteral("中文") + QString::fromUcs4(U"\U0001F600", 1);
        for (int piece : {1, 2, 1000})
            QCOMPARE(throughDevice(s.toUtf8(), piece), s.toUtf8());
    }

    void invisibleFormatCharactersAreEscaped() {
        // RLM (U+200F), the Arabic letter mark (U+061C), the word joiner (U+2060), a tag
        // (U+E0041, four bytes) and the byte-order mark (U+FEFF): invisible, escaped.
        const QString s = QStringLiteral("a") + QChar(0x200F) + QStringLiteral("b") + QChar(0x061C) +
                          QStringLiteral("c") + QChar(0x2060) + QString::fromUcs4(U"\U000E0041", 1) + QChar(0xFEFF) +
                          QStringLiteral("d");
        const QByteArray expected = "a\\u{200f}b\\u{061c}c\\u{2060}\\u{e0041}\\u{feff}d";
        for (int piece : {1, 2, 3, 1000})
            QCOMPARE(throughDevice(s.toUtf8(), piece), expected);
        const QByteArray json = QJsonDocument(QJsonObject{{QStringLiteral("n"), s}}).toJson();
        const QByteArray escaped = moewb::cli::escapeJsonForTerminal(json);
        QVERIFY2(escaped.contains("\\udb40\\udc41"), escaped.constData());
        QCOMPARE(QJsonDocument::fromJson(escaped).object().value(QStringLiteral("n")).toString(), s);
    }

    void jsonKeepsItsValues() {
        const QString name = QStringLiteral("a") + QChar(0x202E) + QChar(0x85) + QStringLiteral("b\x1b[31m");
        const QByteArray json = QJsonDocument(QJsonObject{{QStringLiteral("name"), name}}).toJson();
        const QByteArray escaped = moewb::cli::escapeJsonForTerminal(json);
        QVERIFY(!escaped.contains(QString(QChar(0x202E)).toUtf8()));
        QVERIFY(!escaped.contains(QString(QChar(0x85)).toUtf8()));
        QCOMPARE(QJsonDocument::fromJson(escaped).object().value(QStringLiteral("name")).toString(), name);
        // and the device then changes nothing more
        QCOMPARE(throughDevice(escaped, 3), escaped);
    }
};

QTEST_APPLESS_MAIN(TestTerminalSafeDevice)
#include "test_terminal_safe_device.moc"
