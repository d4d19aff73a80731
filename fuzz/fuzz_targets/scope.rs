//! `Scope` and `Arena` against a model of what each scope holds: allocations of arbitrary
//! sizes and alignments (checked byte for byte after every step, at every level, and
//! never overlapping), values with destructors and `on_exit` callbacks (each run exactly
//! once at the scope's end or reset, newest first), child scopes, limits on scopes and
//! on the pool (a failed `try_` hands its value back intact), and the pool's counters
//! against the scopes'.
#![no_main]

use core::alloc::Layout;

use arbitrary::Arbitrary;
use arena_kit::{AllocError, Arena, BlockPool, Scope};
use arena_kit_fuzz::{Tracked, assert_disjoint, check, fill, log_event, start};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Root {
    Pool { block: Option<u16> },
    Arena,
    ArenaWithCapacity(u16),
}

#[derive(Arbitrary, Debug)]
struct Input {
    root: Root,
    ops: Vec<Op>,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Op {
    Bytes {
        size: u16,
        align_log: u8,
        fallible: bool,
    },
    Value {
        len: u8,
        fallible: bool,
    },
    AllocWith(u8),
    TryAllocWith(u8),
    Copy(u64),
    SliceCopy(u8),
    SliceFillWith {
        len: u8,
        fallible: bool,
    },
    FromIter {
        len: u8,
        exact: bool,
    },
    TryFromIter(u8),
    Str(u8),
    OnExit,
    TryOnExit,
    Child,
    EndChild,
    Reset,
    SetLimit(Option<u16>),
    PoolLimit(Option<u16>),
    PoolMaxFree(u8),
    PoolTrim,
    PoolReserve(u8),
    /// Ends the root scope and starts another on the same pool.
    NewRoot,
}

/// What one scope holds, in the model.
#[derive(Default)]
struct Level {
    /// Raw allocations: address, length, fill seed.
    bytes: Vec<(usize, usize, u64)>,
    /// Values with destructors, by address.
    values: Vec<(*const Tracked, u64)>,
    /// Ids of destructors and callbacks in registration order, one group per
    /// registration (a slice's elements drop front to back).
    order: Vec<Vec<u64>>,
    /// Whether a limit is set on this scope.
    limited: bool,
}

struct Run<'a> {
    pool: Option<&'a BlockPool>,
    pool_limited: bool,
    levels: Vec<Level>,
    next_id: u64,
    ops: std::vec::IntoIter<Op>,
}

impl Run<'_> {
    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    fn top(&mut self) -> &mut Level {
        self.levels.last_mut().expect("a level per scope")
    }

    /// Whether a failure is allowed: some limit applies to the current scope.
    fn may_fail(&self) -> bool {
        self.pool_limited || self.levels.last().is_some_and(|l| l.limited)
    }

    fn failed(&self, e: AllocError) {
        assert!(self.may_fail(), "a try_ failed with no limit set: {e:?}");
        assert!(matches!(e, AllocError::LimitReached { .. }), "unexpected error {e:?}");
    }

    fn value(&mut self, len: u8) -> Tracked {
        let id = self.id();
        Tracked::new(id, len)
    }

    fn check(&self) {
        let mut ranges = Vec::new();
        for level in &self.levels {
            for &(addr, len, seed) in &level.bytes {
                // SAFETY: a live allocation of `len` bytes of a live scope (the model drops
                // a level's allocations when its scope ends or resets).
                unsafe { check(addr as *const u8, len, seed, "allocation") };
                ranges.push((addr, len));
            }
            for &(ptr, id) in &level.values {
                // SAFETY: a live value of a live scope, not borrowed elsewhere now.
                assert_eq!(unsafe { (*ptr).id() }, id);
                ranges.push((ptr.addr(), size_of::<Tracked>()));
            }
        }
        assert_disjoint(&mut ranges, "two live allocations overlap");
        let values: usize = self.levels.iter().map(|l| l.values.len()).sum();
        assert_eq!(Tracked::live(), values, "a value dropped early or twice");
    }
}

/// Every allocation of a scope's values, in the model; returns the level's bytes.
fn held(level: &Level) -> usize {
    level.bytes.iter().map(|b| b.1).sum::<usize>() + level.values.len() * size_of::<Tracked>()
}

/// Runs ops on `scope` (level `run.levels.len() - 1`) until its `EndChild` or the end.
/// `outer` gives the blocks and bytes the enclosing scopes hold.
fn run_scope<'p>(
    owner: &mut impl Resettable<'p>,
    run: &mut Run<'_>,
    outer: &dyn Fn() -> (usize, usize),
) {
    while let Some(op) = run.ops.next() {
        if let Op::Reset = op {
            let level = run.levels.pop().unwrap();
            let limited = level.limited;
            let _ = Tracked::take_drops();
            owner.reset();
            check_ended(level);
            // A reset keeps the scope's limit.
            run.levels.push(Level { limited, ..Level::default() });
            let s = owner.scope().stats();
            assert_eq!(s.allocated_bytes, 0, "a reset scope holds nothing");
            assert!(s.blocks <= 1, "a reset scope keeps at most its current block");
            run.check();
            continue;
        }
        let scope = owner.scope();
        let reserved_before = scope.stats().reserved_bytes;
        match op {
            Op::EndChild if run.levels.len() > 1 => return,
            Op::NewRoot if run.levels.len() == 1 && run.pool.is_some() => return,
            Op::EndChild | Op::NewRoot => {}
            Op::Child if run.levels.len() < 8 => {
                let mut child = scope.scope();
                run.levels.push(Level::default());
                let here = || {
                    let (blocks, bytes) = outer();
                    let s = scope.stats();
                    (blocks + s.blocks, bytes + s.reserved_bytes)
                };
                run_scope(&mut child, run, &here);
                let level = run.levels.pop().unwrap();
                end(child, level);
            }
            Op::Child => {}
            Op::Reset => unreachable!("handled above"),
            Op::Bytes { size, align_log, fallible } => {
                let size = usize::from(size) % 20_000;
                let layout = Layout::from_size_align(size, 1 << (align_log % 13)).unwrap();
                let ptr = if fallible {
                    match scope.try_alloc_layout(layout) {
                        Ok(p) => p,
                        Err(e) => {
                            run.failed(e);
                            continue;
                        }
                    }
                } else if run.may_fail() {
                    continue;
                } else {
                    scope.alloc_layout(layout)
                };
                assert!(ptr.as_ptr().addr().is_multiple_of(layout.align()), "misaligned");
                let seed = run.id();
                // SAFETY: a fresh allocation of `size` bytes.
                unsafe { fill(ptr.as_ptr(), size, seed) };
                run.top().bytes.push((ptr.as_ptr().addr(), size, seed));
            }
            Op::Value { len, fallible } => {
                let v = run.value(len);
                let id = v.id();
                let got = if fallible {
                    match scope.try_alloc(v) {
                        Ok(r) => r,
                        Err(e) => {
                            run.failed(e.error());
                            assert_eq!(e.into_value().id(), id, "the value is handed back");
                            let _ = Tracked::take_drops();
                            continue;
                        }
                    }
                } else if run.may_fail() {
                    drop(v);
                    let _ = Tracked::take_drops();
                    continue;
                } else {
                    scope.alloc(v)
                };
                assert_eq!(got.id(), id);
                let level = run.top();
                level.values.push((&raw const *got, id));
                level.order.push(vec![id]);
            }
            Op::AllocWith(len) if !run.may_fail() => {
                let id = run.id();
                let got = scope.alloc_with(|| Tracked::new(id, len));
                let level = run.top();
                level.values.push((&raw const *got, id));
                level.order.push(vec![id]);
            }
            Op::AllocWith(_) => {}
            Op::TryAllocWith(len) => {
                let id = run.id();
                match scope.try_alloc_with(move || Tracked::new(id, len)) {
                    Ok(got) => {
                        let level = run.top();
                        level.values.push((&raw const *got, id));
                        level.order.push(vec![id]);
                    }
                    Err(e) => {
                        run.failed(e.error());
                        let f = e.into_value();
                        let v = f();
                        assert_eq!(v.id(), id, "the closure is handed back, uncalled");
                        drop(v);
                        let _ = Tracked::take_drops();
                    }
                }
            }
            Op::Copy(x) => {
                match scope.try_alloc_copy(x) {
                    Ok(r) => {
                        assert_eq!(*r, x);
                        let seed = run.id();
                        let bytes = r as *mut u64 as *mut u8;
                        // SAFETY: the value's 8 bytes, ours.
                        unsafe { fill(bytes, 8, seed) };
                        run.top().bytes.push((bytes.addr(), 8, seed));
                    }
                    Err(e) => {
                        run.failed(e.error());
                        assert_eq!(e.into_value(), x);
                    }
                }
            }
            Op::SliceCopy(len) => {
                let seed = run.id();
                let src: Vec<u8> =
                    (0..usize::from(len)).map(|i| arena_kit_fuzz::pattern(seed, i)).collect();
                match scope.try_alloc_slice_copy(&src) {
                    Ok(s) => {
                        assert_eq!(s, &src[..]);
                        run.top().bytes.push((s.as_ptr().addr(), s.len(), seed));
                    }
                    Err(e) => run.failed(e),
                }
            }
            Op::Str(len) => {
                let s: String = (0..len).map(|i| char::from(b'a' + i % 26)).collect();
                if run.may_fail() {
                    if let Ok(got) = scope.try_alloc_str(&s) {
                        assert_eq!(&*got, s.as_str());
                    }
                } else {
                    assert_eq!(&*scope.alloc_str(&s), s.as_str());
                }
            }
            Op::SliceFillWith { len, fallible } => {
                let first = run.next_id + 1;
                let n = u64::from(len);
                let make = |i: usize| Tracked::new(first + i as u64, 1);
                let slice = if fallible {
                    match scope.try_alloc_slice_fill_with(usize::from(len), make) {
                        Ok(s) => s,
                        Err(e) => {
                            run.failed(e.error());
                            continue;
                        }
                    }
                } else if run.may_fail() {
                    continue;
                } else {
                    scope.alloc_slice_fill_with(usize::from(len), make)
                };
                run.next_id += n;
                record_slice(run.top(), slice, first);
            }
            Op::FromIter { len, exact } if !run.may_fail() => {
                let first = run.next_id + 1;
                run.next_id += u64::from(len);
                let values = (first..first + u64::from(len)).map(|id| Tracked::new(id, 2));
                let slice = if exact {
                    scope.alloc_from_iter(values)
                } else {
                    // A size hint that is not exact: gathered first.
                    scope.alloc_from_iter(values.filter(|_| true))
                };
                assert_eq!(slice.len(), usize::from(len));
                record_slice(run.top(), slice, first);
            }
            Op::FromIter { .. } => {}
            Op::TryFromIter(len) => {
                let first = run.next_id + 1;
                let ids: Vec<u64> = (first..first + u64::from(len)).collect();
                let values: Vec<Tracked> = ids.iter().map(|&id| Tracked::new(id, 1)).collect();
                run.next_id += u64::from(len);
                match scope.try_alloc_from_iter(values) {
                    Ok(slice) => record_slice(run.top(), slice, first),
                    Err(e) => {
                        run.failed(e.error());
                        let back: Vec<u64> = e.into_value().map(|v| v.id()).collect();
                        assert_eq!(back, ids, "the iterator is handed back untouched");
                        let _ = Tracked::take_drops();
                    }
                }
            }
            Op::OnExit if !run.may_fail() => {
                let id = run.id();
                scope.on_exit(move || log_event(id));
                run.top().order.push(vec![id]);
            }
            Op::OnExit => {}
            Op::TryOnExit => {
                let id = run.id();
                match scope.try_on_exit(move || log_event(id)) {
                    Ok(()) => run.top().order.push(vec![id]),
                    Err(e) => {
                        run.failed(e.error());
                        let _ = e.into_value();
                    }
                }
            }
            Op::SetLimit(limit) => {
                let limit = limit.map(|l| usize::from(l) * 8);
                scope.set_limit(limit);
                assert_eq!(scope.limit(), limit);
                run.top().limited = limit.is_some();
            }
            Op::PoolLimit(limit) => {
                if let Some(pool) = run.pool {
                    pool.set_limit(limit.map(|l| usize::from(l) * 8));
                    run.pool_limited = limit.is_some();
                }
            }
            Op::PoolMaxFree(n) => {
                if let Some(pool) = run.pool {
                    pool.set_max_free(usize::from(n % 8));
                    assert!(pool.stats().cached_blocks <= usize::from(n % 8));
                }
            }
            Op::PoolTrim => {
                if let Some(pool) = run.pool {
                    pool.trim();
                    assert_eq!(pool.stats().cached_blocks, 0);
                }
            }
            Op::PoolReserve(n) => {
                if let Some(pool) = run.pool {
                    let before = pool.stats().cached_blocks;
                    match pool.reserve(usize::from(n % 4)) {
                        Ok(()) => {
                            assert!(pool.stats().cached_blocks >= before.min(pool.max_free()))
                        }
                        Err(e) => run.failed(e),
                    }
                }
            }
        }
        // No block is taken past a limit (a limit set below what is held keeps it).
        let s = scope.stats();
        if let Some(limit) = scope.limit() {
            assert!(s.reserved_bytes <= limit.max(reserved_before), "scope limit passed");
        }
        assert!(s.allocated_bytes <= s.reserved_bytes, "{s:?}");
        assert!(held(run.levels.last().unwrap()) <= s.allocated_bytes, "{s:?}");
        if let Some(pool) = run.pool {
            let (blocks, bytes) = outer();
            let p = pool.stats();
            assert_eq!(p.live_blocks, blocks + s.blocks, "the pool's live blocks are the scopes'");
            assert_eq!(p.live_bytes, bytes + s.reserved_bytes);
            // Never past `max_free`, the hot slot included (this target once found a
            // block given back into the empty hot slot on a full list; docs/fuzzing.md).
            assert!(p.cached_blocks <= pool.max_free(), "{p:?}");
        }
        run.check();
    }
}

fn record_slice(level: &mut Level, slice: &mut [Tracked], first: u64) {
    let mut ids = Vec::new();
    for (i, v) in slice.iter().enumerate() {
        let id = first + i as u64;
        assert_eq!(v.id(), id);
        level.values.push((&raw const *v, id));
        ids.push(id);
    }
    if !ids.is_empty() {
        level.order.push(ids);
    }
}

/// Ends a scope and checks that its destructors and callbacks ran once each, newest
/// first (a slice's elements front to back).
fn end(scope: Scope<'_>, level: Level) {
    let _ = Tracked::take_drops();
    drop(scope);
    check_ended(level);
}

fn check_ended(level: Level) {
    let expected: Vec<u64> = level.order.into_iter().rev().flatten().collect();
    assert_eq!(Tracked::take_drops(), expected, "destructors and callbacks, newest first");
}

/// A scope the ops can reset: a pool's scope, or an arena.
trait Resettable<'p> {
    fn scope(&self) -> &Scope<'p>;
    fn reset(&mut self);
}

impl<'p> Resettable<'p> for Scope<'p> {
    fn scope(&self) -> &Scope<'p> {
        self
    }
    fn reset(&mut self) {
        Scope::reset(self);
    }
}

impl<'p> Resettable<'p> for Arena<'p> {
    fn scope(&self) -> &Scope<'p> {
        self
    }
    fn reset(&mut self) {
        Arena::reset(self);
    }
}

fuzz_target!(|input: Input| {
    start();
    let pool = match input.root {
        Root::Pool { block: None } => Some(BlockPool::new()),
        Root::Pool { block: Some(b) } => Some(BlockPool::with_block_size(usize::from(b))),
        Root::Arena | Root::ArenaWithCapacity(_) => None,
    };
    let mut run = Run {
        pool: pool.as_ref(),
        pool_limited: false,
        levels: vec![Level::default()],
        next_id: 0,
        ops: input.ops.into_iter(),
    };
    match (&input.root, &pool) {
        (_, Some(pool)) => loop {
            let mut scope = pool.scope();
            run.levels = vec![Level::default()];
            run_scope(&mut scope, &mut run, &|| (0, 0));
            let level = run.levels.pop().unwrap();
            end(scope, level);
            assert_eq!(pool.stats().live_blocks, 0, "every block is back in the pool");
            assert_eq!(pool.stats().live_bytes, 0);
            if run.ops.len() == 0 {
                break;
            }
        },
        (Root::ArenaWithCapacity(bytes), None) => {
            let mut arena = Arena::with_capacity(usize::from(*bytes));
            run_scope(&mut arena, &mut run, &|| (0, 0));
            let level = run.levels.pop().unwrap();
            let _ = Tracked::take_drops();
            drop(arena);
            check_ended(level);
        }
        (_, None) => {
            let mut arena = Arena::new();
            run_scope(&mut arena, &mut run, &|| (0, 0));
            let level = run.levels.pop().unwrap();
            let _ = Tracked::take_drops();
            drop(arena);
            check_ended(level);
        }
    }
    assert_eq!(Tracked::live(), 0, "every value dropped once");
});
