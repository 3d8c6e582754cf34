// The C++ side of the CUDA front-end: clang 19 in-process, device-side compile of one
// CUDA C++ translation unit to an LLVM module.
//
// Everything that needs clang's C++ API lives here and nothing else: the Rust side
// builds the cc1 argument list, the virtual files and the source text, and receives
// diagnostics through a callback and the optimized module as an LLVMModuleRef in a
// context it owns. The compile runs inside llvm::CrashRecoveryContext on a thread of its
// own, so a crash or a fatal error in clang or LLVM ends the compile, not the process.
//
// The AST consumer placed in front of clang's code generator implements two
// language-level rules of ours:
//   * lane-mask narrowing: a value of type `cudaLaneMask_t` that flows implicitly into
//     an integer narrower than 64 bits gets a warning (on wave32 targets too, where the
//     type is 32 bits wide: such code breaks on wave64);
//   * -default-device: namespace-scope variables without a memory space become
//     __device__ variables.
// extended_lambda.cpp marks the closure types of nvcc's extended lambdas for the traits;
// compile_caches.cpp holds what compiles share (headers/PCH file system, parsed arguments).

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticLex.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/Stack.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Sema/Sema.h>
#include <clang/Sema/SemaConsumer.h>
#include <clang/Serialization/ASTWriter.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm-c/Core.h>

#include "compile_caches.h"
#include "extended_lambda.h"
#include "vfile.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <new>
#include <pthread.h>
#include <set>
#include <string>
#include <vector>

using namespace clang;

extern "C" {

// Diagnostic levels passed to the callback.
enum { CF_NOTE = 1, CF_REMARK = 2, CF_WARNING = 3, CF_ERROR = 4, CF_FATAL = 5 };
// Diagnostic kinds the Rust side formats specially.
enum { CF_KIND_OTHER = 0, CF_KIND_FILE_NOT_FOUND = 1, CF_KIND_LANEMASK = 2, CF_KIND_LANEMASK_PTX = 3 };

typedef void (*cf_diag_fn)(void *user, int level, int kind, const char *file, unsigned line,
                           unsigned col, const char *msg, const char *line_text, size_t line_len,
                           const char *arg);

struct cf_request {
  const char *const *argv;  // cc1 arguments, without "-cc1" and without the input
  int argc;
  const char *main_path;    // the main file as named in diagnostics (relative to cwd)
  const char *cwd;          // working directory of the virtual file system
  const cf_vfile *files;    // in-memory files (main file included), absolute paths
  int nfiles;
  cf_diag_fn diag;
  void *user;
  LLVMContextRef ctx;
  int lanemask_check;       // warn on implicit narrowing of cudaLaneMask_t
  int default_device;       // namespace-scope variables default to __device__
  int syntax_only;          // stop after semantic analysis
  unsigned stack_size;      // stack of the compile thread, bytes
  int build_pch;            // the input is a header: serialize it as a PCH instead
  int test_crash;           // tests of crash recovery: 1 SIGSEGV, 2 fatal error, 3 abort()
  int warp_size;            // 32 or 64: inline PTX lane-mask operands are checked for 64
  const cf_vfile *builtin_files;  // our headers: the same static list on every call
  int nbuiltin;
  const cf_vfile *pch_file;       // the precompiled prelude or null; alive for the process
};

// Results of cf_compile.
enum { CF_OK = 0, CF_ERRORS = 1, CF_BAD_ARGS = 2, CF_CRASH = 3 };

}  // extern "C"

namespace {

// Where the fatal LLVM error handler of this thread records its message: a string owned
// by the thread that waits for the compile, so it survives the crash of this one.
thread_local std::string *g_fatal_slot = nullptr;

void fatal_handler(void *, const char *reason, bool) {
  if (g_fatal_slot) *g_fatal_slot = reason ? reason : "unknown fatal error";
}

std::once_flag g_init_once;
std::mutex g_crc_mutex;
int g_crc_users = 0;

void init_once() {
  cuda_frontend::hold_caches_across_fork();
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  llvm::install_fatal_error_handler(fatal_handler, nullptr);
}

// Crash recovery installs process-wide signal handlers; hold them only while some
// compile runs, so the host program's own handlers are back in between.
struct CrashRecoveryScope {
  CrashRecoveryScope() {
    std::lock_guard<std::mutex> g(g_crc_mutex);
    if (g_crc_users++ == 0) llvm::CrashRecoveryContext::Enable();
  }
  ~CrashRecoveryScope() {
    std::lock_guard<std::mutex> g(g_crc_mutex);
    if (--g_crc_users == 0) llvm::CrashRecoveryContext::Disable();
  }
};

// Compiles run on worker threads of our own with large stacks (clang recurses deeply on
// heavy templates; callers' threads may have small stacks). Workers persist: starting
// a thread per compile costs more than a small compile's front-end. A job runs under
// crash recovery on its worker, which survives the crash and takes the next job.
class WorkerPool {
 public:
  static WorkerPool &get() {
    static WorkerPool *pool = make();  // never destroyed: workers outlive main
    return *pool;
  }
  // Runs fn on a worker; returns whether it completed (false: it crashed).
  bool run(const std::function<void()> &fn) {
    Job job;
    job.fn = &fn;
    {
      std::unique_lock<std::mutex> g(mu_);
      queue_.push_back(&job);
      if (idle_ == 0) spawn_locked();
      cv_.notify_one();
    }
    std::unique_lock<std::mutex> g(job.mu);
    job.cv.wait(g, [&] { return job.done; });
    return job.completed;
  }

 private:
  struct Job {
    const std::function<void()> *fn = nullptr;
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    bool completed = false;
  };
  // A forked child has none of the parent's workers: after fork the pool starts empty
  // (the lock is held across fork, so no one is halfway through changing it).
  static WorkerPool *make() {
    WorkerPool *p = new WorkerPool();
    instance() = p;
    pthread_atfork([] { instance()->mu_.lock(); }, [] { instance()->mu_.unlock(); },
                   [] {
                     WorkerPool *q = instance();
                     new (&q->mu_) std::mutex();
                     new (&q->cv_) std::condition_variable();
                     q->queue_.clear();
                     q->idle_ = 0;
                   });
    return p;
  }
  static WorkerPool *&instance() {
    static WorkerPool *p = nullptr;
    return p;
  }
  void spawn_locked() {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 16u << 20);
    pthread_t t;
    if (pthread_create(&t, &attr, &WorkerPool::main, this) == 0) {
      pthread_detach(t);
      ++idle_;
    }
    pthread_attr_destroy(&attr);
  }
  static void *main(void *self) {
    clang::noteBottomOfStack();
    static_cast<WorkerPool *>(self)->loop();
    return nullptr;
  }
  void loop() {
    while (true) {
      Job *job;
      {
        std::unique_lock<std::mutex> g(mu_);
        cv_.wait(g, [&] { return !queue_.empty(); });
        job = queue_.front();
        queue_.pop_front();
        --idle_;
      }
      llvm::CrashRecoveryContext crc;
      bool completed = crc.RunSafely([&] { (*job->fn)(); });
      g_fatal_slot = nullptr;
      {
        std::lock_guard<std::mutex> g(mu_);
        ++idle_;
      }
      // Notify while holding the job's lock: `run` returns (destroying the job, which lives
      // on its stack) as soon as it sees `done` under that lock, so a notify after the
      // unlock could touch a destroyed condition variable (ThreadSanitizer found it:
      // pthread_cond_signal here racing with pthread_cond_destroy in `run`,
      // nvrtc-abi tests/abi.rs concurrent_compiles_are_independent).
      {
        std::lock_guard<std::mutex> g(job->mu);
        job->completed = completed;
        job->done = true;
        job->cv.notify_one();
      }
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job *> queue_;
  int idle_ = 0;
};

// Forwards every diagnostic to the Rust callback with its presumed location and the text
// of its source line.
class ForwardingConsumer : public DiagnosticConsumer {
 public:
  ForwardingConsumer(const cf_request *req, unsigned lanemask_id)
      : req_(req), lanemask_id_(lanemask_id) {}
  unsigned ptx_warning_id = ~0u;

  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    int lvl;
    switch (level) {
      case DiagnosticsEngine::Ignored: return;
      case DiagnosticsEngine::Note: lvl = CF_NOTE; break;
      case DiagnosticsEngine::Remark: lvl = CF_REMARK; break;
      case DiagnosticsEngine::Warning: lvl = CF_WARNING; break;
      case DiagnosticsEngine::Error: lvl = CF_ERROR; break;
      default: lvl = CF_FATAL; break;
    }
    int kind = CF_KIND_OTHER;
    std::string arg;
    if (info.getID() == diag::err_pp_file_not_found) {
      kind = CF_KIND_FILE_NOT_FOUND;
      if (info.getNumArgs() > 0 && info.getArgKind(0) == DiagnosticsEngine::ak_std_string)
        arg = info.getArgStdStr(0);
    } else if (info.getID() == lanemask_id_) {
      kind = CF_KIND_LANEMASK;
    } else if (info.getID() == ptx_warning_id) {
      kind = CF_KIND_LANEMASK_PTX;
    }
    llvm::SmallString<256> msg;
    info.FormatDiagnostic(msg);
    std::string file;
    unsigned line = 0, col = 0;
    const char *text = nullptr;
    size_t text_len = 0;
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const SourceManager &sm = info.getSourceManager();
      SourceLocation loc = sm.getFileLoc(info.getLocation());
      PresumedLoc p = sm.getPresumedLoc(loc);
      if (p.isValid()) {
        file = p.getFilename();
        line = p.getLine();
        col = p.getColumn();
        bool invalid = false;
        std::pair<FileID, unsigned> dec = sm.getDecomposedLoc(loc);
        llvm::StringRef buf = sm.getBufferData(dec.first, &invalid);
        if (!invalid && dec.second <= buf.size()) {
          size_t start = buf.rfind('\n', dec.second == 0 ? 0 : dec.second - 1);
          start = (start == llvm::StringRef::npos || dec.second == 0) ? 0 : start + 1;
          if (dec.second > 0 && buf[dec.second - 1] == '\n') start = dec.second;
          size_t end = buf.find('\n', dec.second);
          if (end == llvm::StringRef::npos) end = buf.size();
          text = buf.data() + start;
          text_len = end - start;
        }
      }
    }
    req_->diag(req_->user, lvl, kind, file.c_str(), line, col, msg.c_str(), text, text_len,
               arg.c_str());
  }

 private:
  const cf_request *req_;
  unsigned lanemask_id_;
};

// Without RTTI: the forwarding consumer of the running compile, per thread.
thread_local ForwardingConsumer *g_forwarder = nullptr;
ForwardingConsumer *dynamic_cast_forwarding(DiagnosticConsumer *c) {
  return (g_forwarder && static_cast<DiagnosticConsumer *>(g_forwarder) == c) ? g_forwarder : nullptr;
}

// ---- lane-mask narrowing ----------------------------------------------------------

bool is_lanemask_type(QualType t, ASTContext &ctx) {
  // Walk the sugar: a typedef named cudaLaneMask_t anywhere in the chain counts.
  for (int guard = 0; guard < 64 && !t.isNull(); ++guard) {
    if (const auto *td = dyn_cast<TypedefType>(t.getTypePtr())) {
      if (td->getDecl()->getName() == "cudaLaneMask_t") return true;
    }
    QualType next = t.getSingleStepDesugaredType(ctx);
    if (next == t) break;
    t = next;
  }
  return false;
}

class LaneMaskChecker : public RecursiveASTVisitor<LaneMaskChecker> {
 public:
  LaneMaskChecker(ASTContext &ctx, DiagnosticsEngine &diags, unsigned id)
      : ctx_(ctx), sm_(ctx.getSourceManager()), diags_(diags), id_(id) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *d) {
    if (d && !isa<TranslationUnitDecl>(d) && d->getLocation().isValid() &&
        sm_.isInSystemHeader(d->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(d);
  }

  bool VisitImplicitCastExpr(ImplicitCastExpr *e) {
    if (e->getCastKind() != CK_IntegralCast || e->isPartOfExplicitCast()) return true;
    if (is_mask_expr(e->getSubExpr())) check_dest(e->getType(), e->getExprLoc(), e->getSubExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *v) {
    if (const Expr *init = v->getInit()) check_flow(init, v->getType(), init->getExprLoc());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *b) {
    if (b->getOpcode() == BO_Assign) check_flow(b->getRHS(), b->getLHS()->getType(), b->getRHS()->getExprLoc());
    return true;
  }
  bool VisitCompoundAssignOperator(CompoundAssignOperator *b) {
    // `narrow op= mask` computes in the mask's width and narrows back.
    if (is_mask_expr(b->getRHS()) && !is_lanemask_type(b->getLHS()->getType(), ctx_))
      check_dest(b->getLHS()->getType(), b->getOperatorLoc(), b->getRHS());
    return true;
  }
  bool VisitCallExpr(CallExpr *c) {
    const FunctionDecl *fd = c->getDirectCallee();
    if (!fd) return true;
    unsigned n = std::min<unsigned>(c->getNumArgs(), fd->getNumParams());
    unsigned first = isa<CXXOperatorCallExpr>(c) && isa<CXXMethodDecl>(fd) ? 1 : 0;
    for (unsigned i = first; i < n + first && i < c->getNumArgs(); ++i) {
      unsigned p = i - first;
      if (p >= fd->getNumParams()) break;
      check_flow(c->getArg(i), fd->getParamDecl(p)->getType(), c->getArg(i)->getExprLoc());
    }
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *r) {
    // Handled through the function being visited: see TraverseFunctionDecl.
    if (current_fn_ && r->getRetValue())
      check_flow(r->getRetValue(), current_fn_->getReturnType(), r->getRetValue()->getExprLoc());
    return true;
  }
  bool TraverseFunctionDecl(FunctionDecl *f) {
    const FunctionDecl *saved = current_fn_;
    current_fn_ = f;
    bool r = RecursiveASTVisitor::TraverseFunctionDecl(f);
    current_fn_ = saved;
    return r;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *f) {
    const FunctionDecl *saved = current_fn_;
    current_fn_ = f;
    bool r = RecursiveASTVisitor::TraverseCXXMethodDecl(f);
    current_fn_ = saved;
    return r;
  }
  bool TraverseLambdaExpr(LambdaExpr *l) {
    const FunctionDecl *saved = current_fn_;
    current_fn_ = l->getCallOperator();
    bool r = RecursiveASTVisitor::TraverseLambdaExpr(l);
    current_fn_ = saved;
    return r;
  }

 private:
  // Strips what does not change the value's type: parentheses and lvalue/no-op casts.
  const Expr *strip(const Expr *e) const {
    while (true) {
      e = e->IgnoreParens();
      if (const auto *ice = dyn_cast<ImplicitCastExpr>(e)) {
        if (ice->getCastKind() == CK_LValueToRValue || ice->getCastKind() == CK_NoOp) {
          e = ice->getSubExpr();
          continue;
        }
      }
      if (const auto *ewc = dyn_cast<ExprWithCleanups>(e)) { e = ewc->getSubExpr(); continue; }
      if (const auto *mte = dyn_cast<MaterializeTemporaryExpr>(e)) { e = mte->getSubExpr(); continue; }
      return e;
    }
  }

  // A lane mask: an expression whose type is cudaLaneMask_t, or &, |, ^, ~ and ?: of masks.
  bool is_mask_expr(const Expr *e) const {
    e = strip(e);
    if (is_lanemask_type(e->getType(), ctx_)) return true;
    if (const auto *b = dyn_cast<BinaryOperator>(e)) {
      switch (b->getOpcode()) {
        case BO_And: case BO_Or: case BO_Xor:
          return is_mask_expr(b->getLHS()) || is_mask_expr(b->getRHS());
        default: return false;
      }
    }
    if (const auto *u = dyn_cast<UnaryOperator>(e)) {
      if (u->getOpcode() == UO_Not) return is_mask_expr(u->getSubExpr());
    }
    if (const auto *c = dyn_cast<ConditionalOperator>(e))
      return is_mask_expr(c->getTrueExpr()) || is_mask_expr(c->getFalseExpr());
    return false;
  }

  void check_flow(const Expr *src, QualType dest, SourceLocation loc) {
    const Expr *s = strip(src);
    if (const auto *ice = dyn_cast<ImplicitCastExpr>(s))
      if (ice->getCastKind() == CK_IntegralCast) return;  // VisitImplicitCastExpr reports it
    if (!is_mask_expr(s)) return;
    check_dest(dest, loc, s);
  }

  void check_dest(QualType dest, SourceLocation loc, const Expr *src) {
    if (dest.isNull()) return;
    if (dest->isReferenceType()) dest = dest->getPointeeType();
    if (is_lanemask_type(dest, ctx_)) return;
    QualType c = dest.getCanonicalType();
    if (!c->isIntegerType() || c->isBooleanType() || c->isEnumeralType()) return;
    uint64_t bits = ctx_.getTypeSize(c);
    if (bits >= 64) return;
    if (loc.isInvalid() || sm_.isInSystemHeader(sm_.getFileLoc(loc))) return;
    unsigned raw = loc.getRawEncoding();
    if (!reported_.insert(raw).second) return;
    uint64_t mask_bits = ctx_.getTypeSize(strip(src)->getType().getCanonicalType());
    diags_.Report(loc, id_) << dest << (unsigned)bits << (unsigned)mask_bits;
  }

  ASTContext &ctx_;
  const SourceManager &sm_;
  DiagnosticsEngine &diags_;
  unsigned id_;
  const FunctionDecl *current_fn_ = nullptr;
  std::set<unsigned> reported_;
};

// ---- inline PTX binding rules ------------------------------------------------------
//
// Inline asm operands follow the rules of the source documents rather than GCC's:
//   * write-only outputs ("=r") are read-write ("+r"): the asm may read them first;
//   * the register class of an operand follows the type of its expression (h: 16-bit,
//     r: 32-bit integer, l: 64-bit integer or pointer, f: float, d: double), whatever
//     letter was written;
//   * inputs may be written by the asm; the writes stay inside it (the back-end copies
//     every input into a register of its own);
//   * an `asm volatile` with no instructions is left exactly as it is.
class AsmBindingRewriter : public RecursiveASTVisitor<AsmBindingRewriter> {
 public:
  explicit AsmBindingRewriter(ASTContext &ctx, bool instantiations) : ctx_(ctx), instantiations_(instantiations) {}
  bool shouldVisitTemplateInstantiations() const { return instantiations_; }

  bool VisitGCCAsmStmt(GCCAsmStmt *a) {
    llvm::StringRef text = a->getAsmString()->getString();
    if (text.trim().empty()) return true;
    // The rewrites keep the constraint's length, so the literal is updated in place.
    for (unsigned i = 0; i < a->getNumOutputs(); ++i) patch(a->getOutputConstraintLiteral(i), a->getOutputExpr(i)->getType(), true);
    for (unsigned i = 0; i < a->getNumInputs(); ++i) patch(a->getInputConstraintLiteral(i), a->getInputExpr(i)->getType(), false);
    return true;
  }

 private:
  void patch(StringLiteral *lit, QualType t, bool output) {
    if (!lit || lit->getCharByteWidth() != 1) return;
    std::string c = lit->getString().str();
    std::string n = fix(c, t, output);
    if (n == c || n.size() != c.size()) return;
    memcpy(const_cast<char *>(lit->getBytes().data()), n.data(), n.size());
  }
  // The register letter the type of the expression calls for, or 0 to keep the letter.
  char letter_for(QualType t) {
    t = t.getCanonicalType().getNonReferenceType();
    if (t->isPointerType()) return 'l';
    if (t->isRealFloatingType()) {
      uint64_t bits = ctx_.getTypeSize(t);
      return bits == 32 ? 'f' : bits == 64 ? 'd' : bits == 16 ? 'h' : 0;
    }
    if (t->isIntegralOrEnumerationType() && !t->isBooleanType()) {
      uint64_t bits = ctx_.getTypeSize(t);
      return bits == 16 ? 'h' : bits == 32 ? 'r' : bits == 64 ? 'l' : 0;
    }
    return 0;
  }
  std::string fix(const std::string &c, QualType t, bool output) {
    // Only the simple single-letter register constraints are rewritten.
    size_t pos = 0;
    std::string prefix;
    while (pos < c.size() && (c[pos] == '=' || c[pos] == '+' || c[pos] == '&')) prefix += c[pos++];
    std::string rest = c.substr(pos);
    if (rest.size() != 1 || std::string("hrlfd").find(rest[0]) == std::string::npos) return c;
    char want = letter_for(t);
    char letter = want ? want : rest[0];
    if (output && prefix.find('=') != std::string::npos && prefix.find('&') == std::string::npos) {
      // "=r" reads as "+r".
      std::string p2 = prefix;
      for (char &ch : p2)
        if (ch == '=') ch = '+';
      prefix = p2;
    }
    return prefix + letter;
  }
  ASTContext &ctx_;
  bool instantiations_;
};

// ---- lane-mask operands of inline PTX on wave64 targets (seed 002) ------------------
//
// The lane-mask operand of shfl.sync, vote.sync, match.sync, redux.sync and
// bar.warp.sync has as many bits as the warp. For a 64-wide warp: a non-constant operand
// narrower than 64 bits is an error; a constant with no bit in the upper 32 lanes (e.g.
// 0xffffffff) gets a warning (write -1 for "all lanes").
class LaneMaskAsmChecker : public RecursiveASTVisitor<LaneMaskAsmChecker> {
 public:
  LaneMaskAsmChecker(ASTContext &ctx, DiagnosticsEngine &d, unsigned err, unsigned warn)
      : ctx_(ctx), sm_(ctx.getSourceManager()), diags_(d), err_(err), warn_(warn) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitGCCAsmStmt(GCCAsmStmt *a) {
    SourceLocation loc = a->getAsmLoc();
    if (loc.isInvalid() || sm_.isInSystemHeader(sm_.getFileLoc(loc))) return true;
    std::string text = a->getAsmString()->getString().str();
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find_first_of(";\n{}", start);
      if (end == std::string::npos) end = text.size();
      check_instruction(a, llvm::StringRef(text).slice(start, end).trim());
      start = end + 1;
    }
    return true;
  }

 private:
  void check_instruction(GCCAsmStmt *a, llvm::StringRef ins) {
    if (ins.starts_with("@")) ins = ins.split(' ').second.trim();
    std::pair<llvm::StringRef, llvm::StringRef> op_rest = ins.split(' ');
    llvm::StringRef op = op_rest.first;
    bool masked = op.starts_with("shfl.sync") || op.starts_with("vote.sync") || op.starts_with("bar.warp.sync") ||
                  (op.starts_with("match.") && op.contains(".sync")) || op.starts_with("redux.sync");
    if (!masked) return;
    llvm::StringRef operands = op_rest.second.trim();
    if (operands.empty()) return;
    llvm::StringRef mask = operands.rsplit(',').second.trim();
    if (!operands.contains(',')) mask = operands;
    SourceLocation loc = a->getAsmLoc();
    if (!reported_.insert(std::make_pair(loc.getRawEncoding(), mask.str())).second) return;
    if (mask.starts_with("%") && !mask.starts_with("%%")) {
      unsigned n;
      if (mask.drop_front().getAsInteger(10, n)) return;
      const Expr *e = n < a->getNumOutputs() ? a->getOutputExpr(n)
                      : n - a->getNumOutputs() < a->getNumInputs() ? a->getInputExpr(n - a->getNumOutputs()) : nullptr;
      if (!e) return;
      std::string c = n < a->getNumOutputs() ? a->getOutputConstraint(n).str() : a->getInputConstraint(n - a->getNumOutputs()).str();
      if (c.find('n') != std::string::npos || c.find('i') != std::string::npos) {
        Expr::EvalResult r;
        if (e->EvaluateAsInt(r, ctx_)) check_constant(r.Val.getInt().getSExtValue(), op, loc);
        return;
      }
      uint64_t bits = ctx_.getTypeSize(e->IgnoreImpCasts()->getType().getCanonicalType());
      if (bits < 64) diags_.Report(loc, err_) << op << (unsigned)bits;
      return;
    }
    int64_t v;
    llvm::StringRef lit = mask;
    bool neg = lit.consume_front("-");
    uint64_t u;
    if (lit.getAsInteger(0, u)) return;
    v = neg ? -(int64_t)u : (int64_t)u;
    check_constant(v, op, loc);
  }
  void check_constant(int64_t v, llvm::StringRef op, SourceLocation loc) {
    if (v == -1) return;
    if (((uint64_t)v >> 32) == 0) {
      char hex[32];
      snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)(uint64_t)v);
      diags_.Report(loc, warn_) << op << hex;
    }
  }
  ASTContext &ctx_;
  const SourceManager &sm_;
  DiagnosticsEngine &diags_;
  unsigned err_, warn_;
  std::set<std::pair<unsigned, std::string>> reported_;
};

class OurConsumer : public ASTConsumer {
 public:
  OurConsumer(const cf_request *req, DiagnosticsEngine &diags, unsigned lanemask_id)
      : req_(req), diags_(diags), lanemask_id_(lanemask_id) {
    ptx_err_id_ = diags.getCustomDiagID(DiagnosticsEngine::Error,
                                        "the lane-mask operand of '%0' is a %1-bit value: on a 64-wide warp lane masks have 64 "
                                        "bits (use a cudaLaneMask_t or 64-bit operand)");
    ptx_warn_id_ = diags.getCustomDiagID(DiagnosticsEngine::Warning,
                                         "constant lane mask %1 of '%0' has no lanes in the upper half of a 64-wide warp; write "
                                         "-1 for all lanes");
    if (auto *fwd = dynamic_cast_forwarding(diags.getClient())) fwd->ptx_warning_id = ptx_warn_id_;
  }

  void Initialize(ASTContext &ctx) override { ctx_ = &ctx; }

  // Declarations coming out of the PCH (our headers) are not the program's: none of our
  // rewrites or checks apply to them (the default would pass them to HandleTopLevelDecl).
  void HandleInterestingDecl(DeclGroupRef) override {}

  bool HandleTopLevelDecl(DeclGroupRef group) override {
    if (!ctx_) return true;
    for (Decl *d : group) {
      if (req_->default_device) mark_device(d);
      keep_static_device_var(d);
      AsmBindingRewriter(*ctx_, false).TraverseDecl(d);
      // Only this translation unit's own declarations are checked (not the PCH's):
      // template instantiations are reached through their templates.
      if (req_->lanemask_check) top_level_.push_back(d);
      asm_decls_.push_back(d);
    }
    return true;
  }

  void HandleTranslationUnit(ASTContext &ctx) override {
    // Template instantiations exist now: give their asm statements the same rules.
    for (Decl *d : asm_decls_) AsmBindingRewriter(ctx, true).TraverseDecl(d);
    if (req_->warp_size == 64 && !diags_.hasErrorOccurred()) {
      LaneMaskAsmChecker checker(ctx, diags_, ptx_err_id_, ptx_warn_id_);
      for (Decl *d : asm_decls_) checker.TraverseDecl(d);
    }
    if (req_->lanemask_check && !diags_.hasErrorOccurred()) {
      LaneMaskChecker checker(ctx, diags_, lanemask_id_);
      for (Decl *d : top_level_) checker.TraverseDecl(d);
    }
  }

 private:
  // NVIDIA's NVRTC keeps a `static __constant__` or `static __device__` variable under its
  // source name, so that the host can reach it with cuModuleGetGlobal (NVIDIA's
  // binomialOptions_nvrtc sample fills one that way). clang would give it internal
  // linkage, fold its loads to the initializer (the device never stores to it) and drop
  // it: we externalize it as clang does for static device variables that host code uses,
  // and `ir::` gives it back its source name.
  void keep_static_device_var(Decl *d) {
    if (auto *ns = dyn_cast<NamespaceDecl>(d)) {
      for (Decl *inner : ns->decls()) keep_static_device_var(inner);
      return;
    }
    auto *v = dyn_cast<VarDecl>(d);
    if (!v || v->getStorageClass() != SC_Static || !v->getDeclContext()->isFileContext()) return;
    if (isa<VarTemplateSpecializationDecl>(v) || v->isConstexpr()) return;
    auto explicit_attr = [](auto *a) { return a && !a->isImplicit(); };
    if (!explicit_attr(v->getAttr<CUDADeviceAttr>()) && !explicit_attr(v->getAttr<CUDAConstantAttr>())) return;
    if (ctx_->getSourceManager().isInSystemHeader(v->getLocation())) return;
    ctx_->CUDADeviceVarODRUsedByHost.insert(v);
  }

  void mark_device(Decl *d) {
    if (auto *ns = dyn_cast<NamespaceDecl>(d)) {
      for (Decl *inner : ns->decls()) mark_device(inner);
      return;
    }
    if (auto *lsd = dyn_cast<LinkageSpecDecl>(d)) {
      for (Decl *inner : lsd->decls()) mark_device(inner);
      return;
    }
    auto *v = dyn_cast<VarDecl>(d);
    if (!v || !v->hasGlobalStorage() || v->isStaticLocal() || !v->getDeclContext()->isFileContext())
      return;
    if (isa<VarTemplateSpecializationDecl>(v)) return;
    if (v->isConstexpr()) return;
    if (v->hasAttr<CUDADeviceAttr>() || v->hasAttr<CUDAConstantAttr>() || v->hasAttr<CUDASharedAttr>() ||
        v->hasAttr<HIPManagedAttr>())
      return;
    if (ctx_->getSourceManager().isInSystemHeader(v->getLocation())) return;
    v->addAttr(CUDADeviceAttr::CreateImplicit(*ctx_));
  }

  const cf_request *req_;
  DiagnosticsEngine &diags_;
  unsigned lanemask_id_;
  ASTContext *ctx_ = nullptr;
  std::vector<Decl *> top_level_;
  std::vector<Decl *> asm_decls_;
  unsigned ptx_err_id_ = 0, ptx_warn_id_ = 0;
};

// Sema keeps the roots of its deferred diagnostics private; an explicit instantiation
// may name a private member (the standard's access rule for it), which is how we reach it.
struct DeferredDiagRootsTag {
  typedef llvm::SmallSetVector<Decl *, 4> Sema::*type;
  friend type deferred_roots(DeferredDiagRootsTag);
};
template <typename Tag, typename Tag::type Member> struct ExposeMember {
  friend typename Tag::type deferred_roots(Tag) { return Member; }
};
template struct ExposeMember<DeferredDiagRootsTag, &Sema::DeclsToCheckForDeferredDiags>;

// Runs before the PCH writer: the prelude's functions need not be roots of the deferred
// CUDA diagnostics of every program that includes the PCH (reading them back cost most
// of a small compile). Functions a program calls are still reached from its own roots.
class PrunePCHConsumer : public SemaConsumer {
 public:
  void InitializeSema(Sema &s) override { sema_ = &s; }
  void ForgetSema() override { sema_ = nullptr; }
  void HandleTranslationUnit(ASTContext &) override {
    if (sema_) (sema_->*deferred_roots(DeferredDiagRootsTag())).clear();
  }

 private:
  Sema *sema_ = nullptr;
};

// Serializes the preprocessed and analysed header into memory (a prefix translation
// unit, as clang's GeneratePCHAction does, without an output file).
class MemoryPCHAction : public ASTFrontendAction {
 public:
  explicit MemoryPCHAction(std::shared_ptr<PCHBuffer> buffer) : buffer_(std::move(buffer)) {}
  TranslationUnitKind getTranslationUnitKind() override { return TU_Prefix; }
  bool hasASTFileSupport() const override { return false; }

 protected:
  bool BeginSourceFileAction(CompilerInstance &ci) override {
    ci.getLangOpts().CompilingPCH = true;
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) override {
    std::vector<std::unique_ptr<ASTConsumer>> consumers;
    consumers.push_back(std::make_unique<PrunePCHConsumer>());
    consumers.push_back(std::make_unique<PCHGenerator>(ci.getPreprocessor(), ci.getModuleCache(), "/__nvrtc_pch__/prelude.pch", "",
                                          buffer_, llvm::ArrayRef<std::shared_ptr<ModuleFileExtension>>(),
                                          /*AllowASTWithErrors=*/false, /*IncludeTimestamps=*/false));
    return std::make_unique<MultiplexConsumer>(std::move(consumers));
  }

 private:
  std::shared_ptr<PCHBuffer> buffer_;
};

// Our consumer in front of clang's code generator (or alone, for syntax-only runs).
class OurCodeGenAction : public EmitLLVMOnlyAction {
 public:
  OurCodeGenAction(const cf_request *req, unsigned lanemask_id)
      : EmitLLVMOnlyAction(llvm::unwrap(req->ctx)), req_(req), lanemask_id_(lanemask_id) {}

 protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef in) override {
    std::vector<std::unique_ptr<ASTConsumer>> consumers;
    consumers.push_back(std::make_unique<cuda_frontend::ExtendedLambdaConsumer>());
    consumers.push_back(std::make_unique<OurConsumer>(req_, ci.getDiagnostics(), lanemask_id_));
    consumers.push_back(EmitLLVMOnlyAction::CreateASTConsumer(ci, in));
    return std::make_unique<MultiplexConsumer>(std::move(consumers));
  }

 private:
  const cf_request *req_;
  unsigned lanemask_id_;
};

class OurSyntaxOnlyAction : public SyntaxOnlyAction {
 public:
  OurSyntaxOnlyAction(const cf_request *req, unsigned lanemask_id) : req_(req), lanemask_id_(lanemask_id) {}

 protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) override {
    std::vector<std::unique_ptr<ASTConsumer>> consumers;
    consumers.push_back(std::make_unique<cuda_frontend::ExtendedLambdaConsumer>());
    consumers.push_back(std::make_unique<OurConsumer>(req_, ci.getDiagnostics(), lanemask_id_));
    return std::make_unique<MultiplexConsumer>(std::move(consumers));
  }

 private:
  const cf_request *req_;
  unsigned lanemask_id_;
};

struct PhaseClock {
  bool on = getenv("NVRTC_PROFILE") != nullptr;
  std::chrono::steady_clock::time_point t = std::chrono::steady_clock::now();
  void lap(const char *what) {
    if (!on) return;
    auto n = std::chrono::steady_clock::now();
    fprintf(stderr, "  [shim] %-18s %7.3f ms\n", what, std::chrono::duration<double, std::milli>(n - t).count());
    t = n;
  }
};

int compile_inner(const cf_request *req, LLVMModuleRef *out, std::string *pch_out) {
  clang::noteBottomOfStack();
  PhaseClock clock;
  switch (req->test_crash) {
    case 1: { volatile int *p = nullptr; *p = 1; break; }
    case 2: llvm::report_fatal_error("test: a fatal error inside the front-end");
    case 3: abort();
    default: break;
  }
  // Diagnostics for the argument list itself.
  auto diag_opts = llvm::makeIntrusiveRefCnt<DiagnosticOptions>();
  std::shared_ptr<CompilerInvocation> invocation = cuda_frontend::parsed_invocation(req->argv, req->argc);
  if (!invocation) {
    invocation = std::make_shared<CompilerInvocation>();
    ForwardingConsumer arg_consumer(req, ~0u);
    DiagnosticsEngine arg_diags(llvm::makeIntrusiveRefCnt<DiagnosticIDs>(), diag_opts.get(), &arg_consumer, false);
    std::vector<const char *> args(req->argv, req->argv + req->argc);
    if (!CompilerInvocation::CreateFromArgs(*invocation, args, arg_diags) || arg_diags.hasErrorOccurred())
      return CF_BAD_ARGS;
    cuda_frontend::remember_invocation(req->argv, req->argc, *invocation);
  }
  clock.lap("arguments");
  FrontendOptions &fe = invocation->getFrontendOpts();
  fe.Inputs.clear();
  if (req->build_pch) {
    fe.Inputs.emplace_back(req->main_path, InputKind(Language::CUDA, InputKind::Source, false, InputKind::HeaderUnit_None, true));
    fe.ProgramAction = frontend::GeneratePCH;
  } else {
    fe.Inputs.emplace_back(req->main_path, InputKind(Language::CUDA));
    fe.ProgramAction = req->syntax_only ? frontend::ParseSyntaxOnly : frontend::EmitLLVMOnly;
  }
  fe.DisableFree = false;
  // No "N warnings generated" on stderr: every diagnostic goes to the program log.
  invocation->getDiagnosticOpts().ShowCarets = false;

  // Virtual files over an unlinked physical file system (its working directory is
  // private, so setting it never changes the process's): our headers and preludes
  // (shared), then the program's files.
  auto physical = llvm::vfs::createPhysicalFileSystem();
  auto builtin = cuda_frontend::shared_file_system(req->builtin_files, req->nbuiltin, req->pch_file);
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  for (int i = 0; i < req->nfiles; ++i) {
    const cf_vfile &f = req->files[i];
    memory->addFile(f.path, 0,
                    llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(f.data, f.len), f.path, true));
  }
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(physical.release()));
  overlay->pushOverlay(builtin);
  overlay->pushOverlay(memory);
  if (req->cwd && *req->cwd) overlay->setCurrentWorkingDirectory(req->cwd);

  clock.lap("vfs");
  CompilerInstance ci;
  ci.setInvocation(invocation);
  // Our custom diagnostic needs the engine's ID table, so create the engine first.
  ci.createDiagnostics(nullptr, false);
  unsigned lanemask_id = ci.getDiagnostics().getCustomDiagID(
      DiagnosticsEngine::Warning,
      "implicit conversion narrows a lane mask to %0 (%1 bits; cudaLaneMask_t is %2 bits here and 64 "
      "on wave64 targets): lanes are lost on a 64-wide warp; keep the value as cudaLaneMask_t or auto");
  auto *consumer = new ForwardingConsumer(req, lanemask_id);
  g_forwarder = consumer;
  ci.getDiagnostics().setClient(consumer, /*ShouldOwnClient=*/true);
  ci.createFileManager(overlay);

  bool ok;
  if (req->build_pch) {
    auto buffer = std::make_shared<PCHBuffer>();
    MemoryPCHAction act(buffer);
    ok = ci.ExecuteAction(act);
    *out = nullptr;
    if (!ok || ci.getDiagnostics().hasErrorOccurred() || !buffer->IsComplete) return CF_ERRORS;
    pch_out->assign(buffer->Data.data(), buffer->Data.size());
    return CF_OK;
  }
  if (req->syntax_only) {
    OurSyntaxOnlyAction act(req, lanemask_id);
    ok = ci.ExecuteAction(act);
    *out = nullptr;
    return ok && !ci.getDiagnostics().hasErrorOccurred() ? CF_OK : CF_ERRORS;
  }
  clock.lap("instance");
  OurCodeGenAction act(req, lanemask_id);
  ok = ci.ExecuteAction(act);
  clock.lap("execute");
  if (!ok || ci.getDiagnostics().hasErrorOccurred()) return CF_ERRORS;
  std::unique_ptr<llvm::Module> module = act.takeModule();
  if (!module) return CF_ERRORS;
  *out = llvm::wrap(module.release());
  return CF_OK;
}

}  // namespace

extern "C" {

void cf_init(void) { std::call_once(g_init_once, init_once); }

// Compiles one translation unit. On CF_OK, *out is a module in req->ctx that the caller
// owns (or, with req->build_pch, *pch_data/*pch_len a malloc'ed serialized header). On
// CF_CRASH, *crash_msg (if not null) gets a malloc'ed description.
int cf_compile(const cf_request *req, LLVMModuleRef *out, char **crash_msg, char **pch_data, size_t *pch_len) {
  cf_init();
  *out = nullptr;
  std::string pch;
  if (crash_msg) *crash_msg = nullptr;
  CrashRecoveryScope scope;
  llvm::CrashRecoveryContext crc;
  int result = CF_CRASH;
  LLVMModuleRef module = nullptr;
  std::string fatal;
  auto body = [&]() {
    g_fatal_slot = &fatal;
    result = compile_inner(req, &module, &pch);
    g_fatal_slot = nullptr;
  };
  (void)crc;
  bool completed = WorkerPool::get().run(body);
  if (!completed) {
    if (crash_msg) {
      std::string m = fatal.empty() ? std::string("the front-end crashed") : ("fatal error: " + fatal);
      *crash_msg = strdup(m.c_str());
    }
    // The module (if any) belongs to an abandoned compile: leak it rather than touch it.
    return CF_CRASH;
  }
  *out = module;
  if (req->build_pch && result == CF_OK && pch_data && pch_len) {
    *pch_data = static_cast<char *>(malloc(pch.size() ? pch.size() : 1));
    memcpy(*pch_data, pch.data(), pch.size());
    *pch_len = pch.size();
  }
  return result;
}

// Runs fn(data) under crash recovery on a thread of its own; returns 1 if it completed,
// 0 if it crashed (then *crash_msg, if not null, gets a malloc'ed description).
int cf_run_safely(void (*fn)(void *), void *data, unsigned stack_size, char **crash_msg) {
  cf_init();
  if (crash_msg) *crash_msg = nullptr;
  CrashRecoveryScope scope;
  llvm::CrashRecoveryContext crc;
  std::string fatal;
  auto body = [&]() {
    g_fatal_slot = &fatal;
    fn(data);
    g_fatal_slot = nullptr;
  };
  (void)crc;
  (void)stack_size;
  bool completed = WorkerPool::get().run(body);
  if (!completed && crash_msg) {
    std::string m = fatal.empty() ? std::string("the back-end crashed") : ("fatal error: " + fatal);
    *crash_msg = strdup(m.c_str());
  }
  return completed ? 1 : 0;
}

void cf_free(char *p) { free(p); }

}  // extern "C"
