//! A property test of random scope programs against a plain model: open a child, allocate
//! slices of mixed sizes and alignments (and values with destructors), close. After every
//! step every live allocation must be aligned, disjoint from every other and still hold
//! what was written; at every close exactly that scope's destructors must have run, newest
//! first, and the pool must be back to the blocks it had before the scope opened.

use std::cell::RefCell;

use arena_kit::{BlockPool, Scope};
use proptest::prelude::*;

use crate::common::Noisy;

#[derive(Debug, Clone)]
enum Op {
    /// Allocate `len` elements of element kind `kind` (see `alloc_kind`) through `how`.
    Alloc { kind: u8, len: usize, how: u8, seed: u8 },
    /// Allocate a value with a destructor.
    Droppable,
    /// Open a child scope; the following ops run in it until its `Close`.
    Open,
    /// Close the innermost scope (at the top level: close it and open a fresh one).
    Close,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0_u8..7, 0_usize..200, 0_u8..4, any::<u8>())
            .prop_map(|(kind, len, how, seed)| Op::Alloc { kind, len, how, seed }),
        2 => Just(Op::Droppable),
        1 => Just(Op::Open),
        1 => Just(Op::Close),
    ]
}

/// An element type with a recognisable value and an alignment.
trait Elem: Copy + 'static {
    fn make(seed: u8) -> Self;
    fn seed(self) -> u8;
}

macro_rules! int_elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            fn make(seed: u8) -> Self { <$t>::from(seed) }
            fn seed(self) -> u8 { u8::try_from(self).unwrap_or(u8::MAX) }
        }
    )*};
}
int_elem!(u8, u16, u32, u64);

macro_rules! aligned_elem {
    ($($name:ident = $align:literal),*) => {$(
        #[derive(Clone, Copy)]
        #[repr(C, align($align))]
        struct $name(u8);
        impl Elem for $name {
            fn make(seed: u8) -> Self { $name(seed) }
            fn seed(self) -> u8 { self.0 }
        }
    )*};
}
aligned_elem!(Al16 = 16, Al64 = 64, Al4096 = 4096);

/// What the model remembers of one allocation.
trait Record {
    fn range(&self) -> (usize, usize);
    fn verify(&self) -> Result<(), String>;
}

struct SliceRecord<'a, T: Elem> {
    slice: &'a [T],
    seed: u8,
}

impl<T: Elem> Record for SliceRecord<'_, T> {
    fn range(&self) -> (usize, usize) {
        let start = self.slice.as_ptr() as usize;
        (start, start + size_of_val(self.slice))
    }

    fn verify(&self) -> Result<(), String> {
        let start = self.slice.as_ptr() as usize;
        if start % align_of::<T>() != 0 {
            return Err(format!("{start:#x} is not aligned to {}", align_of::<T>()));
        }
        match self.slice.iter().position(|e| e.seed() != self.seed) {
            Some(i) => Err(format!("element {i} of a slice at {start:#x} was overwritten")),
            None => Ok(()),
        }
    }
}

/// Allocates `len` `T`s holding `seed`, through one of four allocation paths.
fn alloc_elems<'a, T: Elem>(
    scope: &'a Scope<'_>,
    len: usize,
    how: u8,
    seed: u8,
) -> Box<dyn Record + 'a> {
    let value = T::make(seed);
    let slice: &'a [T] = match how {
        0 => scope.alloc_slice_fill_copy(len, value),
        1 => scope.alloc_slice_fill_with(len, |_| value),
        2 => scope.alloc_from_iter((0..len).map(|_| value)),
        _ => core::slice::from_ref(scope.alloc_copy(value)),
    };
    Box::new(SliceRecord { slice, seed })
}

fn alloc_kind<'a>(
    scope: &'a Scope<'_>,
    kind: u8,
    len: usize,
    how: u8,
    seed: u8,
) -> Box<dyn Record + 'a> {
    match kind {
        0 => alloc_elems::<u8>(scope, len, how, seed),
        1 => alloc_elems::<u16>(scope, len, how, seed),
        2 => alloc_elems::<u32>(scope, len, how, seed),
        3 => alloc_elems::<u64>(scope, len, how, seed),
        4 => alloc_elems::<Al16>(scope, len, how, seed),
        5 => alloc_elems::<Al64>(scope, len / 4, how, seed),
        _ => alloc_elems::<Al4096>(scope, len / 64, how, seed),
    }
}

/// The records of one open scope, and those of its ancestors.
struct Level<'a> {
    records: Vec<Box<dyn Record + 'a>>,
    parent: Option<&'a Level<'a>>,
}

impl Level<'_> {
    fn check_all(&self) -> Result<(), TestCaseError> {
        let mut ranges = Vec::new();
        let mut level = Some(self);
        while let Some(l) = level {
            for record in &l.records {
                record.verify().map_err(TestCaseError::fail)?;
                let (start, end) = record.range();
                if end > start {
                    ranges.push((start, end));
                }
            }
            level = l.parent;
        }
        ranges.sort_unstable();
        for pair in ranges.windows(2) {
            prop_assert!(pair[0].1 <= pair[1].0, "allocations {:?} overlap", pair);
        }
        Ok(())
    }
}

struct Run<'l, I> {
    ops: I,
    log: &'l RefCell<Vec<u32>>,
    pool: &'l BlockPool,
    next_id: u32,
}

impl<'l, I: Iterator<Item = Op>> Run<'l, I> {
    /// Runs ops in `scope` until its `Close` (or the end); returns the ids of the values
    /// with destructors it allocated, and whether the program ended.
    fn level<'s>(
        &mut self,
        scope: &Scope<'s>,
        parent: Option<&Level<'_>>,
    ) -> Result<(Vec<u32>, bool), TestCaseError>
    where
        'l: 's,
    {
        let mut level = Level { records: Vec::new(), parent };
        let mut ids = Vec::new();
        loop {
            let Some(op) = self.ops.next() else {
                return Ok((ids, true));
            };
            match op {
                Op::Alloc { kind, len, how, seed } => {
                    level.records.push(alloc_kind(scope, kind, len, how, seed));
                }
                Op::Droppable => {
                    let id = self.next_id;
                    self.next_id += 1;
                    scope.alloc(Noisy { id, log: self.log });
                    ids.push(id);
                }
                Op::Open => {
                    let blocks_before = self.pool.stats().live_blocks;
                    let child = scope.scope();
                    let (child_ids, ended) = self.level(&child, Some(&level))?;
                    let logged_before = self.log.borrow().len();
                    drop(child);
                    let dropped: Vec<u32> = self.log.borrow()[logged_before..].to_vec();
                    let expected: Vec<u32> = child_ids.iter().rev().copied().collect();
                    prop_assert_eq!(
                        dropped,
                        expected,
                        "a child scope drops exactly its values, newest first"
                    );
                    prop_assert_eq!(
                        self.pool.stats().live_blocks,
                        blocks_before,
                        "a child gives back its blocks"
                    );
                    if ended {
                        return Ok((ids, true));
                    }
                }
                Op::Close => return Ok((ids, false)),
            }
            level.check_all()?;
        }
    }
}

fn run_program(ops: Vec<Op>) -> Result<(), TestCaseError> {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::with_block_size(1024);
    let mut run = Run { ops: ops.into_iter(), log: &log, pool: &pool, next_id: 0 };
    loop {
        let scope = pool.scope();
        let (ids, ended) = run.level(&scope, None)?;
        let logged_before = log.borrow().len();
        drop(scope);
        let dropped: Vec<u32> = log.borrow()[logged_before..].to_vec();
        prop_assert_eq!(dropped, ids.into_iter().rev().collect::<Vec<_>>());
        prop_assert_eq!(pool.stats().live_blocks, 0, "every block returns to the pool");
        if ended {
            return Ok(());
        }
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_config(256))]

    #[test]
    fn random_scope_programs_match_the_model(ops in prop::collection::vec(op(), 0..if cfg!(miri) { 32 } else { 80 })) {
        run_program(ops)?;
    }
}
