// __managed__ variables: the runtime points the host's view at the variable's storage when
// the module loads, so the host sees the kernels' writes and the kernels the host's, for a
// scalar and an array, across launches and after the host's own writes.
//
// NVIDIA's cudart 13 (static and shared) asks the driver for each variable with
// cuLibraryGetManaged, before any context is current; cudart 12 and ours find them as
// module globals. The variables are module globals in our driver (the CPU device's
// memory is the host's), which cudaPointerGetAttributes reports as device memory, so their
// type is not checked.
#define CTEST_NAME "managed_variables"
#include "ctest.h"

__managed__ int counter = 5;
__managed__ float values[64];

__global__ void bump(int by) { counter += by; }

__global__ void scale(float f) { values[threadIdx.x] *= f; }

int main() {
  EXPECT(counter == 5, "counter starts at %d", counter);
  bump<<<1, 1>>>(3);
  CHECK_LAUNCH();
  EXPECT(counter == 8, "counter = %d after bump(3)", counter);
  counter = 100;
  bump<<<1, 1>>>(1);
  CHECK_LAUNCH();
  EXPECT(counter == 101, "counter = %d after the host wrote 100 and bump(1)", counter);

  for (int i = 0; i < 64; i++) values[i] = (float)i;
  scale<<<1, 64>>>(0.5f);
  CHECK_LAUNCH();
  for (int i = 0; i < 64; i++) EXPECT(values[i] == 0.5f * i, "values[%d] = %g", i, values[i]);
  return ctest_finish();
}
