#include "anatomy/RankTrace.h"

#include "anatomy/DigestToRankTrace.h"
#include "anatomy/digest/TraceDetect.h"
#include "anatomy/digest/TraceReader.h"
#include "importers/ImportSupport.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

#include <new>

namespace moewb::anatomy {

using importers::ImportError;

namespace {

// The digest's messages, looked up in the "Anatomy" context (AnatomyTr's).
std::string translateAnatomy(const char* source) {
    return QCoreApplication::translate("Anatomy", source).toStdString();
}

QString text(const std::string& s) { return QString::fromStdString(s); }

} // namespace

RankTrace rankTraceFromDigest(digest::RankDigest&& d) {
    RankTrace out;
    out.shown = text(d.shown);
    out.format = text(d.format);
    out.rank = d.rank;
    out.worldSize = d.worldSize;
    out.baseTimeNs = d.baseTimeNs;
    out.gpu = d.gpu;
    out.groups.reserve(qsizetype(d.groups.size()));
    for (const digest::ProcessGroup& g : d.groups)
        out.groups.push_back(ProcessGroup{text(g.name), text(g.description), QVector<int>(g.ranks.begin(), g.ranks.end())});
    out.steps.reserve(qsizetype(d.steps.size()));
    for (digest::StepTrace& s : d.steps) {
        StepTrace t;
        t.step = s.step;
        t.start = s.start;
        t.end = s.end;
        t.compute.reserve(qsizetype(s.compute.size()));
        for (const digest::Interval& v : s.compute)
            t.compute.push_back(Interval{v.start, v.end});
        t.memcpy.reserve(qsizetype(s.memcpy.size()));
        for (const digest::Interval& v : s.memcpy)
            t.memcpy.push_back(Interval{v.start, v.end});
        t.comm.reserve(qsizetype(s.comm.size()));
        for (const digest::CommCall& c : s.comm)
            t.comm.push_back(CommCall{c.start, c.end, c.kind, c.group, c.seq, c.inBytes, c.outBytes, c.splitsCut, c.name,
                                      text(c.collective)});
        out.steps.push_back(std::move(t));
        s = digest::StepTrace{}; // release as we go: the two copies are never whole at once
    }
    for (const std::string& n : d.names)
        out.names.push_back(text(n));
    out.events = d.events;
    out.unassigned = d.unassigned;
    out.bytesRead = d.bytesRead;
    return out;
}

ImportError importErrorFromDigest(const digest::DigestFailure& f) {
    return ImportError{text(f.file), f.line, importers::clipped(text(f.field)),
                       importers::clipped(text(f.message), importers::kMaxMessageChars), f.unreadable};
}

bool looksLikeTrace(const QByteArray& head, const QString& fileName) {
    Q_UNUSED(fileName) // by content only: traces come as .json, .json.gz, .pt.trace.json, ...
    return digest::looksLikeTrace(std::string_view(head.constData(), size_t(head.size())));
}

Expected<RankTrace, ImportError> readRankTrace(const QString& path, const QString& shown, const TraceReadOptions& options) {
    try {
        digest::DigestOptions o;
        o.maxKernels = options.maxKernels;
        o.progress = options.progress;
        o.texts.translate = &translateAnatomy;
        auto read = digest::readRankDigest(QFile::encodeName(path).toStdString(), shown.toStdString(), o);
        if (!read)
            return unexpected(importErrorFromDigest(read.error()));
        return rankTraceFromDigest(std::move(read.value()));
    } catch (const std::bad_alloc&) {
        return unexpected(importers::outOfMemory(shown, QFileInfo(path).size()));
    }
}

} // namespace moewb::anatomy
