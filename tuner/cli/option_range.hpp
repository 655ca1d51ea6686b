// Numeric options with the range they accept, checked as the command line is parsed: a
// value outside it is one line naming the option and the range, and exit 2
// ("--jobs -1 is out of range (accepted: 0 to 1024)"). The token is read here rather than
// by Boost's lexical_cast, which takes "-1" for an unsigned option as 4294967295 and a
// double's "nan" or "1e400" as a number.
#pragma once

#include <boost/program_options.hpp>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace autotune::cli {

// [least, most], or (least, most] when least_excluded (a duration or a percentage that
// must be above zero). A real number is finite besides.
template <typename T>
struct OptionRange {
    T least = std::numeric_limits<T>::lowest();
    T most = std::numeric_limits<T>::max();
    bool least_excluded = false;

    [[nodiscard]] bool contains(T value) const
    {
        return (least_excluded ? value > least : value >= least) && value <= most;
    }
    [[nodiscard]] std::string text() const
    {
        const bool unbounded = most == std::numeric_limits<T>::max();
        if (least_excluded)
            return unbounded ? fmt::format("more than {}", least) : fmt::format("more than {}, at most {}", least, most);
        return unbounded ? fmt::format("{} or more", least) : fmt::format("{} to {}", least, most);
    }
};

namespace detail {

enum class Parsed { number, not_a_number, out_of_range };

// The whole token as a T: no trailing characters, and for unsigned types no minus sign
// (a negative number is out of range, not 2^32 - 1).
template <typename T>
Parsed parse_number(std::string token, T& value)
{
    if (!token.empty() && token.front() == '+')
        token.erase(0, 1);
    const bool negative = !token.empty() && token.front() == '-';
    if constexpr (std::is_unsigned_v<T>) {
        if (negative) {
            T magnitude{};
            const auto [end, ec] = std::from_chars(token.data() + 1, token.data() + token.size(), magnitude);
            const bool digits = end == token.data() + token.size() && ec != std::errc::invalid_argument;
            return digits ? Parsed::out_of_range : Parsed::not_a_number;
        }
    }
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec == std::errc::invalid_argument || end != token.data() + token.size())
        return Parsed::not_a_number;
    if (ec == std::errc::result_out_of_range)
        return Parsed::out_of_range;
    if constexpr (std::is_floating_point_v<T>)
        if (!std::isfinite(value))
            return Parsed::out_of_range;
    return Parsed::number;
}

template <typename T>
class RangedValue final : public boost::program_options::typed_value<T> {
public:
    RangedValue(T* target, OptionRange<T> range) : boost::program_options::typed_value<T>(target), range_(range) {}

    void xparse(boost::any& store, const std::vector<std::string>& tokens) const override
    {
        namespace po = boost::program_options;
        const std::string& token = po::validators::get_single_string(tokens);
        T value{};
        const Parsed parsed = parse_number(token, value);
        if (parsed == Parsed::number && range_.contains(value)) {
            store = boost::any(value);
            return;
        }
        const char* what = parsed == Parsed::not_a_number
                               ? (std::is_integral_v<T> ? "'%value%' is not a whole number" : "'%value%' is not a number")
                               : "%value% is out of range";
        po::error_with_option_name error(fmt::format("%canonical_option% {} (accepted: {})", what, range_.text()));
        error.set_substitute("value", token);
        throw error;
    }

private:
    OptionRange<T> range_;
};

} // namespace detail

// Parallel compiles or processes (--jobs of every command that compiles): 0 is all cores.
inline constexpr OptionRange<unsigned> jobs_range{.least = 0, .most = 1024};
// Seeds are any unsigned 64-bit number; "-1" is refused rather than wrapped.
inline constexpr OptionRange<std::uint64_t> seed_range{.least = 0};

// po::value(target) that accepts only numbers of `range`.
template <typename T>
[[nodiscard]] boost::program_options::typed_value<T>* ranged_value(T* target, OptionRange<T> range)
{
    return new detail::RangedValue<T>(target, range);
}

} // namespace autotune::cli
