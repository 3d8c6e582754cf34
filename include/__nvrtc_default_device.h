#pragma clang force_cuda_host_device begin
