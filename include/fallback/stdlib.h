#pragma clang system_header
#ifndef __NV_STDLIB_H
#define __NV_STDLIB_H
/* abs/labs/llabs, malloc and free are in the implicit prelude. */
#endif
