// A pool over a caller's storage that carries a caller's brand must not outlive the
// storage. `Pool::with_storage_in` lends the pool by `&mut` for the closure's call only:
// it can be neither returned nor stored outside, even in a place that names its brand.
// `SoaPool::new_in_storage` returns the pool, whose type borrows the storage. And no
// second pool of the brand can take the lent one's place.
use arena_kit::pool::PoolStorage;
use arena_kit::pool::soa::SoaStorage;
use arena_kit::{ArenaAlloc, Brand, Key, Pool, SoaPool};

struct Node<'id> {
    next: Option<Key<'id>>,
}

#[derive(ArenaAlloc)]
#[arena(soa, brand = 'id)]
struct Dir<'id> {
    name: String,
    parent: Option<Key<'id>>,
}

fn main() {
    // Returned from the closure.
    Brand::with(|brand| {
        let mut storage = PoolStorage::<Node<'_>, 4>::new();
        let pool = Pool::with_storage_in(&mut storage, brand, |pool| pool);
        drop(pool);
    });
    // Kept in a place of the brand's closure, past the storage.
    Brand::with(|brand| {
        let mut kept: Option<&mut Pool<'_, Node<'_>>> = None;
        {
            let mut storage = PoolStorage::<Node<'_>, 4>::new();
            Pool::with_storage_in(&mut storage, brand, |pool| kept = Some(pool));
        }
        drop(kept);
    });
    // A struct-of-arrays pool past its storage.
    Brand::with(|brand| {
        let pool;
        {
            let mut storage = SoaStorage::<Dir<'_>, 4>::new();
            pool = SoaPool::new_in_storage(&mut storage, brand);
        }
        drop(pool);
    });
    // A heap pool of the same brand swapped in for the lent one.
    Brand::with(|brand| {
        let mut storage = PoolStorage::<Node<'_>, 4>::new();
        Pool::with_storage_in(&mut storage, brand, |pool| {
            let heap = Pool::new_in(brand);
            drop(std::mem::replace(pool, heap));
        });
    });
    // A struct-of-arrays pool declared before its storage, so dropped after it.
    Brand::with(|brand| {
        let mut pool;
        let mut storage = SoaStorage::<Dir<'_>, 4>::new();
        pool = SoaPool::new_in_storage(&mut storage, brand);
        pool.insert_keyed(Dir { name: "etc".into(), parent: None });
    });
    // The storage reused while the pool lives.
    Brand::with(|brand| {
        let mut storage = SoaStorage::<Dir<'_>, 4>::new();
        let pool = SoaPool::new_in_storage(&mut storage, brand);
        let again = SoaStorage::<Dir<'_>, 4>::new();
        storage = again;
        drop(pool);
    });
}
