//! Allocation failure, injected: this binary's global allocator (`injector.rs`) fails
//! the n-th allocation of a case, for every n in turn until the case runs through with
//! none failing (bumpalo's `try_alloc` suite does the same with its failing allocator),
//! or every allocation above a size. Each case checks that every `try_` method returns
//! `OutOfMemory` and hands its value back untouched, that the structure stays usable and
//! its contents right after the failure, that every value is dropped once and no byte
//! leaks; `aborts.rs` checks that the panicking methods go to `handle_alloc_error` (the
//! documented out-of-memory behaviour, as `Box::new`) in a child process.
//!
//! Its own harness (`harness = false`): one thread runs the cases in turn, so injected
//! failures hit only the code under test. It answers `--list --format terse` and
//! `--exact NAME` as libtest does, so `cargo test` and `cargo nextest` both run it.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use arena_kit::AllocError;

mod aborts;
mod injector;
mod pools;
mod scope;
mod size_class;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

/// A value whose drops are counted (per thread), with an id to tell it was handed back.
/// (Made only by `new`, and compared by id: a literal `Counted(..)` would unbalance the
/// count.)
#[derive(Debug)]
pub(crate) struct Counted(pub(crate) u32);

impl Counted {
    pub(crate) fn new(id: u32) -> Self {
        LIVE.with(|l| l.set(l.get() + 1));
        Counted(id)
    }

    pub(crate) fn live() -> isize {
        LIVE.with(Cell::get)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        LIVE.with(|l| l.set(l.get() - 1));
    }
}

/// Scales a loop count down under Miri, which runs every case once per allocation it
/// makes (and about a thousand times slower).
pub(crate) fn scaled(n: u32) -> u32 {
    if cfg!(miri) { n.div_ceil(5) } else { n }
}

/// Panics unless `e` is the system allocator's refusal.
#[track_caller]
pub(crate) fn is_oom(e: AllocError) {
    assert!(matches!(e, AllocError::OutOfMemory { .. }), "expected OutOfMemory, got {e:?}");
}

/// Runs `case` with its n-th allocation failing, for n = 0, 1, ... until a run injects
/// no failure; each run must leave no byte and no value behind. Returns the number of
/// allocations the case makes (the failure points it was run with).
pub(crate) fn sweep(case: impl Fn()) -> u64 {
    // A first run unarmed: lazily made statics (thread ids, hasher keys) are made now.
    case();
    let mut n = 0;
    loop {
        let (bytes, values) = (injector::held_bytes(), Counted::live());
        injector::fail_nth(n);
        case();
        let injected = injector::disarm();
        assert_eq!(injector::held_bytes(), bytes, "bytes leaked with allocation {n} failing");
        assert_eq!(Counted::live(), values, "values leaked with allocation {n} failing");
        if injected == 0 {
            return n;
        }
        n += 1;
    }
}

/// Runs `case` with every allocation above `bytes` failing; checks nothing leaks.
pub(crate) fn above(bytes: usize, case: impl FnOnce()) {
    let (held, values) = (injector::held_bytes(), Counted::live());
    injector::fail_above(bytes);
    case();
    let injected = injector::disarm();
    assert!(injected > 0, "the case asked for nothing above {bytes} bytes");
    assert_eq!(injector::held_bytes(), held, "bytes leaked");
    assert_eq!(Counted::live(), values, "values leaked");
}

type Case = (&'static str, fn());

const CASES: &[Case] = &[
    ("scope::every_try_method_of_a_scope", scope::every_try_method_of_a_scope),
    ("scope::collections_keep_their_contents", scope::collections_keep_their_contents),
    ("scope::large_requests_fail_alone", scope::large_requests_fail_alone),
    ("scope::limit_panics_say_so", scope::limit_panics_say_so),
    (
        "scope::the_cold_part_refused_for_a_second_block",
        scope::the_cold_part_refused_for_a_second_block,
    ),
    (
        "scope::the_cold_part_refused_for_a_buffer_and_a_lone_block",
        scope::the_cold_part_refused_for_a_buffer_and_a_lone_block,
    ),
    ("pools::typed_pools_hand_values_back", pools::typed_pools_hand_values_back),
    ("pools::derived_pools_hand_values_back", pools::derived_pools_hand_values_back),
    ("pools::block_pools_reserve_or_fail", pools::block_pools_reserve_or_fail),
    ("size_class::size_class_pool_allocations", size_class::size_class_pool_allocations),
    ("size_class::locked_size_class_pool", size_class::locked_size_class_pool),
    #[cfg(feature = "allocator-api2")]
    ("size_class::collections_on_size_classes", size_class::collections_on_size_classes),
    ("aborts::scope_alloc_aborts", aborts::scope_alloc_aborts),
    ("aborts::pool_insert_aborts", aborts::pool_insert_aborts),
    ("aborts::vec_push_aborts", aborts::vec_push_aborts),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == aborts::CHILD_FLAG) {
        aborts::child(&args[i + 1]);
        return;
    }
    let has = |flag: &str| args.iter().any(|a| a == flag);
    // Test-name filters: the arguments that are neither flags nor a flag's value.
    let takes_value = ["--format", "--color", "--test-threads", "--logfile", "--skip", "-Z"];
    let filters: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|&(i, a)| !a.starts_with('-') && (i == 0 || !takes_value.contains(&&*args[i - 1])))
        .map(|(_, a)| a)
        .collect();
    let selected = |name: &str| {
        filters.is_empty()
            || filters.iter().any(|f| if has("--exact") { name == *f } else { name.contains(*f) })
    };
    if has("--list") {
        if !has("--ignored") {
            for (name, _) in CASES.iter().filter(|(n, _)| selected(n)) {
                println!("{name}: test");
            }
        }
        return;
    }
    if has("--ignored") {
        println!("0 passed, 0 failed");
        return;
    }
    // Panic messages are checked by the cases; the default hook would print every
    // expected one.
    std::panic::set_hook(Box::new(|_| {
        injector::disarm();
    }));
    let (mut passed, mut failed) = (0, 0);
    for (name, case) in CASES.iter().filter(|(n, _)| selected(n)) {
        match catch_unwind(AssertUnwindSafe(case)) {
            Ok(()) => {
                passed += 1;
                println!("test {name} ... ok");
            }
            Err(payload) => {
                injector::disarm();
                failed += 1;
                let msg = payload
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| payload.downcast_ref::<&str>().copied())
                    .unwrap_or("(no message)");
                println!("test {name} ... FAILED: {msg}");
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        std::process::exit(101);
    }
}
