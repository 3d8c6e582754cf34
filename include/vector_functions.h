/* make_* constructors live in vector_types.h. */
#pragma clang system_header
#include "vector_types.h"
