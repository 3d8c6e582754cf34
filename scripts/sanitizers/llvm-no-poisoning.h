// Force-included (-include) into the cuda-frontend shim when scripts/sanitizers.sh builds
// it with -fsanitize=address.
//
// LLVM's headers poison and unpoison memory by hand when they see an ASan build
// (llvm/Support/Compiler.h: LLVM_ADDRESS_SANITIZER_BUILD): BumpPtrAllocator poisons each
// new slab and unpoisons what it hands out. Their inline copies in the instrumented shim
// then share allocators (an ASTContext's) with Debian's uninstrumented libclang-cpp,
// whose own copies hand out memory without unpoisoning it: the shim's later reads of
// objects clang allocated were reported as use-after-poison (CuPy's first NVRTC
// compile, in clang::RecursiveASTVisitor). With these two calls made no-ops in the shim,
// both sides agree again; everything else the shim does stays instrumented.
#pragma once
#include <sanitizer/asan_interface.h>
#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))
