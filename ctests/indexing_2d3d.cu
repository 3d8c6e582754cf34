// 2D and 3D grids and blocks: every thread records its threadIdx, blockIdx,
// blockDim and gridDim at a linear id computed from them; the host checks
// that every slot was written exactly as expected.  A 2D image-style kernel
// with bounds checks covers partial edge blocks.
#define CTEST_NAME "indexing_2d3d"
#include "ctest.h"

#include <vector>

const int kFields = 12;

__device__ unsigned linear_thread_id() {
  unsigned block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned threads_per_block = blockDim.x * blockDim.y * blockDim.z;
  unsigned thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  return block * threads_per_block + thread;
}

__global__ void record_ids(unsigned *out) {
  unsigned *r = out + (size_t)linear_thread_id() * kFields;
  r[0] = threadIdx.x;
  r[1] = threadIdx.y;
  r[2] = threadIdx.z;
  r[3] = blockIdx.x;
  r[4] = blockIdx.y;
  r[5] = blockIdx.z;
  r[6] = blockDim.x;
  r[7] = blockDim.y;
  r[8] = blockDim.z;
  r[9] = gridDim.x;
  r[10] = gridDim.y;
  r[11] = gridDim.z;
}

__global__ void image_2d(int *img, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) img[y * width + x] = y * 10000 + x;
}

static void check_config(dim3 grid, dim3 block) {
  size_t threads = (size_t)grid.x * grid.y * grid.z * block.x * block.y * block.z;
  std::vector<unsigned> host(threads * kFields, 0xdeadbeefu);
  unsigned *dev;
  CHECK(cudaMalloc(&dev, host.size() * sizeof(unsigned)));
  CHECK(cudaMemcpy(dev, host.data(), host.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  record_ids<<<grid, block>>>(dev);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(host.data(), dev, host.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dev));
  // Independent enumeration: walk blocks and threads in x-fastest order.
  size_t id = 0;
  for (unsigned bz = 0; bz < grid.z; bz++)
    for (unsigned by = 0; by < grid.y; by++)
      for (unsigned bx = 0; bx < grid.x; bx++)
        for (unsigned tz = 0; tz < block.z; tz++)
          for (unsigned ty = 0; ty < block.y; ty++)
            for (unsigned tx = 0; tx < block.x; tx++, id++) {
              const unsigned want[kFields] = {tx, ty, tz, bx, by, bz, block.x, block.y,
                                              block.z, grid.x, grid.y, grid.z};
              const unsigned *got = &host[id * kFields];
              for (int f = 0; f < kFields; f++)
                EXPECT(got[f] == want[f],
                       "grid(%u,%u,%u) block(%u,%u,%u) slot %zu field %d = %u, want %u",
                       grid.x, grid.y, grid.z, block.x, block.y, block.z, id, f, got[f],
                       want[f]);
            }
}

int main() {
  check_config(dim3(3, 4, 5), dim3(8, 4, 2));   // 3D grid, 3D block
  check_config(dim3(7, 5), dim3(16, 8));        // 2D grid, 2D block
  check_config(dim3(2, 1, 3), dim3(1, 1, 64));  // threads only along z
  check_config(dim3(1, 300), dim3(32, 1, 1));   // blocks only along y
  check_config(dim3(2, 2, 2), dim3(32, 32, 1)); // 1024-thread blocks

  const int width = 333, height = 71;
  std::vector<int> img(width * height, -1);
  int *dimg;
  CHECK(cudaMalloc(&dimg, img.size() * sizeof(int)));
  CHECK(cudaMemcpy(dimg, img.data(), img.size() * sizeof(int), cudaMemcpyHostToDevice));
  dim3 block(16, 16);
  dim3 grid(ceil_div(width, block.x), ceil_div(height, block.y));
  image_2d<<<grid, block>>>(dimg, width, height);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(img.data(), dimg, img.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dimg));
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      EXPECT(img[y * width + x] == y * 10000 + x, "img[%d][%d] = %d", y, x, img[y * width + x]);
  return ctest_finish();
}
