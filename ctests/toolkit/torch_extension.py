"""A PyTorch C++/CUDA extension built by torch.utils.cpp_extension.load_inline with
CUDA_HOME pointing at our toolkit (our nvcc, headers and libcudart): its kernel runs on
tensors moved to the device, and the result is checked against PyTorch on the CPU.

usage: python torch_extension.py BUILD_DIR   (scripts/run-toolkit-tests.sh runs it)
"""
import sys

import torch
from torch.utils.cpp_extension import load_inline

CUDA_SRC = r"""
#include <torch/extension.h>

template <typename T>
__global__ void axpby_kernel(const T *x, const T *y, T *out, T a, T b, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + b * y[i];
}

torch::Tensor axpby(torch::Tensor x, torch::Tensor y, double a, double b) {
  TORCH_CHECK(x.is_cuda() && y.is_cuda(), "tensors must be on the CUDA device");
  TORCH_CHECK(x.sizes() == y.sizes(), "shapes differ");
  auto out = torch::empty_like(x);
  int64_t n = x.numel();
  const int threads = 128;
  const int blocks = (int)((n + threads - 1) / threads);
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "axpby", [&] {
    axpby_kernel<scalar_t><<<blocks, threads>>>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(),
                                                out.data_ptr<scalar_t>(), (scalar_t)a, (scalar_t)b, n);
  });
  return out;
}
"""
CPP_SRC = "torch::Tensor axpby(torch::Tensor x, torch::Tensor y, double a, double b);"


def main():
    ext = load_inline(name="toolkit_axpby", cpp_sources=CPP_SRC, cuda_sources=CUDA_SRC,
                      functions=["axpby"], build_directory=sys.argv[1], verbose=True)
    for dtype in (torch.float32, torch.float64):
        x = torch.linspace(-3, 3, 10007, dtype=dtype)
        y = torch.arange(10007, dtype=dtype) % 17
        got = ext.axpby(x.cuda(), y.cuda(), 1.5, -0.25).cpu()
        want = 1.5 * x + -0.25 * y
        # nvcc contracts a*x + b*y into a fused multiply-add (-fmad=true), as on NVIDIA's
        # GPUs: a rounding of difference from the CPU's two roundings.
        tol = 4 * torch.finfo(dtype).eps * want.abs().max().item()
        if not torch.allclose(got, want, rtol=0, atol=tol):
            print(f"FAIL {dtype}: max difference {(got - want).abs().max().item()}")
            sys.exit(1)
    print("PASS torch_extension")


if __name__ == "__main__":
    main()
