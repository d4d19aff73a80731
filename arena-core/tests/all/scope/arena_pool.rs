//! `ArenaPool` under real threads: values made in lent arenas, sent back and checked after
//! the joins; every destructor exactly once; memory reused after `reset`; a forgotten
//! guard and a panicking task leave the pool sound.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::mpsc;

use arena_kit::{ArenaPool, scope::PooledArena};

use crate::common::scaled;

const fn assert_send_sync<T: Send + Sync>() {}
const fn assert_send<T: Send>() {}
const _: () = assert_send_sync::<ArenaPool<'static>>();
// The guard moves with its task; `!Sync` is checked by tests/ui/arena_pool_guard_is_not_sync.rs.
const _: () = assert_send::<PooledArena<'static, 'static>>();

/// Counts its drops in a borrowed atomic: `Send`, so it may go into a pooled arena, and
/// borrowed rather than in an `Arc`, so a value leaked on purpose leaks no heap memory.
#[derive(Debug)]
struct Counted<'c> {
    id: usize,
    drops: &'c AtomicUsize,
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn four_threads_send_their_values_back_and_they_outlive_every_guard() {
    let pool = ArenaPool::new();
    let per_thread = scaled(200);
    let (tx, rx) = mpsc::channel::<(usize, &String, &[u64], &str)>();
    std::thread::scope(|s| {
        for t in 0..4 {
            let (pool, tx) = (&pool, tx.clone());
            s.spawn(move || {
                for i in 0..per_thread {
                    // A guard per item: arenas go back and forth between the threads.
                    let arena = pool.get();
                    let id = t * per_thread + i;
                    let name: &String = arena.alloc(format!("value {id}"));
                    let words = arena.alloc_slice_fill_with(3, |k| (id * 3 + k) as u64);
                    let tag = arena.alloc_str(&id.to_string());
                    drop(arena);
                    tx.send((id, name, words, tag)).unwrap();
                }
            });
        }
    });
    drop(tx);
    let mut got: Vec<_> = rx.into_iter().collect();
    got.sort_unstable_by_key(|&(id, ..)| id);
    assert_eq!(got.len(), 4 * per_thread);
    for (expected, &(id, name, words, tag)) in got.iter().enumerate() {
        assert_eq!(id, expected);
        assert_eq!(*name, format!("value {id}"));
        assert_eq!(words, [id * 3, id * 3 + 1, id * 3 + 2].map(|w| w as u64));
        assert_eq!(tag, id.to_string());
    }
    let stats = pool.stats();
    assert!((1..=4).contains(&stats.arenas), "at most one arena per thread: {stats:?}");
    assert_eq!(stats.idle_arenas, stats.arenas, "every guard gave its arena back");
}

#[test]
fn a_guard_moves_to_another_thread_and_its_values_come_back() {
    let pool = ArenaPool::new();
    let arena = pool.get();
    let first = arena.alloc(String::from("made here"));
    let (second, arena) = std::thread::scope(|s| {
        s.spawn(move || {
            let second: &mut Vec<u8> = arena.alloc(vec![1, 2, 3]);
            (second, arena)
        })
        .join()
        .unwrap()
    });
    second.push(4);
    assert_eq!((first.as_str(), second.as_slice()), ("made here", &[1, 2, 3, 4][..]));
    drop(arena);
    assert_eq!(pool.stats().arenas, 1);
}

#[test]
fn every_destructor_runs_exactly_once_at_reset_and_the_pool_stays_usable() {
    let drops = AtomicUsize::new(0);
    let mut pool = ArenaPool::new();
    let per_thread = scaled(100);
    for round in 1..=2 {
        let seen = std::thread::scope(|s| {
            let tasks: Vec<_> = (0..4)
                .map(|t| {
                    let (pool, drops) = (&pool, &drops);
                    s.spawn(move || {
                        let arena = pool.get();
                        let mut ids = Vec::new();
                        for i in 0..per_thread {
                            let c = arena.alloc(Counted { id: t * per_thread + i, drops });
                            ids.push(c.id);
                        }
                        let slice = arena.alloc_from_iter((0..3).map(|k| Counted { id: k, drops }));
                        ids.len() + slice.len()
                    })
                })
                .collect();
            tasks.into_iter().map(|task| task.join().unwrap()).sum::<usize>()
        });
        assert_eq!(seen, 4 * (per_thread + 3));
        assert_eq!(drops.load(Ordering::Relaxed), (round - 1) * seen, "nothing dropped early");
        pool.reset();
        assert_eq!(drops.load(Ordering::Relaxed), round * seen, "each dropped once by reset");
        assert_eq!(pool.stats().allocated_bytes, 0);
    }
    drop(pool);
    assert_eq!(drops.load(Ordering::Relaxed), 2 * 4 * (per_thread + 3), "none dropped twice");
}

#[test]
fn every_destructor_runs_exactly_once_when_the_pool_drops() {
    let drops = AtomicUsize::new(0);
    {
        let pool = ArenaPool::new();
        std::thread::scope(|s| {
            for t in 0..4 {
                let (pool, drops) = (&pool, &drops);
                s.spawn(move || {
                    for i in 0..scaled(50) {
                        let arena = pool.get();
                        arena.alloc(Counted { id: t * 1000 + i, drops });
                        arena.alloc_with(|| Counted { id: t * 1000 + i, drops });
                    }
                });
            }
        });
        assert_eq!(drops.load(Ordering::Relaxed), 0, "guards drop nothing");
    }
    assert_eq!(drops.load(Ordering::Relaxed), 4 * 2 * scaled(50));
}

#[test]
fn reset_reuses_the_arenas_blocks_without_asking_the_system_again() {
    let mut pool = ArenaPool::new();
    let fill = |pool: &ArenaPool<'_>| -> Vec<usize> {
        // Two arenas lent at once, each holding less than its first block.
        let (a, b) = (pool.get(), pool.get());
        let xs = a.alloc_slice_copy(&[1_u64; 32]);
        let ys = b.alloc_slice_fill_with(16, |i| i.to_string());
        vec![xs.as_ptr() as usize, ys.as_ptr() as usize]
    };
    let first = fill(&pool);
    let before = pool.stats();
    assert_eq!((before.arenas, before.idle_arenas, before.blocks), (2, 2, 2));
    for _ in 0..3 {
        pool.reset();
        let again = fill(&pool);
        let after = pool.stats();
        assert_eq!((after.arenas, after.blocks), (2, 2), "no new arena, no new block");
        assert_eq!(after.reserved_bytes, before.reserved_bytes);
        let (mut a, mut b) = (first.clone(), again);
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "the same bytes are handed out again");
    }
}

#[test]
fn copy_nodes_may_link_to_each_other_and_cross_threads() {
    #[derive(Clone, Copy)]
    struct Node<'a> {
        value: u32,
        next: Option<&'a Node<'a>>,
    }
    let pool = ArenaPool::new();
    let heads: Vec<&Node<'_>> = std::thread::scope(|s| {
        let tasks: Vec<_> = (0..2)
            .map(|t| {
                let pool = &pool;
                s.spawn(move || {
                    let arena = pool.get();
                    let mut head: Option<&Node<'_>> = None;
                    for value in 0..10 {
                        head = Some(arena.alloc_copy(Node { value: t * 100 + value, next: head }));
                    }
                    head.unwrap()
                })
            })
            .collect();
        tasks.into_iter().map(|task| task.join().unwrap()).collect()
    });
    for (t, head) in heads.into_iter().enumerate() {
        let mut values = Vec::new();
        let mut node = Some(head);
        while let Some(n) = node {
            values.push(n.value);
            node = n.next;
        }
        let t = t as u32;
        assert_eq!(values, (0..10).rev().map(|v| t * 100 + v).collect::<Vec<_>>());
    }
}

#[test]
fn zero_sized_and_over_aligned_values_keep_their_alignment_across_threads() {
    #[repr(align(64))]
    struct Aligned(u64);
    static ZST_DROPS: AtomicUsize = AtomicUsize::new(0);
    struct Zst;
    impl Drop for Zst {
        fn drop(&mut self) {
            ZST_DROPS.fetch_add(1, Ordering::Relaxed);
        }
    }
    let n = scaled(40);
    let mut pool = ArenaPool::new();
    let all: Vec<&Aligned> = std::thread::scope(|s| {
        let tasks: Vec<_> = (0..2_u64)
            .map(|t| {
                let pool = &pool;
                s.spawn(move || {
                    let arena = pool.get();
                    let mut mine = Vec::new();
                    for i in 0..n as u64 {
                        arena.alloc(Zst);
                        arena.alloc_copy(());
                        let a: &Aligned = arena.alloc(Aligned(t * 1000 + i));
                        mine.push(a);
                    }
                    let zsts = arena.alloc_from_iter((0..n).map(|_| Zst));
                    assert_eq!(zsts.len(), n);
                    mine
                })
            })
            .collect();
        tasks.into_iter().flat_map(|task| task.join().unwrap()).collect()
    });
    assert_eq!(all.len(), 2 * n);
    for (k, a) in all.iter().enumerate() {
        assert_eq!(ptr::from_ref(*a) as usize % 64, 0, "over-aligned value misplaced");
        assert_eq!(a.0, (k / n) as u64 * 1000 + (k % n) as u64);
    }
    drop(all);
    assert_eq!(ZST_DROPS.load(Ordering::Relaxed), 0);
    pool.reset();
    assert_eq!(ZST_DROPS.load(Ordering::Relaxed), 2 * 2 * n, "each zero-sized value dropped once");
}

#[test]
fn try_alloc_moves_the_value_in_and_keeps_it_past_the_guard() {
    let pool = ArenaPool::new();
    let s = pool.get().try_alloc(String::from("kept")).unwrap();
    s.push('!');
    assert_eq!(s, "kept!");
    let stats = pool.stats();
    assert_eq!((stats.arenas, stats.idle_arenas), (1, 1));
    assert!(stats.allocated_bytes >= size_of::<String>());
}

/// Where `hostile_a_forgotten_guard_leaks_its_arena_and_keeps_its_values_valid` parks the
/// guard it forgets. Memory a static still reaches is not lost, so Miri's and valgrind's
/// leak checks accept this deliberate leak.
static FORGOTTEN_GUARD: AtomicPtr<()> = AtomicPtr::new(ptr::null_mut());

#[test]
fn hostile_a_forgotten_guard_leaks_its_arena_and_keeps_its_values_valid() {
    let drops = AtomicUsize::new(0);
    {
        let mut pool = ArenaPool::new();
        {
            let arena = pool.get();
            let kept = arena.alloc(Counted { id: 1, drops: &drops });
            let words = arena.alloc_slice_fill_with(200, |i| i as u64);
            // Forgotten as by `mem::forget`: the arena never goes back to the pool.
            let forgotten: &mut PooledArena<'_, '_> = Box::leak(Box::new(arena));
            FORGOTTEN_GUARD.store(ptr::from_mut(forgotten).cast(), Ordering::Relaxed);
            // Other arenas come and go over the same pool; the values stay intact.
            for round in 0..3_u64 {
                let other = pool.get();
                other.alloc_slice_fill_with(200, |_| round);
                other.alloc(Counted { id: 2, drops: &drops });
            }
            assert_eq!(kept.id, 1);
            assert!(words.iter().enumerate().all(|(i, &w)| w == i as u64));
        }
        let stats = pool.stats();
        assert_eq!((stats.arenas, stats.idle_arenas), (2, 1), "a new arena took its place");
        pool.reset();
        assert_eq!(drops.load(Ordering::Relaxed), 3, "only the idle arena's values dropped");
    }
    assert_eq!(drops.load(Ordering::Relaxed), 3, "the forgotten value is leaked, never dropped");
}

#[test]
fn hostile_a_task_that_panics_gives_its_arena_back_and_the_pool_stays_usable() {
    let drops = AtomicUsize::new(0);
    let mut pool = ArenaPool::new();
    let kept: Vec<&Counted<'_>> = std::thread::scope(|s| {
        let survivor = s.spawn(|| {
            let arena = pool.get();
            &*arena.alloc(Counted { id: 7, drops: &drops })
        });
        let doomed = s.spawn(|| {
            catch_unwind(AssertUnwindSafe(|| {
                let arena = pool.get();
                arena.alloc(Counted { id: 8, drops: &drops });
                // The third value panics half-built: the two made are dropped at once.
                arena.alloc_slice_fill_with(5, |i| {
                    assert!(i < 2, "task fails on purpose");
                    Counted { id: 100 + i, drops: &drops }
                });
            }))
        });
        assert!(doomed.join().unwrap().is_err(), "the task panicked");
        vec![survivor.join().unwrap()]
    });
    assert_eq!(drops.load(Ordering::Relaxed), 2, "the half-built slice's values only");
    assert_eq!(kept[0].id, 7);
    let stats = pool.stats();
    assert_eq!(stats.idle_arenas, stats.arenas, "the panicking task's arena came back");
    let arena = pool.get();
    assert_eq!(arena.alloc_str("still usable"), "still usable");
    drop((arena, kept));
    pool.reset();
    assert_eq!(drops.load(Ordering::Relaxed), 4, "ids 7 and 8 dropped once, by reset");
}

#[test]
fn debug_shows_the_counters() {
    let pool = ArenaPool::default();
    let arena = pool.get();
    arena.alloc(1_u8);
    assert!(format!("{arena:?}").starts_with("PooledArena { stats: ScopeStats"));
    drop(arena);
    let shown = format!("{pool:?}");
    assert!(shown.contains("arenas: 1") && shown.contains("allocated_bytes: 1"), "{shown}");
}
