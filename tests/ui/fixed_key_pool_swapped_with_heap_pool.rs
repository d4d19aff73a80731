//! A key pool in storage traded for a heap pool with `mem::swap`, so the heap pool's
//! variable would carry the storage's slots past the storage: the two are different
//! types (`KeyPool<T, K, Fixed<'s>>` and `KeyPool<T, K, Heap>`).
use arena_kit::pool::{FixedKeyPool, PoolStorage};
use arena_kit::KeyPool;

fn main() {
    let mut heap: KeyPool<u8> = KeyPool::new();
    {
        let mut storage = PoolStorage::<u8, 4>::new();
        let mut fixed: FixedKeyPool<'_, u8> = FixedKeyPool::in_storage(&mut storage);
        std::mem::swap(&mut heap, &mut fixed);
    }
    heap.insert(1);
}
