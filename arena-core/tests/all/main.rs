//! arena-core's integration tests, one binary (bumpalo's `tests/all` layout) so Miri and
//! valgrind start one process. Sizes shrink under `cfg(miri)`.

mod arena;
mod block_pool;
mod common;
mod drops;
mod errors;
mod model;
mod nested;
mod scope;
