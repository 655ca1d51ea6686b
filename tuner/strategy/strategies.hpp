// The strategies behind run_strategy (search_space.hpp), one file each. Each evaluates
// through `run` until it is exhausted (or it has nothing left to propose); `geometry` is
// the space's validated geometry and `random` the seeded source for the stochastic ones.
#pragma once

#include "strategy/random_source.hpp"
#include "strategy/search_run.hpp"
#include "strategy/space_geometry.hpp"

namespace autotune {

void exhaustive_search(SearchRun& run, const SpaceGeometry& geometry, RandomSource& random);
void random_search(SearchRun& run, const SpaceGeometry& geometry, RandomSource& random);
void model_search(SearchRun& run, const SpaceGeometry& geometry, RandomSource& random);
void iterated_local_search(SearchRun& run, const SpaceGeometry& geometry, RandomSource& random);
void simulated_annealing(SearchRun& run, const SpaceGeometry& geometry, RandomSource& random);
void forest_search(SearchRun& run, const SpaceGeometry& geometry, RandomSource& random);

} // namespace autotune
