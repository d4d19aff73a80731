//! `AtomicPool`'s free list under loom.
//!
//! Two threads take and give back slots of a two-slot pool, each writing its own value
//! into its box and reading it back after yielding to the other: if the free list ever
//! handed one slot to both (a lost or doubled index, or an ABA swap that the tag did not
//! catch), one thread would read the other's value. At the end both slots must be free
//! again (no index lost), and exactly two can be taken.
//!
//! The second model sets up the ABA case: both slots on the free list, one thread takes
//! both and gives the first back (the head is the same index again, with another next),
//! while the other thread is between reading the head and its compare-and-swap.
//!
//! Seeded race (checked when this model was written, then removed): with the tag left
//! out of the head's changes (pop and push keeping it), the first model still passed
//! (its threads hold one slot at a time, so no ABA can happen) and the second failed:
//! the preempted pop installed, as the new head, a slot the other thread held, and the
//! final count found a slot handed out twice.

use loom::sync::Arc;
use loom::thread;

use crate::pool::AtomicPool;

/// Takes a slot, writes `value`, yields, checks it is still there, gives the slot back.
fn use_a_slot(pool: &AtomicPool<u32, 2>, value: u32) {
    let mut boxed = pool.try_alloc(value).expect("two slots, two threads: never full");
    thread::yield_now();
    assert_eq!(*boxed, value, "another thread holds this slot too");
    *boxed += 1;
}

#[test]
fn two_threads_never_hold_one_slot_and_none_is_lost() {
    let mut model = loom::model::Builder::new();
    model.preemption_bound = Some(3);
    model.check(|| {
        let pool = Arc::new(AtomicPool::<u32, 2>::new());
        let other = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || {
                use_a_slot(&pool, 10);
                use_a_slot(&pool, 11);
            })
        };
        use_a_slot(&pool, 20);
        use_a_slot(&pool, 21);
        other.join().expect("the other thread does not panic");
        let a = pool.try_alloc(1).expect("a slot came back");
        let b = pool.try_alloc(2).expect("both slots came back");
        assert!(pool.try_alloc(3).is_err(), "no slot was handed out twice");
        assert_eq!((*a, *b), (1, 2));
    });
}

#[test]
fn a_pop_preempted_across_a_pop_pop_push_does_not_install_a_held_slot() {
    let mut model = loom::model::Builder::new();
    model.preemption_bound = Some(3);
    model.check(|| {
        let pool = Arc::new(AtomicPool::<u32, 2>::new());
        // Both slots on the free list.
        drop((pool.try_alloc(0).ok(), pool.try_alloc(0).ok()));
        let other = {
            let pool = Arc::clone(&pool);
            thread::spawn(move || {
                let first = pool.try_alloc(10).ok();
                let second = pool.try_alloc(11).ok();
                drop(first); // back on the list: the head is this slot again
                thread::yield_now();
                if let Some(second) = second {
                    assert_eq!(*second, 11, "another thread holds this slot too");
                }
            })
        };
        // May find the pool full while the other thread holds both slots.
        if let Ok(mine) = pool.try_alloc(20) {
            thread::yield_now();
            assert_eq!(*mine, 20, "another thread holds this slot too");
        }
        other.join().expect("the other thread does not panic");
        let a = pool.try_alloc(1).expect("a slot came back");
        let b = pool.try_alloc(2).expect("both slots came back");
        assert!(pool.try_alloc(3).is_err(), "no slot was handed out twice");
        assert_eq!((*a, *b), (1, 2));
    });
}
