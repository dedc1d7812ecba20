// Synthetic bandwidth-vs-working-set curves for the level-detection tests: plateaus at each level's
// bandwidth, a log-linear transition after each capacity (one octave unless told), an optional noise
// pattern or seeded random noise.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "roofline/model/plateaus.hpp"

namespace roofline::testing {

constexpr double KiB = 1024.0;
constexpr double MiB = 1024.0 * 1024.0;
constexpr double GB = 1e9;

struct Level {
  double capacity;   // bytes; the last level's is ignored
  double bandwidth;  // B/s
};

// `per_octave` points per octave from `from` to `to`; noise multiplies point i by noise[i % size]. The
// transition after level k spans transitions[k] octaves (1 when not given).
inline std::vector<CurvePoint> synthetic_curve(const std::vector<Level>& levels, double from, double to,
                                               int per_octave, const std::vector<double>& noise = {},
                                               const std::vector<double>& transitions = {}) {
  std::vector<CurvePoint> out;
  for (int i = 0;; ++i) {
    const double bytes = from * std::pow(2.0, double(i) / per_octave);
    if (bytes > to * 1.0001) break;
    double bw = levels.back().bandwidth;
    for (std::size_t k = 0; k + 1 < levels.size(); ++k) {
      const double c = levels[k].capacity;
      if (bytes <= c) {
        bw = levels[k].bandwidth;
        break;
      }
      const double octaves = k < transitions.size() ? transitions[k] : 1.0;
      if (bytes < c * std::pow(2.0, octaves)) {
        const double f = std::log2(bytes / c) / octaves;
        bw = levels[k].bandwidth * std::pow(levels[k + 1].bandwidth / levels[k].bandwidth, f);
        break;
      }
    }
    if (!noise.empty()) bw *= noise[out.size() % noise.size()];
    out.push_back({bytes, bw});
  }
  return out;
}

// Multiplies every point inside [from, to] bytes by an independent factor uniform in 1 +- amplitude, from
// a seeded generator: deterministic for a seed on every platform (mt19937's output is specified; the
// standard distributions are not).
inline void add_noise(std::vector<CurvePoint>& curve, double amplitude, std::uint32_t seed, double from = 0.0,
                      double to = 1e300) {
  std::mt19937 rng(seed);
  for (CurvePoint& p : curve) {
    const double u = static_cast<double>(rng()) / 4294967295.0;  // [0, 1]
    if (p.bytes >= from && p.bytes <= to) p.value *= 1.0 + amplitude * (2.0 * u - 1.0);
  }
}

inline std::vector<std::string> level_names(const LevelLabels& l) {
  std::vector<std::string> out;
  for (const LevelLabel& x : l.levels) out.push_back(x.level);
  return out;
}

// L1 48 KiB 400 GB/s, L2 2 MiB 150 GB/s, L3 32 MiB 60 GB/s, DRAM 20 GB/s.
inline const std::vector<Level> kFourLevels = {{48 * KiB, 400 * GB}, {2 * MiB, 150 * GB}, {32 * MiB, 60 * GB},
                                               {0, 20 * GB}};

}  // namespace roofline::testing
