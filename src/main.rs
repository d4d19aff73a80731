//! `cargo run --release`: a runnable tour of arena-kit's scope API that prints what each
//! step does, then a quick side-by-side timing of the seed 000 workloads (W1, W2).
//!
//! The full comparison report (every workload, charts, JSON) is the job of the report
//! binary that replaces this tour; the workloads timed here are the same functions the
//! criterion benches run.

use std::cell::RefCell;
use std::hint::black_box;
use std::time::Instant;

use arena_core::{AllocError, Arena, BlockPool, arena_new};
use arena_kit::workloads::{Contender, many_small, scope_churn};

fn main() {
    tour();
    println!();
    quick_timing(
        "W1: make an allocator, allocate one u32, destroy it",
        scope_churn::N,
        scope_churn::CONTENDERS,
    );
    quick_timing(
        "W2: one allocator, 60 000 u32s, then destroyed",
        many_small::N,
        many_small::CONTENDERS,
    );
}

fn tour() {
    let log = RefCell::new(Vec::new());
    let pool = BlockPool::new();
    println!(
        "== a BlockPool: blocks of {} bytes ({} usable), nothing allocated yet",
        pool.block_size(),
        pool.block_capacity()
    );

    {
        let scope = pool.scope();
        let n = scope.alloc(41_u32);
        *n += 1;
        let words = scope.alloc_from_iter(["scoped", "arena"].map(String::from));
        let squares = scope.alloc_slice_fill_with(5, |i| i * i);
        println!("scope.alloc(41) += 1 -> {n}; words {words:?}; squares {squares:?}");
        let point = arena_new!(scope, Point { x: 1, y: 2 });
        println!(
            "arena_new!(scope, Point {{ x: 1, y: 2 }}) -> {point:?}, x + y = {}",
            point.x + point.y
        );
        scope.on_exit(|| log.borrow_mut().push("on_exit callback"));
        scope.alloc(Announce { name: "a value with a destructor", log: &log });
        {
            let child = scope.scope();
            child.alloc(Announce { name: "a child scope's value", log: &log });
            println!(
                "a child scope is open; the pool has {} blocks live",
                pool.stats().live_blocks
            );
        }
        println!("child closed: {:?}", log.borrow());
        println!("scope stats: {:?}", scope.stats());
    }
    println!("scope closed, newest first: {:?}", log.borrow());
    println!("pool after the scope: {:?}", pool.stats());

    let limited = pool.scope();
    limited.set_limit(Some(0));
    match limited.try_alloc(String::from("kept")) {
        Ok(_) => println!("unexpected: the limit allowed a block"),
        Err(e) => {
            let error: AllocError = e.error();
            println!(
                "try_alloc past a limit: \"{error}\"; the value comes back: {:?}",
                e.into_value()
            );
        }
    }
    drop(limited);

    for _ in 0..1000 {
        let scope = pool.scope();
        black_box(scope.alloc(0_u64));
    }
    println!(
        "1000 more scopes later the pool has asked the system for {} block(s) in all",
        pool.stats().system_allocations
    );

    let arena = Arena::new();
    let values: Vec<&mut u32> = (0..60_000).map(|i| arena.alloc(i)).collect();
    println!(
        "an Arena (own blocks) holding 60 000 u32s: {:?}, last = {}",
        arena.stats(),
        values[59_999]
    );
}

#[derive(Debug)]
struct Point {
    x: i32,
    y: i32,
}

struct Announce<'a> {
    name: &'static str,
    log: &'a RefCell<Vec<&'static str>>,
}

impl Drop for Announce<'_> {
    fn drop(&mut self) {
        self.log.borrow_mut().push(self.name);
    }
}

#[expect(clippy::cast_precision_loss, reason = "workload sizes are far below 2^52")]
/// Times each contender (median of 7 runs after a warm-up) and prints ns per operation
/// and the ratio to `Box`.
fn quick_timing(title: &str, n: usize, contenders: &[Contender]) {
    println!("== {title} (n = {n}, median of 7)");
    let mut rows: Vec<(&str, f64)> = contenders
        .iter()
        .map(|c| {
            black_box((c.run)(n));
            let mut times: Vec<f64> = (0..7)
                .map(|_| {
                    let start = Instant::now();
                    black_box((c.run)(black_box(n)));
                    start.elapsed().as_secs_f64() * 1e9 / n as f64
                })
                .collect();
            times.sort_by(f64::total_cmp);
            (c.name, times[3])
        })
        .collect();
    let boxed = rows.iter().find(|(name, _)| name.starts_with("Box")).map_or(f64::NAN, |r| r.1);
    for (name, ns) in &mut rows {
        println!("===== {name:<32} ---> {ns:8.2} ns/op   {:6.2}x Box", *ns / boxed);
    }
}
