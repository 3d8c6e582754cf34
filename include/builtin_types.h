/*
 * builtin_types.h (ours): every type header of the runtime API at once.
 */
#if defined(__GNUC__)
#pragma GCC system_header
#endif
#ifndef __BUILTIN_TYPES_H__
#define __BUILTIN_TYPES_H__

#include "device_types.h"
#include "driver_types.h"
#include "surface_types.h"
#include "texture_types.h"

#endif
