/* math_functions.h: its declarations are part of the implicit prelude (ours). */
#pragma clang system_header
