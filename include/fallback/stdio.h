#pragma clang system_header
/* printf is in the implicit prelude. */
