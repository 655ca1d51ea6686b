// What forest's trees are fitted to when nothing is guessed: the measured log times, every
// one above their median made the median. A search needs the fast region told apart, not
// how slow the slow one is: a few configurations ten times slower than the rest otherwise
// decide a tree's splits, and the near-best ones, which the model and polish moves choose
// among, share leaves. (With a guess the targets are the corrections to it, whose size is
// what the tree must learn, and they are left as they are.)
#pragma once

#include <vector>

namespace autotune {

// Fewer than 4 values are left as they are: no median worth the name.
void cap_at_median(std::vector<double>& log_times);

} // namespace autotune
