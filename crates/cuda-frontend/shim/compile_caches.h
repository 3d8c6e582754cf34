// What compiles share within a process: the file system of our headers and precompiled
// preludes, and parsed cc1 argument lists (see compile_caches.cpp).
#pragma once

#include <clang/Frontend/CompilerInvocation.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <memory>

#include "vfile.h"

namespace cuda_frontend {

/// One file system of our headers (`builtin`, the same static list on every call) and
/// every precompiled prelude seen so far (`pch`, may be null; its bytes must live as long
/// as the process), shared by all compiles. Put it in an overlay under the compile's own
/// files: setting the overlay's working directory leaves the shared one alone.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> shared_file_system(const cf_vfile *builtin, int nbuiltin, const cf_vfile *pch);

/// A copy of the invocation parsed earlier from exactly these arguments, or null.
std::shared_ptr<clang::CompilerInvocation> parsed_invocation(const char *const *argv, int argc);

/// Keeps a copy of an invocation parsed without errors from these arguments.
void remember_invocation(const char *const *argv, int argc, const clang::CompilerInvocation &parsed);

/// Holds the caches' locks across fork(), so that a forked child never finds them held
/// by a thread it does not have. Call once.
void hold_caches_across_fork();

}  // namespace cuda_frontend
