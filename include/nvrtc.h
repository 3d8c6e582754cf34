/*
 * nvrtc.h: the host-side C API of our libnvrtc.so (runtime compilation of CUDA C++ to
 * PTX). Written for this project; the declarations follow NVRTC's documented API so
 * programs written against NVIDIA's NVRTC compile and link unchanged.
 */
#ifndef NVRTC_H_
#define NVRTC_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result codes. */
typedef enum {
  NVRTC_SUCCESS = 0,
  NVRTC_ERROR_OUT_OF_MEMORY = 1,
  NVRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  NVRTC_ERROR_INVALID_INPUT = 3,
  NVRTC_ERROR_INVALID_PROGRAM = 4,
  NVRTC_ERROR_INVALID_OPTION = 5,
  NVRTC_ERROR_COMPILATION = 6,
  NVRTC_ERROR_BUILTIN_OPERATION_FAILURE = 7,
  NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION = 8,
  NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION = 9,
  NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID = 10,
  NVRTC_ERROR_INTERNAL_ERROR = 11,
  NVRTC_ERROR_TIME_FILE_WRITE_FAILED = 12,
  NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED = 13,
  NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED = 14,
  NVRTC_ERROR_PCH_CREATE = 15,
  NVRTC_ERROR_CANCELLED = 16,
  NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED = 17
} nvrtcResult;

/* A program: source, headers, options, results. */
typedef struct _nvrtcProgram *nvrtcProgram;

/* The name of a result code ("NVRTC_ERROR unknown" for others). */
const char *nvrtcGetErrorString(nvrtcResult result);

/* The NVRTC version this library implements, and the architectures it lists. */
nvrtcResult nvrtcVersion(int *major, int *minor);
nvrtcResult nvrtcGetNumSupportedArchs(int *numArchs);
nvrtcResult nvrtcGetSupportedArchs(int *supportedArchs);

/* Programs. Headers are given as contents and the names #include uses for them. */
nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name, int numHeaders,
                               const char *const *headers, const char *const *includeNames);
nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog);
nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char *const *options);

/* Outputs. Sizes count the terminating NUL of text outputs. */
nvrtcResult nvrtcGetPTXSize(nvrtcProgram prog, size_t *ptxSizeRet);
nvrtcResult nvrtcGetPTX(nvrtcProgram prog, char *ptx);
nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *cubinSizeRet);
nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin);
nvrtcResult nvrtcGetLTOIRSize(nvrtcProgram prog, size_t *LTOIRSizeRet);
nvrtcResult nvrtcGetLTOIR(nvrtcProgram prog, char *LTOIR);
nvrtcResult nvrtcGetOptiXIRSize(nvrtcProgram prog, size_t *optixirSizeRet);
nvrtcResult nvrtcGetOptiXIR(nvrtcProgram prog, char *optixir);
nvrtcResult nvrtcGetTileIRSize(nvrtcProgram prog, size_t *TileIRSizeRet);
nvrtcResult nvrtcGetTileIR(nvrtcProgram prog, char *TileIR);
nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, size_t *logSizeRet);
nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char *log);

/* Name expressions: the mangled (lowered) names of template instantiations, overloads
   and variables, named before compiling and read back after. */
nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog, const char *const name_expression);
nvrtcResult nvrtcGetLoweredName(nvrtcProgram prog, const char *const name_expression, const char **lowered_name);

/* Precompiled headers (accepted; this library keeps its own). */
nvrtcResult nvrtcGetPCHHeapSize(size_t *ret);
nvrtcResult nvrtcSetPCHHeapSize(size_t size);
nvrtcResult nvrtcGetPCHCreateStatus(nvrtcProgram prog);
nvrtcResult nvrtcGetPCHHeapSizeRequired(nvrtcProgram prog, size_t *size);

/* A callback the compile consults; returning 1 cancels it (NVRTC_ERROR_CANCELLED). */
nvrtcResult nvrtcSetFlowCallback(nvrtcProgram prog, int (*callback)(void *, void *), void *payload);

#ifdef __cplusplus
}
#endif

/* nvrtcGetTypeName<T>(): the source-level name of a type, for building name expressions
   in host code. Define NVRTC_GET_TYPE_NAME to a nonzero value before including this
   header to get it (it needs <string> and <typeinfo>, and abi::__cxa_demangle). */
#if defined(__cplusplus) && defined(NVRTC_GET_TYPE_NAME) && NVRTC_GET_TYPE_NAME
#include <cstdlib>
#include <cxxabi.h>
#include <string>
#include <typeinfo>

template <typename T> struct __nvrtcGetTypeName_helper_t {};

inline nvrtcResult nvrtcGetTypeName(const std::type_info &tinfo, std::string *result) {
  int status = -1;
  char *name = abi::__cxa_demangle(tinfo.name(), NULL, NULL, &status);
  if (status != 0 || name == NULL) {
    std::free(name);
    return NVRTC_ERROR_INTERNAL_ERROR;
  }
  *result = name;
  std::free(name);
  return NVRTC_SUCCESS;
}

/* The wrapper template keeps cv-qualifiers and references, which typeid drops. */
template <typename T> nvrtcResult nvrtcGetTypeName(std::string *result) {
  std::string wrapped;
  nvrtcResult r = nvrtcGetTypeName(typeid(__nvrtcGetTypeName_helper_t<T>), &wrapped);
  if (r != NVRTC_SUCCESS) return r;
  std::string::size_type open = wrapped.find('<'), close = wrapped.rfind('>');
  if (open == std::string::npos || close == std::string::npos || close <= open) return NVRTC_ERROR_INTERNAL_ERROR;
  *result = wrapped.substr(open + 1, close - open - 1);
  while (!result->empty() && (*result)[result->size() - 1] == ' ') result->erase(result->size() - 1);
  return NVRTC_SUCCESS;
}
#endif

#endif /* NVRTC_H_ */
