#pragma once
// Communication samples as a run holds them before they are stored: packed. A probe
// report or an nccl-tests -J file has millions of samples of 6 or 7 characters each;
// one CommSample (24 bytes) per sample would hold three to four times the file. Here
// consecutive samples of one (size, repeat) with consecutive iterations share one
// 24-byte group, and each sample is its time alone (8 bytes, the same double, exact).
// The list reads like a QVector<CommSample> (size, operator[], iteration) and converts
// to and from one.
#include <QVector>

#include <algorithm>
#include <initializer_list>
#include <iterator>

namespace moewb::store {

struct CommSample {
    quint64 bytesPerRank = 0;
    int repeat = 0;
    int iteration = 0;
    double timeUs = 0.0;
};

class CommSampleList {
    struct Group {
        quint64 bytesPerRank = 0;
        int repeat = 0;
        int firstIteration = 0;
        qsizetype start = 0; // index of its first sample
    };

public:
    CommSampleList() = default;
    CommSampleList(std::initializer_list<CommSample> samples) {
        reserve(qsizetype(samples.size()));
        for (const CommSample& s : samples)
            append(s);
    }
    CommSampleList(const QVector<CommSample>& samples) { // NOLINT: converts like the vector it replaces
        reserve(samples.size());
        for (const CommSample& s : samples)
            append(s);
    }
    operator QVector<CommSample>() const { return toVector(); } // NOLINT

    QVector<CommSample> toVector() const {
        QVector<CommSample> v;
        v.reserve(size());
        for (const CommSample& s : *this)
            v.append(s);
        return v;
    }

    qsizetype size() const { return m_times.size(); }
    qsizetype count() const { return size(); }
    bool isEmpty() const { return m_times.isEmpty(); }
    bool empty() const { return isEmpty(); }
    // Sizes the times once (they are most of the memory).
    void reserve(qsizetype samples) { m_times.reserve(samples); }
    // And the groups, where each sample may start one (one sample per row, as nccl-tests
    // text gives them).
    void reserve(qsizetype samples, qsizetype groups) {
        m_times.reserve(samples);
        m_groups.reserve(groups);
    }
    void clear() {
        m_groups.clear();
        m_times.clear();
    }
    // The number of (size, repeat, consecutive iterations) groups: memory is 24 bytes
    // per group and 8 per sample.
    qsizetype groupCount() const { return m_groups.size(); }

    void append(const CommSample& s) {
        if (!m_groups.isEmpty()) {
            const Group& g = m_groups.constLast();
            if (g.bytesPerRank == s.bytesPerRank && g.repeat == s.repeat &&
                qint64(g.firstIteration) + (m_times.size() - g.start) == qint64(s.iteration)) {
                m_times.append(s.timeUs);
                return;
            }
        }
        m_groups.append(Group{s.bytesPerRank, s.repeat, s.iteration, m_times.size()});
        m_times.append(s.timeUs);
    }
    void push_back(const CommSample& s) { append(s); }
    CommSampleList& operator+=(const CommSample& s) {
        append(s);
        return *this;
    }
    CommSampleList& operator+=(const CommSampleList& other) {
        reserve(size() + other.size());
        for (const CommSample& s : other)
            append(s);
        return *this;
    }

    CommSample at(qsizetype i) const { return sample(groupOf(i), i); }
    CommSample operator[](qsizetype i) const { return at(i); }
    CommSample first() const { return at(0); }
    CommSample last() const { return at(size() - 1); }

    class const_iterator {
    public:
        using iterator_category = std::input_iterator_tag;
        using value_type = CommSample;
        using difference_type = qsizetype;
        using pointer = void;
        using reference = CommSample;

        const_iterator() = default;
        const_iterator(const CommSampleList* list, qsizetype i, qsizetype group) : m_list(list), m_i(i), m_group(group) {}
        CommSample operator*() const { return m_list->sample(m_group, m_i); }
        const_iterator& operator++() {
            ++m_i;
            if (m_group + 1 < m_list->m_groups.size() && m_i >= m_list->m_groups[m_group + 1].start)
                ++m_group;
            return *this;
        }
        const_iterator operator++(int) {
            const_iterator was = *this;
            ++*this;
            return was;
        }
        bool operator==(const const_iterator& o) const { return m_i == o.m_i; }
        bool operator!=(const const_iterator& o) const { return m_i != o.m_i; }

    private:
        const CommSampleList* m_list = nullptr;
        qsizetype m_i = 0;
        qsizetype m_group = 0;
    };
    using iterator = const_iterator;
    const_iterator begin() const { return const_iterator(this, 0, 0); }
    const_iterator end() const { return const_iterator(this, size(), m_groups.size()); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

    friend bool operator==(const CommSampleList& a, const CommSampleList& b) {
        if (a.size() != b.size())
            return false;
        for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j) {
            const CommSample x = *i, y = *j;
            if (x.bytesPerRank != y.bytesPerRank || x.repeat != y.repeat || x.iteration != y.iteration ||
                x.timeUs != y.timeUs)
                return false;
        }
        return true;
    }
    friend bool operator!=(const CommSampleList& a, const CommSampleList& b) { return !(a == b); }

private:
    qsizetype groupOf(qsizetype i) const {
        if (!m_groups.isEmpty() && i >= m_groups.constLast().start)
            return m_groups.size() - 1;
        const auto it = std::upper_bound(m_groups.cbegin(), m_groups.cend(), i,
                                         [](qsizetype index, const Group& g) { return index < g.start; });
        return qsizetype(it - m_groups.cbegin()) - 1;
    }
    CommSample sample(qsizetype group, qsizetype i) const {
        const Group& g = m_groups[group];
        return CommSample{g.bytesPerRank, g.repeat, int(qint64(g.firstIteration) + (i - g.start)), m_times[i]};
    }

    QVector<Group> m_groups;
    QVector<double> m_times;
};

} // namespace moewb::store
