// What compiles share within a process (see compile_caches.h).

#include "compile_caches.h"

#include <llvm/Support/MemoryBuffer.h>

#include <map>
#include <mutex>
#include <pthread.h>
#include <string>
#include <vector>

using namespace clang;

namespace cuda_frontend {
namespace {

std::mutex g_shared_fs_mutex;
std::mutex g_invocations_mutex;

// A shared file system in an overlay whose working directory each compile sets: setting
// it must not write the shared one (our headers are found by absolute paths).
class FixedDirectoryFileSystem : public llvm::vfs::ProxyFileSystem {
 public:
  explicit FixedDirectoryFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs) : ProxyFileSystem(std::move(fs)) {}
  std::error_code setCurrentWorkingDirectory(const llvm::Twine &) override { return {}; }
};

// Parsed argument lists of recent compiles: a program compiled again with the same
// options (the common case: CuPy, jitify, benchmarks) starts from a copy instead of
// parsing ~70 cc1 arguments again (a few percent of a small compile).
std::map<std::vector<std::string>, std::shared_ptr<const CompilerInvocation>> g_invocations;

std::vector<std::string> invocation_key(const char *const *argv, int argc) { return std::vector<std::string>(argv, argv + argc); }

}  // namespace

std::shared_ptr<CompilerInvocation> parsed_invocation(const char *const *argv, int argc) {
  auto key = invocation_key(argv, argc);
  std::lock_guard<std::mutex> lock(g_invocations_mutex);
  auto it = g_invocations.find(key);
  if (it == g_invocations.end()) return nullptr;
  return std::make_shared<CompilerInvocation>(*it->second);
}

void remember_invocation(const char *const *argv, int argc, const CompilerInvocation &parsed) {
  auto copy = std::make_shared<const CompilerInvocation>(parsed);
  std::lock_guard<std::mutex> lock(g_invocations_mutex);
  if (g_invocations.size() >= 32) g_invocations.clear();  // a bound, not an LRU: rare
  g_invocations.emplace(invocation_key(argv, argc), std::move(copy));
}

// Our headers and the precompiled preludes (the caller keeps both for the life of the
// process) in one file system shared by all compiles, which only read it: adding them to
// each compile's own file system cost ~10% of a small compile (an in-memory file's ID
// hashes its whole contents, and a PCH is megabytes). A new PCH makes a new snapshot.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> shared_file_system(const cf_vfile *builtin, int nbuiltin, const cf_vfile *pch) {
  static const cf_vfile *builtin_key = nullptr;
  static std::map<std::string, cf_vfile> pchs;
  static llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> fs;
  std::lock_guard<std::mutex> lock(g_shared_fs_mutex);
  bool stale = !fs || builtin_key != builtin;
  if (stale) pchs.clear();
  if (pch) {
    auto it = pchs.find(pch->path);
    if (it == pchs.end() || it->second.data != pch->data) {
      pchs[pch->path] = *pch;
      stale = true;
    }
  }
  if (stale) {
    auto built = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    built->setCurrentWorkingDirectory("/");
    auto add = [&](const char *path, const cf_vfile &f) {
      built->addFile(path, 0, llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(f.data, f.len), path, true));
    };
    for (int i = 0; i < nbuiltin; ++i) add(builtin[i].path, builtin[i]);
    // (the request's path strings do not outlive it: the map's keys are copies)
    for (auto &p : pchs) add(p.first.c_str(), p.second);
    fs = built;
    builtin_key = builtin;
  }
  return llvm::makeIntrusiveRefCnt<FixedDirectoryFileSystem>(fs);
}

void hold_caches_across_fork() {
  pthread_atfork([] { g_shared_fs_mutex.lock(); g_invocations_mutex.lock(); },
                 [] { g_invocations_mutex.unlock(); g_shared_fs_mutex.unlock(); },
                 [] { g_invocations_mutex.unlock(); g_shared_fs_mutex.unlock(); });
}

}  // namespace cuda_frontend
