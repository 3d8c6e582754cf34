// The in-memory file of the shim's C interface (shared by frontend.cpp and compile_caches.cpp).
#pragma once

#include <cstddef>

extern "C" {

// One file of the virtual file system: an absolute path and its bytes (not copied;
// they must outlive the compile, and data[len] must be a NUL, as clang's lexer needs).
struct cf_vfile {
  const char *path;
  const char *data;
  size_t len;
};

}  // extern "C"
