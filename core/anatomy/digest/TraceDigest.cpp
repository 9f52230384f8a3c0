#include "anatomy/digest/TraceDigest.h"

#include "anatomy/digest/CommKernels.h"

#include <algorithm>
#include <charconv>

namespace moewb::anatomy::digest {

namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// The categories CPU-side ops come with: "user_annotation" (ProfilerStep#N in newer
// torch), "cpu_op" / "python_function" (older torch), "Operator" (early Kineto), or none.
bool isCpuCategory(std::string_view cat) {
    return cat.empty() || cat == "cpu_op" || cat == "user_annotation" || cat == "python_function" ||
           cat == "Operator";
}

// A CPU call that queues GPU work under the correlation id its GPU activity carries.
bool isLaunch(std::string_view name) {
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c != 'L' && c != 'M' && c != 'm')
            continue;
        const std::string_view rest = name.substr(i);
        const std::string_view head = rest.substr(0, 6);
        if (head == "Launch" || head == "Memcpy" || head == "Memset" || head == "memcpy" || head == "memset")
            return true;
    }
    return false;
}

// Clipped to the step's span; an interval wholly outside it becomes an empty one at its edge.
void clip(std::int64_t& start, std::int64_t& end, const StepTrace& step) {
    start = std::clamp(start, step.start, step.end);
    end = std::clamp(end, start, step.end);
}

// Sorted intervals -> the union, appended to `out` (empty ones left out).
template <typename It, typename Start, typename End>
void appendUnion(It first, It last, Start startOf, End endOf, std::vector<Interval>& out) {
    bool open = false;
    Interval cur;
    for (It it = first; it != last; ++it) {
        const std::int64_t s = startOf(*it), e = endOf(*it);
        if (e <= s)
            continue;
        if (open && s <= cur.end) {
            cur.end = std::max(cur.end, e);
        } else {
            if (open)
                out.push_back(cur);
            cur = Interval{s, e};
            open = true;
        }
    }
    if (open)
        out.push_back(cur);
}

} // namespace

// ---- steps

bool StepSpans::take(const TraceEvent& e, std::int64_t eventIndex, DigestError& error, bool& failed) {
    failed = false;
    if (e.ph == "E" && e.name.empty()) { // an "E" closes the last "B" of its thread
        for (auto it = m_open.rbegin(); it != m_open.rend(); ++it) {
            if (it->tid == e.tid) {
                m_spans.push_back({it->step, it->start, std::max(it->start, e.ts), it->eventIndex});
                m_open.erase(std::next(it).base());
                return true;
            }
        }
        return false;
    }
    if (e.name.substr(0, kStepPrefix.size()) != kStepPrefix)
        return false;
    std::int64_t n = 0;
    const std::string_view digits = e.name.substr(kStepPrefix.size());
    const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (r.ec != std::errc() || r.ptr != digits.data() + digits.size())
        return false;
    if (!e.hasTs) {
        error = {m_texts(QT_TRANSLATE_NOOP("Anatomy", "%1 has no \"ts\""), {e.name}), "ts"};
        failed = true;
        return true;
    }
    if (e.ph == "X") {
        if (!e.hasDur) {
            error = {m_texts(QT_TRANSLATE_NOOP("Anatomy", "%1 has no \"dur\""), {e.name}), "dur"};
            failed = true;
            return true;
        }
        m_spans.push_back({n, e.ts, e.ts + std::max<std::int64_t>(e.dur, 0), eventIndex});
    } else if (e.ph == "B") {
        m_open.push_back({n, e.ts, eventIndex, std::string(e.tid)});
    } else if (e.ph == "E") {
        for (auto it = m_open.begin(); it != m_open.end(); ++it) {
            if (it->step == n) {
                m_spans.push_back({n, it->start, std::max(it->start, e.ts), it->eventIndex});
                m_open.erase(it);
                break;
            }
        }
    }
    return true;
}

bool StepSpans::finish(std::vector<StepTrace>& steps, std::string& error) const {
    if (!m_open.empty()) {
        error = m_texts(
            QT_TRANSLATE_NOOP("Anatomy", "ProfilerStep#%1 (event %2) never ends: the trace has no \"E\" event closing it"),
            {number(m_open.front().step), number(m_open.front().eventIndex)});
        return false;
    }
    if (m_spans.empty()) {
        error = m_texts(QT_TRANSLATE_NOOP("Anatomy", "no ProfilerStep#N: the trace was not recorded with a profiler schedule "
                                                     "(torch.profiler.schedule and prof.step() each iteration)"));
        return false;
    }
    std::vector<Span> spans = m_spans;
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.step < b.step; });
    for (size_t i = 1; i < spans.size(); ++i) {
        if (spans[i].step == spans[i - 1].step) {
            error = m_texts(QT_TRANSLATE_NOOP("Anatomy", "ProfilerStep#%1 appears twice (events %2 and %3)"),
                            {number(spans[i].step), number(std::min(spans[i].eventIndex, spans[i - 1].eventIndex)),
                             number(std::max(spans[i].eventIndex, spans[i - 1].eventIndex))});
            return false;
        }
    }
    // Enclosing spans first, so a nested one is named as such.
    std::sort(spans.begin(), spans.end(),
              [](const Span& a, const Span& b) { return a.start != b.start ? a.start < b.start : a.end > b.end; });
    for (size_t i = 1; i < spans.size(); ++i) {
        const Span& a = spans[i - 1];
        const Span& b = spans[i];
        if (b.start < a.end) {
            error = m_texts(b.end <= a.end
                                ? QT_TRANSLATE_NOOP("Anatomy", "ProfilerStep#%1 (event %2) lies inside ProfilerStep#%3 (event %4)")
                                : QT_TRANSLATE_NOOP("Anatomy", "ProfilerStep#%1 (event %2) overlaps ProfilerStep#%3 (event %4)"),
                            {number(b.step), number(b.eventIndex), number(a.step), number(a.eventIndex)});
            return false;
        }
    }
    steps.clear();
    steps.reserve(spans.size());
    for (const Span& s : spans) {
        StepTrace t;
        t.step = s.step;
        t.start = s.start;
        t.end = s.end;
        steps.push_back(t);
    }
    return true;
}

int StepSpans::stepAt(const std::vector<StepTrace>& steps, std::int64_t t) {
    auto it = std::upper_bound(steps.begin(), steps.end(), t, [](std::int64_t v, const StepTrace& s) { return v < s.start; });
    if (it == steps.begin())
        return -1;
    --it;
    return t < it->end ? int(it - steps.begin()) : -1;
}

// ---- process groups

std::vector<int> parseRankList(std::string_view s) {
    std::vector<int> ranks;
    if (contains(s, "..."))
        return {}; // c10d cuts lists past 30 entries: the members are not all known
    const char* p = s.data();
    const char* end = p + s.size();
    while (p < end) {
        if (*p >= '0' && *p <= '9') {
            int v = 0;
            const auto r = std::from_chars(p, end, v);
            if (r.ec != std::errc())
                return {};
            ranks.push_back(v);
            p = r.ptr;
        } else if (*p == '[' || *p == ']' || *p == ',' || *p == ' ' || *p == '"' || *p == '\n' || *p == '\t' ||
                   *p == '\r') {
            ++p;
        } else {
            return {};
        }
    }
    return ranks;
}

int GroupTable::find(std::string_view name) const {
    for (size_t i = 0; i < m_names.size(); ++i)
        if (m_names[i] == name)
            return int(i);
    return -1;
}

int GroupTable::add(std::string_view name, std::string_view description, std::vector<int> ranks) {
    const int found = find(name);
    if (found >= 0) {
        ProcessGroup& g = groups[size_t(found)];
        if (g.description.empty())
            g.description = std::string(description);
        if (g.ranks.empty())
            g.ranks = std::move(ranks);
        return found;
    }
    m_names.emplace_back(name);
    groups.push_back(ProcessGroup{std::string(name), std::string(description), std::move(ranks)});
    return int(groups.size() - 1);
}

int GroupTable::fromArgs(const TraceEvent& e) {
    if (e.pgName.empty())
        return -1;
    const int found = find(e.pgName);
    if (found >= 0 && !groups[size_t(found)].description.empty() && !groups[size_t(found)].ranks.empty())
        return found;
    return add(e.pgName, e.pgDesc, parseRankList(e.pgRanks));
}

// ---- Kineto

bool KinetoDigest::withinBound(DigestError& error) {
    // In units of a kernel record (24 bytes): a communication kernel's record and a
    // record_param_comms entry weigh about four.
    const std::int64_t held = std::int64_t(m_kernels.size() + m_launches.size() + 4 * (m_comms.size() + m_paramComms.size()));
    if (held <= m_maxKernels)
        return true;
    error = {m_texts(QT_TRANSLATE_NOOP("Anatomy", "more than %1 kernels, launches and collectives: past the bound on what "
                                                  "one trace may hold in memory (TraceReadOptions::maxKernels)"),
                     {number(m_maxKernels)}),
             std::string()};
    return false;
}

CommArgs KinetoDigest::argsOf(const TraceEvent& e) {
    CommArgs a;
    if (!e.collective.empty()) {
        auto it = std::find(m_collectives.begin(), m_collectives.end(), e.collective);
        if (it == m_collectives.end()) {
            m_collectives.emplace_back(e.collective);
            it = m_collectives.end() - 1;
        }
        a.collective = int(it - m_collectives.begin());
    }
    a.inNelems = e.inNelems;
    a.outNelems = e.outNelems;
    a.seq = e.seq;
    a.dtypeBytes = dtypeBytes(e.dtype);
    a.group = m_groups.fromArgs(e);
    a.splitsCut = contains(e.inSplit, "...");
    return a;
}

int KinetoDigest::internName(std::string_view name) {
    std::string key(name);
    auto it = m_nameIndex.find(key);
    if (it != m_nameIndex.end())
        return it->second;
    const int index = int(m_names.size());
    m_names.emplace_back(name);
    m_nameIndex.emplace(std::move(key), index);
    return index;
}

bool KinetoDigest::add(const TraceEvent& e, std::int64_t eventIndex, DigestError& error) {
    if (e.ph.size() != 1)
        return true;
    const char ph = e.ph[0];
    if (ph != 'X' && ph != 'B' && ph != 'E')
        return true; // metadata, instants, flows, counters
    const std::string_view cat = e.cat;
    const bool gpuActivity = cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset";
    if (gpuActivity || cat == "cuda_runtime" || cat == "cuda_driver") {
        if (ph != 'X')
            return true;
        if (!e.hasTs) {
            error = {m_texts(QT_TRANSLATE_NOOP("Anatomy", "a %1 event without \"ts\""), {cat}), "ts"};
            return false;
        }
        if (gpuActivity && !e.hasDur) {
            error = {m_texts(QT_TRANSLATE_NOOP("Anatomy", "a %1 event without \"dur\""), {cat}), "dur"};
            return false;
        }
        if (gpuActivity)
            m_gpu = true;
        if (!e.hasCorrelation) {
            if (gpuActivity)
                ++m_noCorrelation;
            return true;
        }
        if (!gpuActivity) {
            if (!isLaunch(e.name))
                return true;
            if (!m_launches.empty() && e.correlation < m_launches.back().correlation)
                m_launchesSorted = false;
            m_launches.push_back(Launch{e.correlation, e.ts});
            return withinBound(error);
        }
        const std::int64_t end = e.ts + std::max<std::int64_t>(e.dur, 0);
        const bool memcpy = isMemcpyOrMemset(cat, e.name);
        if (!memcpy && classifyKernel(e.name)) {
            Comm c{e.ts, end, e.correlation, e.hasExternalId ? e.externalId : -1, internName(e.name), false, {}};
            if (!e.collective.empty()) { // newer torch copies the c10d args onto the kernel
                c.hasArgs = true;
                c.args = argsOf(e);
            }
            m_comms.push_back(c);
            return withinBound(error);
        }
        m_kernels.push_back(Kernel{e.ts, end, (e.correlation << 1) | (memcpy ? 1u : 0u)});
        return withinBound(error);
    }
    if (!isCpuCategory(cat))
        return true;
    bool failed = false;
    if (m_steps.take(e, eventIndex, error, failed))
        return !failed;
    if (ph == 'X' && e.name == "record_param_comms" && e.hasExternalId && !e.collective.empty()) {
        m_paramComms[e.externalId] = argsOf(e);
        return withinBound(error);
    }
    return true;
}

bool KinetoDigest::launchTs(std::uint64_t correlation, std::int64_t& ts) const {
    auto it = std::lower_bound(m_launches.begin(), m_launches.end(), correlation,
                               [](const Launch& l, std::uint64_t c) { return l.correlation < c; });
    if (it == m_launches.end() || it->correlation != correlation)
        return false;
    ts = it->ts;
    return true;
}

void KinetoDigest::resolveKernels(RankDigest& out) {
    constexpr std::uint64_t kUnassigned = ~std::uint64_t(0);
    for (Kernel& k : m_kernels) {
        const std::uint64_t memcpy = k.key & 1;
        std::int64_t ts = 0;
        const int s = launchTs(k.key >> 1, ts) ? StepSpans::stepAt(out.steps, ts) : -1;
        if (s < 0) {
            k.key = kUnassigned;
            ++out.unassigned;
            continue;
        }
        clip(k.start, k.end, out.steps[s]);
        k.key = (std::uint64_t(s) << 1) | memcpy;
    }
    std::sort(m_kernels.begin(), m_kernels.end(),
              [](const Kernel& a, const Kernel& b) { return a.key != b.key ? a.key < b.key : a.start < b.start; });
    auto it = m_kernels.begin();
    while (it != m_kernels.end() && it->key != kUnassigned) {
        const std::uint64_t key = it->key;
        auto last = std::find_if(it, m_kernels.end(), [key](const Kernel& k) { return k.key != key; });
        StepTrace& step = out.steps[size_t(key >> 1)];
        appendUnion(it, last, [](const Kernel& k) { return k.start; }, [](const Kernel& k) { return k.end; },
                    (key & 1) ? step.memcpy : step.compute);
        it = last;
    }
    std::deque<Kernel>().swap(m_kernels);
}

void KinetoDigest::resolveComms(RankDigest& out) {
    for (const Comm& c : m_comms) {
        const CommArgs* args = c.hasArgs ? &c.args : nullptr;
        if (!args && c.externalId >= 0) {
            auto it = m_paramComms.find(c.externalId);
            if (it != m_paramComms.end())
                args = &it->second;
        }
        const std::string_view collective =
            args && args->collective >= 0 ? std::string_view(m_collectives[size_t(args->collective)]) : std::string_view();
        const std::optional<CommKind> kind = classifyKernel(m_names[size_t(c.name)], collective);
        std::int64_t ts = 0;
        const int s = launchTs(c.correlation, ts) ? StepSpans::stepAt(out.steps, ts) : -1;
        if (s < 0 || !kind) {
            ++out.unassigned;
            continue;
        }
        CommCall call;
        call.start = c.start;
        call.end = c.end;
        clip(call.start, call.end, out.steps[s]);
        call.kind = *kind;
        call.name = c.name;
        if (args) {
            call.group = args->group;
            call.seq = args->seq;
            call.inBytes = args->inNelems >= 0 && args->dtypeBytes > 0 ? args->inNelems * args->dtypeBytes : -1;
            call.outBytes = args->outNelems >= 0 && args->dtypeBytes > 0 ? args->outNelems * args->dtypeBytes : -1;
            call.splitsCut = args->splitsCut;
            call.collective = std::string(collective);
        }
        out.steps[s].comm.push_back(call);
    }
    for (StepTrace& step : out.steps)
        std::stable_sort(step.comm.begin(), step.comm.end(),
                         [](const CommCall& a, const CommCall& b) { return a.start < b.start; });
}

bool KinetoDigest::finish(RankDigest& out, std::string& error) {
    if (!m_steps.finish(out.steps, error))
        return false;
    if (!m_launchesSorted)
        std::sort(m_launches.begin(), m_launches.end(),
                  [](const Launch& a, const Launch& b) { return a.correlation < b.correlation; });
    out.unassigned = m_noCorrelation;
    resolveKernels(out);
    resolveComms(out);
    std::deque<Launch>().swap(m_launches);
    std::stable_sort(out.steps.begin(), out.steps.end(),
                     [](const StepTrace& a, const StepTrace& b) { return a.step < b.step; });
    out.names = m_names;
    out.gpu = m_gpu;
    return true;
}

// ---- torch 1.13 CPU (legacy)

int LegacyDigest::threadOf(std::string_view tid) {
    for (size_t i = 0; i < m_threads.size(); ++i)
        if (m_threads[i] == tid)
            return int(i);
    m_threads.emplace_back(tid);
    m_threadHasOps.push_back(0);
    return int(m_threads.size() - 1);
}

bool LegacyDigest::add(const TraceEvent& e, std::int64_t eventIndex, DigestError& error) {
    if (e.ph != "X" && e.ph != "B" && e.ph != "E")
        return true;
    bool failed = false;
    if (m_steps.take(e, eventIndex, error, failed))
        return !failed;
    if (e.ph != "X")
        return true;
    if (!e.hasTs) {
        error = {m_texts(QT_TRANSLATE_NOOP("Anatomy", "an event without \"ts\"")), "ts"};
        return false;
    }
    if (!e.hasDur) {
        error = {m_texts(QT_TRANSLATE_NOOP("Anatomy", "an event without \"dur\"")), "dur"};
        return false;
    }
    const int thread = threadOf(e.tid);
    const std::int64_t end = e.ts + std::max<std::int64_t>(e.dur, 0);
    if (e.name.substr(0, 5) == "gloo:") {
        auto found = std::find(m_names.begin(), m_names.end(), e.name);
        if (found == m_names.end()) {
            m_names.emplace_back(e.name);
            found = m_names.end() - 1;
        }
        const auto index = found - m_names.begin();
        m_gloo.push_back(Gloo{e.ts, end, thread, int(index)});
    } else {
        m_ops.push_back(Op{e.ts, end, thread});
        m_threadHasOps[size_t(thread)] = 1;
    }
    if (std::int64_t(m_ops.size() + m_gloo.size()) > m_maxOps) {
        error = {m_texts(QT_TRANSLATE_NOOP("Anatomy", "more than %1 CPU ops: past the bound on what one trace may hold "
                                                      "in memory (TraceReadOptions::maxKernels)"),
                         {number(m_maxOps)}),
                 std::string()};
        return false;
    }
    return true;
}

bool LegacyDigest::finish(RankDigest& out, std::string& error) {
    if (!m_steps.finish(out.steps, error))
        return false;
    // Compute: the union of the ops of every thread but gloo's workers. A thread whose
    // events are all gloo:* ops is a worker (ProcessGroupGloo runs collectives on its
    // own threads); as m_ops holds only other ops, every op in it is on a non-worker.
    std::sort(m_ops.begin(), m_ops.end(), [](const Op& a, const Op& b) { return a.start < b.start; });
    std::vector<Interval> all;
    appendUnion(m_ops.begin(), m_ops.end(), [](const Op& o) { return o.start; }, [](const Op& o) { return o.end; }, all);
    std::deque<Op>().swap(m_ops);
    size_t from = 0;
    for (StepTrace& step : out.steps) {
        while (from < all.size() && all[from].end <= step.start)
            ++from;
        for (size_t i = from; i < all.size() && all[i].start < step.end; ++i) {
            Interval v = all[i];
            v.start = std::max(v.start, step.start);
            v.end = std::min(v.end, step.end);
            if (v.end > v.start)
                step.compute.push_back(v);
        }
    }
    // Communication: each gloo op in the step whose span holds its start.
    for (const Gloo& g : m_gloo) {
        const int s = StepSpans::stepAt(out.steps, g.start);
        if (s < 0) {
            ++out.unassigned;
            continue;
        }
        const std::string& name = m_names[size_t(g.name)];
        CommCall call;
        call.start = g.start;
        call.end = g.end;
        clip(call.start, call.end, out.steps[s]);
        call.kind = classifyKernel(name).value_or(CommKind::GlooOther);
        call.name = g.name;
        call.collective = name.substr(5);
        out.steps[s].comm.push_back(call);
    }
    for (StepTrace& step : out.steps)
        std::stable_sort(step.comm.begin(), step.comm.end(),
                         [](const CommCall& a, const CommCall& b) { return a.start < b.start; });
    std::stable_sort(out.steps.begin(), out.steps.end(),
                     [](const StepTrace& a, const StepTrace& b) { return a.step < b.step; });
    out.names = m_names;
    out.gpu = false;
    return true;
}

} // namespace moewb::anatomy::digest
