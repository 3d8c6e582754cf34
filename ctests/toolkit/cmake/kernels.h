// The library's host interface: plain C++, no CUDA syntax, so main.cpp builds with g++.
#pragma once
#include <cstddef>

// out[i] = scale * in[i] * in[i] + offset (offset from a __constant__), on the device.
int square_scale(const float *in, float *out, std::size_t n, float scale, float offset);
// The sum of in[0..n) computed by a block-wise shared-memory reduction and atomics.
int device_sum(const int *in, std::size_t n, long long *sum);
// The block size cudaOccupancyMaxPotentialBlockSize suggests for the reduction kernel.
int suggested_block_size();
