// Device code called from another translation unit (relocatable device code).
__device__ int scaled(int x, int k) { return k * x + 1; }
