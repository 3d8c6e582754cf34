//! PTX instruction conformance suite.
//!
//! Each [`case::Case`] is one instruction form with its type and modifiers, a generated
//! kernel around it ([`kernel`]), input arrays (exhaustive for 8/16-bit inputs where
//! that is feasible, fixed-seed random plus edge values otherwise, [`rng`]) and expected
//! outputs computed here from the PTX ISA's definitions ([`families`], with IEEE reference
//! arithmetic in [`fp`]), never by the code under test.
//!
//! Two runners use the same cases:
//! - [`cpu`]: compiles them with compiler-core on the CPU device (`cargo test -p
//!   ptx-conformance`, which also checks `known_failures.txt`);
//! - [`export`] writes them to files that `hw/check.py` runs on an NVIDIA GPU through
//!   NVIDIA's driver, to check that the expectations agree with real hardware
//!   (`hardware-check.md` records the last run). Families of our dialect extensions
//!   (`families::NOT_ON_NVIDIA`: non-standard integer widths) are left out: ptxas
//!   rejects them.

pub mod case;
pub mod cpu;
pub mod export;
pub mod families;
pub mod fp;
pub mod kernel;
pub mod rng;
