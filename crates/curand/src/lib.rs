//! libcurand.so.10: NVIDIA's cuRAND host API with the same numbers as NVIDIA's cuRAND.
//!
//! The generators (`xorwow`, `mrg32k3a`, `philox`, `sobol`) are the published algorithms
//! seeded and skipped as cuRAND's `curand_init`; `streams` is the host API's parallel
//! layout (how many subsequences NVIDIA's kernels run and how their results interleave),
//! `distributions` and `poisson` the transformations, `generator` a generator's options
//! and state, `api` the C exports over `libcuda_client` (device ranges as host memory,
//! work queued on the generator's stream).

pub mod api;
pub mod distributions;
pub mod generator;
pub mod mrg32k3a;
pub mod mtgp32;
mod mtgp32_params;
pub mod philox;
pub mod poisson;
pub mod sobol;
pub mod status;
pub mod streams;
pub mod xorwow;
