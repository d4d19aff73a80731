//! `SizeClassPool` and `SyncSizeClassPool`.

mod hostile_sync_size_class;
mod pool;
