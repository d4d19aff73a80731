//! `#[derive(ArenaAlloc)]` and `arena_new!` on every shape the derive accepts: the plain
//! and struct-of-arrays pools, generics, lifetimes, the brand lifetime in linked
//! structures, tuple and unit structs, and the fallible forms.

#![forbid(unsafe_code)]
#![expect(
    clippy::float_cmp,
    reason = "the floats are small integers stored and read back, never computed"
)]
#![expect(clippy::many_single_char_names, reason = "one short name per allocated value")]

use std::cell::Cell;
use std::fmt::Debug;

use arena_kit::{AllocError, ArenaAlloc, BlockPool, Pool, arena_new, try_arena_new};

#[derive(ArenaAlloc, Default, Debug, PartialEq, Clone)]
struct Particle {
    pos: [f32; 3],
    vel: [f32; 3],
    mass: f32,
}

#[derive(ArenaAlloc, Default, Debug, PartialEq, Clone)]
#[arena(soa)]
struct Body {
    pos: [f32; 3],
    vel: [f32; 3],
    mass: f32,
}

fn is_arena_alloc<T: ArenaAlloc + ?Sized>() {}

#[test]
fn the_plain_pool_is_a_branded_pool_of_the_struct() {
    let total = ParticlePool::with(|mut pool| {
        let a = pool.insert(Particle { mass: 1.0, ..Particle::default() });
        let b: ParticleHandle<'_> = arena_new!(pool, Particle { mass: 2.0, ..Default::default() });
        let k: ParticleKey<'_> = pool.key(&b);
        pool.get_mut(&a).pos[0] = 5.0;
        assert_eq!(pool[&a].pos[0], 5.0);
        assert_eq!(pool.get_key(k).map(|p| p.mass), Some(2.0));
        assert_eq!(pool.len(), 2);
        let total = pool.remove(a).mass + pool.remove(b).mass;
        assert!(pool.get_key(k).is_none());
        total
    });
    assert_eq!(total, 3.0);
    is_arena_alloc::<Particle>();
}

#[test]
fn the_plain_pool_default_constructs_and_hands_values_back() {
    ParticlePool::with_capacity(8, |mut pool| {
        assert!(pool.capacity() >= 8);
        let h = arena_new!(pool, Particle);
        assert_eq!(pool[&h], Particle::default());
        let h2 = try_arena_new!(pool, Particle { mass: 3.0, ..Particle::default() }).unwrap();
        let h3 = try_arena_new!(pool, Particle).unwrap();
        let drained: Vec<Particle> = pool.into_inner().drain().collect();
        assert_eq!(drained.len(), 3);
        drop((h, h2, h3));
    });
}

#[test]
fn the_plain_pool_runs_over_fixed_storage() {
    let mut storage = arena_kit::pool::PoolStorage::<Particle, 2>::new();
    let mass = ParticlePool::with_storage(&mut storage, |mut pool| {
        let a = arena_new!(pool, Particle { mass: 1.5, ..Default::default() });
        let _b = pool.insert_keyed(Particle::default());
        let full = try_arena_new!(pool, Particle).unwrap_err();
        assert!(matches!(full.error(), AllocError::CapacityExceeded { max: 2 }));
        assert_eq!(pool.capacity(), 2);
        pool.remove(a).mass
    });
    assert_eq!(mass, 1.5);
}

#[test]
fn both_generated_pools_iterate_by_reference_as_their_core_pools_do() {
    ParticlePool::with(|mut pool| {
        let h = pool.insert(Particle { mass: 1.0, ..Particle::default() });
        let k = pool.insert_keyed(Particle { mass: 2.0, ..Particle::default() });
        for (_, particle) in &mut pool {
            particle.mass *= 10.0;
        }
        let mut seen: Vec<f32> = (&pool).into_iter().map(|(_, p)| p.mass).collect();
        seen.sort_by(f32::total_cmp);
        assert_eq!(seen, [10.0, 20.0]);
        assert!((&pool).into_iter().any(|(key, _)| key == k));
        pool.remove(h);
    });
    BodyPool::with(|mut pool| {
        let k = pool.insert_keyed(Body { mass: 3.0, ..Body::default() });
        for (_, body) in &mut pool {
            *body.mass += 1.0;
        }
        let rows: Vec<_> = (&pool).into_iter().map(|(key, body)| (key, *body.mass)).collect();
        assert_eq!(rows, [(k, 4.0)]);
    });
}

#[test]
fn soa_pool_stores_columns_and_gathers_values_back() {
    BodyPool::with(|mut pool| {
        let a = pool.insert(Body { pos: [1.0; 3], vel: [0.5; 3], mass: 1.0 });
        let b = arena_new!(pool, Body { pos: [2.0; 3], vel: [0.0; 3], mass: 2.0 });
        let c = arena_new!(pool, Body);
        assert_eq!(pool.len(), 3);
        assert_eq!(pool.mass(&b), &2.0);
        *pool.mass_mut(&c) = 3.0;
        assert_eq!(pool.mass_column(), &[1.0, 2.0, 3.0]);
        for (p, v) in pool.pos_column_mut().iter_mut().zip([[1.0_f32; 3]; 3]) {
            p[0] += v[0];
        }
        assert_eq!(pool.pos(&a)[0], 2.0);

        // Removing `a` moves the last row (c) into row 0; handles still find their values.
        let key_c = pool.key(&c);
        let removed = pool.remove(a);
        assert_eq!(removed, Body { pos: [2.0, 1.0, 1.0], vel: [0.5; 3], mass: 1.0 });
        assert_eq!(pool.rows().row(&c), 0);
        assert_eq!(pool.key_at_row(0), Some(key_c));
        assert_eq!(*pool.mass(&c), 3.0);
        assert_eq!(*pool.mass(&b), 2.0);
        assert_eq!(pool.mass_column(), &[3.0, 2.0]);
        assert_eq!(pool.remove(b).mass, 2.0);
        assert_eq!(pool.remove(c).mass, 3.0);
        assert!(pool.is_empty());
    });
}

#[test]
fn soa_keys_are_checked_and_do_not_free_owned_rows() {
    BodyPool::with_capacity(4, |mut pool| {
        let k = pool.insert_keyed(Body { mass: 1.0, ..Body::default() });
        let h = pool.insert(Body { mass: 2.0, ..Body::default() });
        let kh = pool.key(&h);
        assert_eq!(pool.remove_key(kh), None, "a handle owns that row");
        assert!(pool.contains_key(k));
        assert_eq!(pool.remove_key(k).map(|b| b.mass), Some(1.0));
        assert_eq!(pool.remove_key(k), None);
        assert!(!pool.contains_key(k));
        let k2 = pool.into_key(h);
        let h2 = pool.take_handle(k2).expect("live and unowned");
        assert_eq!(pool.remove(h2).mass, 2.0);
        let k3 = pool.try_insert_keyed(Body::default()).unwrap();
        let h3 = pool.try_insert(Body::default()).unwrap();
        pool.reserve(10);
        assert_eq!(pool.len(), 2);
        assert!(format!("{pool:?}").contains("len: 2"));
        drop((k3, h3));
    });
}

#[test]
fn soa_drops_every_field_exactly_once() {
    #[derive(ArenaAlloc)]
    #[arena(soa)]
    struct Pair<'c> {
        left: Counted<'c>,
        right: Counted<'c>,
    }
    let drops = Cell::new(0);
    PairPool::with(|mut pool| {
        let mut handles = Vec::new();
        for _ in 0..5 {
            handles.push(pool.insert(Pair { left: Counted(&drops), right: Counted(&drops) }));
        }
        let gone = pool.remove(handles.pop().unwrap());
        drop(gone);
        assert_eq!(drops.get(), 2);
        for _ in 0..5 {
            pool.insert_keyed(Pair { left: Counted(&drops), right: Counted(&drops) });
        }
        // 4 handles' and 5 keys' values are still in the pool: dropped with it.
        drop(handles);
    });
    assert_eq!(drops.get(), 20);
}

struct Counted<'c>(&'c Cell<usize>);
impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

/// A singly linked list whose nodes hold keys of their own pool: the brand lifetime in
/// the struct.
#[derive(ArenaAlloc)]
#[arena(brand = 'id)]
struct Node<'id, T> {
    value: T,
    next: Option<NodeKey<'id>>,
}

#[test]
fn brand_lifetime_makes_linked_structures() {
    let sum = NodePool::<'_, u64>::with(|mut pool| {
        let mut head = None;
        for value in 1..=10 {
            head = Some(pool.insert_keyed(Node { value, next: head }));
        }
        let (mut sum, mut at) = (0, head);
        while let Some(key) = at {
            let node = pool.get_key(key).unwrap();
            sum += node.value;
            at = node.next;
        }
        sum
    });
    assert_eq!(sum, 55);
}

/// The same in struct-of-arrays form: the `next` column holds keys of the pool itself.
#[derive(ArenaAlloc)]
#[arena(soa, brand = 'id)]
struct Link<'id> {
    value: u32,
    next: Option<LinkKey<'id>>,
}

#[test]
fn brand_lifetime_works_in_soa_too() {
    let sum = LinkPool::with(|mut pool| {
        let a = pool.insert_keyed(Link { value: 1, next: None });
        let b = pool.insert_keyed(Link { value: 2, next: Some(a) });
        let mut sum = 0;
        let mut at = Some(b);
        while let Some(k) = at {
            let row = pool.rows().key_row(k).unwrap();
            sum += pool.value_column()[row];
            at = pool.next_column()[row];
        }
        sum
    });
    assert_eq!(sum, 3);
}

#[derive(ArenaAlloc)]
struct Wrapper<'a, T: Debug>(&'a T)
where
    T: Clone;

#[derive(ArenaAlloc, Default, Debug, PartialEq)]
struct Unit;

#[derive(ArenaAlloc, Debug, PartialEq)]
#[arena(soa, pool = Grid)]
struct Cells<T: Copy, const N: usize>
where
    T: Default,
{
    cells: [T; N],
    count: usize,
}

#[test]
fn generics_lifetimes_where_clauses_tuple_and_unit_structs() {
    is_arena_alloc::<Wrapper<'static, String>>();
    let text = String::from("w");
    let n = WrapperPool::with(|mut pool| {
        let h = arena_new!(pool, Wrapper(&text));
        pool.remove(h).0.len()
    });
    assert_eq!(n, 1);

    UnitPool::with(|mut pool| {
        let h = arena_new!(pool, Unit);
        assert_eq!(pool.remove(h), Unit);
    });

    Grid::<'_, u8, 4>::with(|mut grid| {
        let h = grid.insert(Cells { cells: [1; 4], count: 4 });
        assert_eq!(grid.cells(&h), &[1; 4]);
        *grid.count_mut(&h) += 1;
        assert_eq!(grid.remove(h), Cells { cells: [1; 4], count: 5 });
    });
}

#[test]
fn arena_new_on_scopes_all_forms() {
    let blocks = BlockPool::new();
    let scope = blocks.scope();
    let p = arena_new!(scope, Particle);
    assert_eq!(*p, Particle::default());
    let q = arena_new!(scope, Particle { mass: 4.0, ..Particle::default() });
    assert_eq!(q.mass, 4.0);
    let s = arena_new!(scope, String::from("built in place"));
    assert_eq!(s, "built in place");
    let v = arena_new!(scope, Vec::<u8>);
    assert!(v.is_empty());
    let path = arena_new!(scope, std::string::String);
    assert!(path.is_empty());
    let n = 3;
    let row = arena_new!(scope, [Particle; n]);
    assert_eq!(row.len(), 3);
    let fixed = arena_new!(scope, [u64; 4]);
    assert_eq!(fixed, &[0; 4]);
    let x = 7;
    let value = arena_new!(scope, { x });
    assert_eq!(*value, 7);

    let arena = arena_kit::Arena::new();
    let a = arena_new!(arena, Particle { mass: 1.0, ..Particle::default() });
    let by_ref = &arena;
    let b = arena_new!(by_ref, Unit);
    assert_eq!((a.mass, &*b), (1.0, &Unit));
}

#[test]
fn try_arena_new_hands_the_value_back() {
    let blocks = BlockPool::new();
    let scope = blocks.scope();
    scope.set_limit(Some(0));
    let err = try_arena_new!(scope, Particle { mass: 9.0, ..Particle::default() }).unwrap_err();
    assert!(matches!(err.error(), AllocError::LimitReached { .. }));
    assert_eq!(err.into_value().mass, 9.0);
    assert!(try_arena_new!(scope, Particle).is_err());
    assert!(try_arena_new!(scope, [u8; 16]).is_err());
    scope.set_limit(None);
    assert_eq!(try_arena_new!(scope, [u8; 16]).unwrap().len(), 16);
    assert_eq!(try_arena_new!(scope, Vec::<u8>).unwrap().len(), 0);

    Pool::with(|mut pool| {
        let h = try_arena_new!(pool, 5_u32).unwrap();
        assert_eq!(pool.remove(h), 5);
    });
}

/// A session table of a fixed size, chosen on the struct.
#[derive(ArenaAlloc, Debug, PartialEq)]
#[arena(capacity = SESSIONS)]
struct Session {
    id: u32,
}

const SESSIONS: usize = 3;

#[test]
fn a_fixed_capacity_gives_a_storage_type_and_a_pool_on_the_stack() {
    const { assert!(SessionStorage::CAPACITY == SESSIONS) };
    let ids = SessionPool::with_fixed(|mut pool| {
        assert_eq!(pool.capacity(), SESSIONS);
        let keys: Vec<SessionKey<'_>> =
            (0..3).map(|id| pool.insert_keyed(Session { id })).collect();
        let full = try_arena_new!(pool, Session { id: 9 }).unwrap_err();
        assert!(matches!(full.error(), AllocError::CapacityExceeded { max: SESSIONS }));
        assert_eq!(full.into_value(), Session { id: 9 });
        assert_eq!(pool.remove_key(keys[1]), Some(Session { id: 1 }));
        assert!(pool.get_key(keys[1]).is_none(), "a removed session's key is stale");
        let mut ids: Vec<u32> = pool.iter().map(|(_, s)| s.id).collect();
        ids.sort_unstable();
        ids
    });
    assert_eq!(ids, [0, 2]);
    // The same storage type, owned by the caller: a pool in a struct between calls.
    let mut storage = SessionStorage::new();
    let mut table: arena_kit::pool::FixedKeyPool<'_, Session> =
        arena_kit::pool::FixedKeyPool::in_storage(&mut storage);
    let key = table.insert(Session { id: 7 });
    assert_eq!(table.get(key).map(|s| s.id), Some(7));
    // And through the pool's own `with_storage`, which takes any `PoolStorage` of `Session`.
    drop(table);
    SessionPool::with_storage(&mut storage, |pool| assert!(pool.is_empty()));
}

/// A generic struct: the alias takes its parameters, the capacity one of them.
#[derive(ArenaAlloc)]
#[arena(capacity = N)]
struct Ring<T: Copy, const N: usize> {
    items: [T; N],
}

#[test]
fn a_fixed_capacity_can_be_a_const_parameter_of_the_struct() {
    assert_eq!(RingStorage::<u8, 2>::CAPACITY, 2);
    RingPool::<u16, 4>::with_fixed(|mut pool| {
        for i in 0..4 {
            let _ring = pool.insert_keyed(Ring { items: [i; 4] });
        }
        assert!(pool.try_insert(Ring { items: [9; 4] }).is_err());
        assert_eq!(pool.iter().map(|(_, r)| r.items[3]).sum::<u16>(), 6);
    });
}
