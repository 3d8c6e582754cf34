//! Entry point tests.
