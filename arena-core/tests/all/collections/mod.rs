//! `ArenaVec`, `ArenaString`, `ArenaBox` and `allocator_api2` collections in a scope.

#[cfg(feature = "allocator-api2")]
mod allocator_api;
mod arena_vec;
mod hostile_arena_box;
mod hostile_arena_string;
mod hostile_arena_vec;
mod hostile_vec_ops;
