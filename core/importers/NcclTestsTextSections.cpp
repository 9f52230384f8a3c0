#include "importers/NcclTestsTextSections.h"

#include "importers/ImportSupport.h"
#include "importers/NcclTestsText.h"
#include "importers/NumberText.h"
#include "importers/TextLines.h"

#include <QJsonArray>
#include <QStringList>

#include <algorithm>

namespace moewb::importers::nccltests {

namespace {

bool isDigits(std::string_view s) {
    if (s.empty())
        return false;
    for (const char c : s)
        if (c < '0' || c > '9')
            return false;
    return true;
}

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

std::string_view afterHash(std::string_view t) {
    t.remove_prefix(1);
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t'))
        t.remove_prefix(1);
    return t;
}

// Tests named one by one in a refusal or the plan; the rest are counted per test name.
constexpr size_t kListedTests = 12;

} // namespace

bool isDebugLine(std::string_view t) {
    // NCCL's prefix (src/debug.cc): "%s:%d:%d [%d] " = host:pid:tid [cudaDev].
    const size_t space = t.find_first_of(" \t");
    const std::string_view first = t.substr(0, space);
    const size_t colon2 = first.rfind(':');
    if (colon2 != std::string_view::npos && colon2 > 0) {
        const size_t colon1 = first.rfind(':', colon2 - 1);
        if (colon1 != std::string_view::npos && colon1 > 0 &&
            isDigits(first.substr(colon1 + 1, colon2 - colon1 - 1)) && isDigits(first.substr(colon2 + 1)) &&
            space != std::string_view::npos && t.find_first_not_of(" \t", space) != std::string_view::npos &&
            t[t.find_first_not_of(" \t", space)] == '[')
            return true;
    }
    // Without the prefix (a launcher's own, or one cut off): the level word.
    return t.find(" NCCL INFO ") != std::string_view::npos ||
           t.find(" NCCL WARN ") != std::string_view::npos || startsWith(t, "NCCL INFO ") ||
           startsWith(t, "NCCL WARN ") || t.find(" NCCL TRACE ") != std::string_view::npos;
}

bool isFailureLine(std::string_view t) {
    return t.find(": Test NCCL failure ") != std::string_view::npos ||
           t.find(": Test CUDA failure ") != std::string_view::npos ||
           (startsWith(t, ".. ") && t.find(": Test failure ") != std::string_view::npos) ||
           t.find(": Test timeout (") != std::string_view::npos;
}

std::vector<LogSection> splitSections(const QByteArray& bytes) {
    std::vector<LogSection> sections(1);
    // What the current section has shown: a later header then starts the next test.
    bool named = false, header = false, table = false, ended = false;
    auto startSection = [&](qint64 n) {
        sections.back().lastLine = n - 1;
        sections.emplace_back();
        sections.back().firstLine = n;
        named = header = table = ended = false;
    };
    TextLines lines(bytes);
    std::string_view line;
    while (lines.next(line)) {
        const qint64 n = lines.lineNumber();
        const std::string_view t = trimmed(line);
        if (t.empty() || isDebugLine(t))
            continue;
        if (isFailureLine(t)) {
            if (!sections.back().failureLine) {
                sections.back().failureLine = n;
                sections.back().failure = toQString(t);
            }
            ended = true;
            continue;
        }
        if (t.front() == '#') {
            const std::string_view body = afterHash(t);
            const bool done = table || ended;
            if (startsWith(body, "nccl-tests version")) {
                if (done || named || header)
                    startSection(n);
            } else if (startsWith(body, "Collective test starting:")) {
                if (done || named)
                    startSection(n);
                named = true;
                sections.back().collective = collectiveFromProgram(toQString(body.substr(25)));
                sections.back().collectiveLine = n;
            } else if (startsWith(body, "nThread")) {
                // Several headers before a table stay together: interleaved jobs, refused whole.
                if (done)
                    startSection(n);
                header = true;
            } else if (startsWith(body, "Collective test concluded")) {
                ended = true;
            } else if (startsWith(body, "size") && body.find("count") != std::string_view::npos) {
                table = true;
            }
            continue;
        }
        if (t.front() >= '0' && t.front() <= '9') {
            table = true;
            ++sections.back().rowLines;
        }
    }
    sections.back().lastLine = lines.lineNumber();
    return sections;
}

} // namespace moewb::importers::nccltests

namespace moewb::importers::nccltests {

namespace {

QString testName(const LogSection& s) {
    return s.collective.isEmpty() ? ImportTr::tr("a test not named") : s.collective;
}

} // namespace

QString groupedTests(const std::vector<LogSection>& sections, const std::vector<size_t>& which) {
    // "alltoall ×40, sendrecv ×3" in order of first appearance.
    QStringList names;
    QList<int> counts;
    for (const size_t i : which) {
        const QString n = testName(sections[i]);
        const qsizetype at = names.indexOf(n);
        if (at < 0) {
            names << n;
            counts << 1;
        } else {
            ++counts[at];
        }
    }
    QStringList parts;
    for (qsizetype k = 0; k < names.size(); ++k)
        parts << QStringLiteral("%1 ×%2").arg(names[k]).arg(counts[k]);
    return parts.join(QStringLiteral(", "));
}

SectionReasons sectionsNotRead(const std::vector<LogSection>& sections, const QString& file,
                               const QString& givenCollective) {
    SectionReasons reasons(sections.size());
    for (size_t i = 0; i < sections.size(); ++i) {
        const LogSection& s = sections[i];
        if (!s.collective.isEmpty() && !isAllToAll(s.collective))
            reasons[i] = ImportError{
                file, s.collectiveLine, QStringLiteral("collective"),
                ImportTr::tr("is %1, not alltoall or alltoallv; only all-to-all tests are imported")
                    .arg(s.collective)};
        else if (s.failureLine)
            reasons[i] =
                ImportError{file,
                            s.failureLine,
                            {},
                            ImportTr::tr("the %1 test failed: \"%2\"").arg(testName(s), clipped(s.failure))};
        else if (!givenCollective.isEmpty() && !s.collective.isEmpty() && s.collective != givenCollective)
            reasons[i] = ImportError{
                file, s.collectiveLine, QStringLiteral("collective"),
                ImportTr::tr("is %1, but --collective says %2").arg(s.collective, givenCollective)};
    }
    return reasons;
}

ImportError noAllToAllTest(const std::vector<LogSection>& sections, const SectionReasons& reasons,
                           const QString& file) {
    std::vector<size_t> listed;
    for (size_t i = 0; i < sections.size(); ++i)
        if (reasons[i])
            listed.push_back(i);
    if (listed.empty())
        return ImportError{file, 0, {}, ImportTr::tr("no nccl-tests data rows found")};
    if (listed.size() == 1)
        return *reasons[listed.front()];
    // The error points at the first all-to-all test's trouble, else at the first test.
    size_t primary = listed.front();
    for (const size_t i : listed)
        if (sections[i].collective.isEmpty() || isAllToAll(sections[i].collective)) {
            primary = i;
            break;
        }
    int failures = 0;
    for (const size_t i : listed)
        failures += sections[i].failureLine && reasons[i]->line == sections[i].failureLine ? 1 : 0;
    // Each failure line is quoted; together they quote at most kMaxQuotedChars.
    const int quote = kMaxQuotedChars / std::max(1, failures);
    QStringList parts;
    for (const size_t i : listed) {
        if (size_t(parts.size()) == kListedTests) {
            const std::vector<size_t> rest(listed.begin() + qsizetype(kListedTests), listed.end());
            parts << ImportTr::tr("%n more: %1", "", int(rest.size())).arg(groupedTests(sections, rest));
            break;
        }
        const LogSection& s = sections[i];
        const ImportError& why = *reasons[i];
        const QString reason =
            s.failureLine && why.line == s.failureLine
                ? ImportTr::tr("failed at line %1: \"%2\"").arg(s.failureLine).arg(clipped(s.failure, quote))
                : (why.line > 0 ? ImportTr::tr("line %1: %2").arg(why.line).arg(clipped(why.message, 120))
                                : clipped(why.message, 120));
        parts << ImportTr::tr("%1 (lines %2-%3): %4")
                     .arg(testName(s))
                     .arg(s.firstLine)
                     .arg(s.lastLine)
                     .arg(reason);
    }
    return ImportError{file, reasons[primary]->line, reasons[primary]->field,
                       ImportTr::tr("no all-to-all test with data among the %1 tests of this log: %2")
                           .arg(listed.size())
                           .arg(parts.join(QStringLiteral("; ")))};
}

void noteSections(const std::vector<LogSection>& sections, const SectionReasons& reasons,
                  const std::vector<qint64>& rowsRead, QJsonObject& env) {
    QJsonArray skipped, read;
    std::vector<size_t> skippedRest, readRest; // past kListedTests: counted, not listed
    for (size_t i = 0; i < sections.size(); ++i) {
        const LogSection& s = sections[i];
        if (reasons[i] && size_t(skipped.size()) == kListedTests) {
            skippedRest.push_back(i);
        } else if (!reasons[i] && rowsRead[i] > 0 && size_t(read.size()) == kListedTests) {
            readRest.push_back(i);
        } else if (reasons[i]) {
            QJsonObject o{{QStringLiteral("test"), s.collective},
                          {QStringLiteral("first_line"), s.firstLine},
                          {QStringLiteral("last_line"), s.lastLine},
                          {QStringLiteral("line"), reasons[i]->line},
                          {QStringLiteral("reason"), reasons[i]->message}};
            if (s.failureLine) {
                o.insert(QStringLiteral("failure_line"), s.failureLine);
                o.insert(QStringLiteral("failure"), clipped(s.failure));
            }
            skipped.append(o);
        } else if (rowsRead[i] > 0) {
            read.append(QJsonObject{{QStringLiteral("test"), s.collective},
                                    {QStringLiteral("first_line"), s.firstLine},
                                    {QStringLiteral("last_line"), s.lastLine},
                                    {QStringLiteral("rows"), rowsRead[i]}});
        }
    }
    if (!skipped.isEmpty())
        env.insert(QStringLiteral("skipped_sections"), skipped);
    if (!skippedRest.empty())
        env.insert(QStringLiteral("skipped_sections_more"),
                   QJsonObject{{QStringLiteral("count"), qint64(skippedRest.size())},
                               {QStringLiteral("tests"), groupedTests(sections, skippedRest)}});
    if (skipped.size() + read.size() + qsizetype(skippedRest.size() + readRest.size()) > 1)
        env.insert(QStringLiteral("sections_read"), read);
    if (!readRest.empty())
        env.insert(QStringLiteral("sections_read_more"),
                   QJsonObject{{QStringLiteral("count"), qint64(readRest.size())},
                               {QStringLiteral("tests"), groupedTests(sections, readRest)}});
}

} // namespace moewb::importers::nccltests
