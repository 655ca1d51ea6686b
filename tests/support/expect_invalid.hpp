// A call that must throw std::invalid_argument whose message holds every one of `parts`.
#pragma once

#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <initializer_list>
#include <stdexcept>

namespace autotune::test {

inline void expect_invalid(const std::function<void()>& f, std::initializer_list<const char*> parts)
{
    try {
        f();
        ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
        for (const char* part : parts)
            EXPECT_THAT(e.what(), ::testing::HasSubstr(part));
    }
}

} // namespace autotune::test
