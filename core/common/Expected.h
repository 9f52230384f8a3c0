#pragma once
// A value or an error, without exceptions across module boundaries (C++23's
// std::expected in miniature; the project builds as C++20).
#include <utility>
#include <variant>

namespace moewb {

template <typename E>
struct Unexpected {
    E error;
};
template <typename E>
Unexpected<std::decay_t<E>> unexpected(E&& e) {
    return {std::forward<E>(e)};
}

template <typename T, typename E>
class Expected {
public:
    Expected(const T& v) : m_v(std::in_place_index<0>, v) {}
    Expected(T&& v) : m_v(std::in_place_index<0>, std::move(v)) {}
    template <typename G>
    Expected(Unexpected<G> u) : m_v(std::in_place_index<1>, std::move(u.error)) {}

    bool hasValue() const { return m_v.index() == 0; }
    explicit operator bool() const { return hasValue(); }

    T& value() & { return std::get<0>(m_v); }
    const T& value() const& { return std::get<0>(m_v); }
    T&& value() && { return std::get<0>(std::move(m_v)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const E& error() const& { return std::get<1>(m_v); }
    E&& error() && { return std::get<1>(std::move(m_v)); }

private:
    std::variant<T, E> m_v;
};

// Success without a value.
struct Ok {};

} // namespace moewb
