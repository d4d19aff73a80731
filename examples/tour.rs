//! `cargo run --example tour`: a runnable tour of arena-kit's scope API that prints what
//! each step does.

use std::cell::RefCell;
use std::hint::black_box;

use arena_kit::{AllocError, Arena, BlockPool, arena_new};

fn main() {
    tour();
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

#[test]
fn the_tour_runs_to_the_end() {
    main();
}
