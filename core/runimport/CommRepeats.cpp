#include "runimport/CommRepeats.h"

#include <QHash>

#include <algorithm>

namespace moewb::runimport {

namespace {

bool isNcclTests(const importers::ImportedData& d) {
    return d.format == QLatin1String("nccl-tests") || d.format == QLatin1String("nccl-tests-json");
}

} // namespace

bool sameNcclTest(const importers::ImportedData& first, const importers::ImportedData& other) {
    if (!isNcclTests(first) || !isNcclTests(other))
        return false;
    for (const char* key : {"collective", "world"}) {
        const QJsonValue a = first.environment.value(QLatin1String(key));
        if (a.isUndefined() || a != other.environment.value(QLatin1String(key)))
            return false;
    }
    return true;
}

void appendAsRepeats(store::CommSampleList& into, const store::CommSampleList& other) {
    QHash<quint64, int> next; // size -> first free repeat
    for (const store::CommSample& s : into)
        next[s.bytesPerRank] = std::max(next.value(s.bytesPerRank), s.repeat + 1);
    into.reserve(into.size() + other.size());
    for (store::CommSample s : other) {
        s.repeat += next.value(s.bytesPerRank);
        into.append(s);
    }
}

} // namespace moewb::runimport
