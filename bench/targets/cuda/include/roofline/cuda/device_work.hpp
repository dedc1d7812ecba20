// A CUDA Work (measure.hpp) as the harness's DeviceWork (issue 34): labels, counts, the run, the validator and the
// SM clock measured during the work (DeviceWork::clock_hz, so analysis takes each compute entry's theoretical peak
// at the clock it ran at). Plain C++, in the model library, so host tests check the plumbing with a fake work.
#pragma once

#include "roofline/harness/target.hpp"
#include "roofline/cuda/measure.hpp"

namespace roofline::cuda {

DeviceWork to_device_work(Work w);

}  // namespace roofline::cuda
