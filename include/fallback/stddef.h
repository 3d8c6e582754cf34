#pragma clang system_header
#ifndef __NV_STDDEF_H
#define __NV_STDDEF_H
#ifndef offsetof
#define offsetof(t, m) __builtin_offsetof(t, m)
#endif
typedef long double max_align_t;
#endif
