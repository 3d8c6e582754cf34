/* cooperative_groups scans live with reduce (ours). */
#pragma clang system_header
#include "reduce.h"
