// The OpenCL twin of empty.cu (launch latency and throughput on PoCL).
__kernel void empty() {}
