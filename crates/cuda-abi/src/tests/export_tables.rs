//! Export table tests.
