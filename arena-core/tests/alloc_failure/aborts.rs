//! The panicking methods when memory runs out: they call `handle_alloc_error` (as
//! `Box::new` does), whose standard behaviour prints the request and aborts the process,
//! so each is run in a child process of this binary and its end is checked.

use arena_kit::{ArenaVec, BlockPool, Pool};

use crate::injector;

/// The argument that makes this binary a child running one body.
pub(crate) const CHILD_FLAG: &str = "--abort-child";

/// Runs the body named `name` in this (child) process; it should not return.
pub(crate) fn child(name: &str) {
    match name {
        "scope_alloc" => {
            let pool = BlockPool::new();
            let scope = pool.scope();
            injector::fail_nth(0);
            scope.alloc(1_u64);
        }
        "pool_insert" => Pool::with(|mut pool| {
            injector::fail_nth(0);
            let _ = pool.insert(1_u64);
        }),
        "vec_push" => {
            let pool = BlockPool::new();
            let scope = pool.scope();
            let mut v = ArenaVec::new_in(&scope);
            injector::fail_above(8192);
            for i in 0..100_000_u32 {
                v.push(i);
            }
        }
        _ => panic!("no child body {name}"),
    }
    println!("returned");
}

/// Runs child body `name` and checks it aborted after printing `expected`.
fn expect_abort(name: &str, expected: &str) {
    if cfg!(miri) {
        // Miri runs no child process; the try_ cases cover the same paths.
        println!("(under Miri: {name} skipped, no child process)");
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new(exe).args([CHILD_FLAG, name]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("returned"), "{name}: the call returned");
    assert!(!out.status.success(), "{name}: the child exited normally");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(out.status.signal(), Some(6), "{name}: not an abort: {:?}", out.status);
    }
    assert!(stderr.contains(expected), "{name}: stderr {stderr:?} lacks {expected:?}");
}

/// `Scope::alloc` that needs a block the system refuses.
pub(crate) fn scope_alloc_aborts() {
    let block = arena_kit::block::DEFAULT_BLOCK_SIZE;
    expect_abort("scope_alloc", &format!("memory allocation of {block} bytes failed"));
}

/// `Pool::insert` whose slot buffer cannot grow.
pub(crate) fn pool_insert_aborts() {
    expect_abort("pool_insert", "memory allocation of");
}

/// `ArenaVec::push` that outgrows what the system gives.
pub(crate) fn vec_push_aborts() {
    expect_abort("vec_push", "memory allocation of");
}
