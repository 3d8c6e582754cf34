#!/usr/bin/env bash
# Checks on a machine with an NVIDIA GPU and its driver (the device tool's H100/H200).
cd "$(dirname "$0")/../.."
set -x
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cc -O2 -o /tmp/gpu_link_check crates/cuda-driver/tools/gpu_link_check.c -ldl && /tmp/gpu_link_check
nvcc -arch=compute_80 -o /tmp/fa_ptx scripts/gpu-checks/func_attrs.cu && /tmp/fa_ptx
nvcc -gencode arch=compute_90,code=sm_90 -o /tmp/fa_sass scripts/gpu-checks/func_attrs.cu && /tmp/fa_sass
nvcc -arch=sm_90 -o /tmp/bs scripts/gpu-checks/barrier_semantics.cu && /tmp/bs
nvcc -rdc=true -arch=compute_80 -o /tmp/sc ctests/separate_compilation.cu ctests/rdc/separate_compilation_lib.cu ctests/rdc/separate_compilation_static.cu && /tmp/sc
nvcc -arch=sm_90 -std=c++17 -o /tmp/gn scripts/gpu-checks/graph_nodes.cu -lcuda && /tmp/gn
nvcc -arch=sm_90 -std=c++17 -o /tmp/gc ctests/graph_conditional.cu && /tmp/gc
