// The empty kernel for launch latency and throughput.
extern "C" __global__ void empty() {}
