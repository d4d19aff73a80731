//! W7-par: W7's binary trees (same rounds, same nodes, same checksum) with each depth's
//! short-lived trees split over rayon's threads, as the fastest Rust entries of the
//! Benchmarks Game run them. The long-lived tree is built once, on the calling thread.
//!
//! Each depth's trees are a `into_par_iter().map_init(..)`: rayon calls the init once per
//! task it splits off (a run of trees on one thread), so that is where a per-task
//! allocator goes: a `SharedBlockPool`'s thread cache, an `Arena`, an `ArenaPool` guard,
//! a bumpalo `Bump`. The one-thread row is W7's own `Scope`-per-tree contender, for the
//! speed-up.
//!
//! [`benchmarks_game_output`] prints the game's output lines with the arena-kit
//! contender's code; its unit tests compare them with the game's expected output.

use arena_kit::{Arena, ArenaPool, SharedBlockPool, scope::PooledArena};
use rayon::prelude::*;

use super::Contender;
use super::binary_trees::{
    self, BumpNode, MIN_DEPTH, Node, build, build_boxed, build_bump, build_typed, check,
    check_boxed, check_bump, rounds,
};

/// Every W7-par contender; "n" is the maximum depth, as in W7.
pub const CONTENDERS: &[Contender] = &[
    Contender {
        name: "arena-kit SharedBlockPool, Scope per tree, rayon",
        run: shared_scope_per_tree,
    },
    Contender { name: "arena-kit Arena per task, reset per tree, rayon", run: arena_per_task },
    Contender {
        name: "arena-kit ArenaPool, guard per task, reset per depth, rayon",
        run: arena_pool,
    },
    Contender {
        name: "arena-kit Scope per tree (BlockPool), 1 thread",
        run: binary_trees::scope_per_tree,
    },
    Contender { name: "Box, rayon", run: boxed },
    Contender { name: "bumpalo Bump::reset per tree, rayon", run: bumpalo_reset },
    Contender { name: "typed-arena Arena per tree, rayon", run: typed_arena_per_tree },
];

/// The checks of `trees` short-lived trees of `depth`, summed, split over rayon tasks:
/// `init` makes each task's state, `tree` builds and checks one tree with it.
fn par_trees<S>(
    depth: usize,
    trees: usize,
    init: impl Fn() -> S + Sync + Send,
    tree: impl Fn(&mut S, usize) -> u64 + Sync + Send,
) -> u64 {
    (0..trees).into_par_iter().map_init(init, |state, _| tree(state, depth)).sum()
}

/// `trees` trees of `depth`, each in a scope of its own on a thread cache of `shared`
/// (one cache per rayon task): what the arena-kit row runs per depth.
fn scope_trees(shared: &SharedBlockPool, depth: usize, trees: usize) -> u64 {
    par_trees(depth, trees, || shared.local(), |local, depth| check(build(&local.scope(), depth)))
}

/// A scope per short-lived tree on one `SharedBlockPool`, a thread cache per rayon task.
#[must_use]
pub fn shared_scope_per_tree(max_depth: usize) -> u64 {
    let shared = SharedBlockPool::new();
    let local = shared.local();
    let long_lived = local.scope();
    let sum = check(build(&long_lived, max_depth));
    sum + rounds(max_depth).map(|(depth, trees)| scope_trees(&shared, depth, trees)).sum::<u64>()
}

/// An `Arena` per rayon task, reset after each tree (the bumpalo row's shape).
#[must_use]
pub fn arena_per_task(max_depth: usize) -> u64 {
    let long_lived = Arena::new();
    let sum = check(build(&long_lived, max_depth));
    let short = |depth, trees| {
        par_trees(depth, trees, Arena::new, |arena, depth| {
            let nodes = check(build(arena, depth));
            arena.reset();
            nodes
        })
    };
    sum + rounds(max_depth).map(|(depth, trees)| short(depth, trees)).sum::<u64>()
}

fn build_pooled<'a>(arena: &PooledArena<'a, '_>, depth: usize) -> &'a Node<'a> {
    let children =
        (depth > 0).then(|| (build_pooled(arena, depth - 1), build_pooled(arena, depth - 1)));
    arena.alloc_copy(Node { children })
}

/// An `ArenaPool` guard per rayon task; a guard cannot reset (its values outlive it), so
/// the trees of a depth stay until the pool is reset before the next depth. The
/// long-lived tree is in an `Arena` of its own.
#[must_use]
pub fn arena_pool(max_depth: usize) -> u64 {
    let long_lived = Arena::new();
    let mut sum = check(build(&long_lived, max_depth));
    let mut pool = ArenaPool::new();
    for (depth, trees) in rounds(max_depth) {
        sum += par_trees(
            depth,
            trees,
            || pool.get(),
            |arena, depth| check(build_pooled(arena, depth)),
        );
        pool.reset();
    }
    sum
}

/// Every node a `Box`, every tree dropped node by node, on rayon's threads.
#[must_use]
pub fn boxed(max_depth: usize) -> u64 {
    let sum = check_boxed(&build_boxed(max_depth));
    sum + rounds(max_depth)
        .map(|(depth, trees)| par_trees(depth, trees, || (), |(), d| check_boxed(&build_boxed(d))))
        .sum::<u64>()
}

/// A `bumpalo::Bump` per rayon task, reset after each tree.
#[must_use]
pub fn bumpalo_reset(max_depth: usize) -> u64 {
    let long_lived = bumpalo::Bump::new();
    let sum = check_bump(build_bump(&long_lived, max_depth));
    let short = |depth, trees| {
        par_trees(depth, trees, bumpalo::Bump::new, |bump, depth| {
            let nodes = check_bump(build_bump(bump, depth));
            bump.reset();
            nodes
        })
    };
    sum + rounds(max_depth).map(|(depth, trees)| short(depth, trees)).sum::<u64>()
}

/// A new `typed_arena::Arena` per tree (the Benchmarks Game's fastest Rust entry's way).
#[must_use]
pub fn typed_arena_per_tree(max_depth: usize) -> u64 {
    let long_lived = typed_arena::Arena::new();
    let sum = check_bump(build_typed(&long_lived, max_depth));
    let short = |depth, trees| {
        par_trees(
            depth,
            trees,
            || (),
            |(), depth| {
                let arena = typed_arena::Arena::<BumpNode<'_>>::new();
                check_bump(build_typed(&arena, depth))
            },
        )
    };
    sum + rounds(max_depth).map(|(depth, trees)| short(depth, trees)).sum::<u64>()
}

/// The Benchmarks Game's binary-trees output for argument `n`, one string per line: the
/// stretch tree of depth `max + 1`, each depth's short-lived trees and the sum of their
/// checks, then the long-lived tree, where `max` is `n` but at least 6. Computed with
/// the arena-kit row's code (a scope per tree on a `SharedBlockPool`, rayon).
#[must_use]
pub fn benchmarks_game_output(n: usize) -> Vec<String> {
    let max_depth = n.max(MIN_DEPTH + 2);
    let shared = SharedBlockPool::new();
    let local = shared.local();
    let stretch = check(build(&local.scope(), max_depth + 1));
    let mut lines = vec![format!("stretch tree of depth {}\t check: {stretch}", max_depth + 1)];
    let long_lived = local.scope();
    let tree = build(&long_lived, max_depth);
    for (depth, trees) in rounds(max_depth) {
        let sum = scope_trees(&shared, depth, trees);
        lines.push(format!("{trees}\t trees of depth {depth}\t check: {sum}"));
    }
    lines.push(format!("long lived tree of depth {max_depth}\t check: {}", check(tree)));
    lines
}

#[cfg(test)]
mod tests {
    use super::benchmarks_game_output;

    #[test]
    fn the_output_for_10_is_the_games_expected_output() {
        assert_eq!(
            benchmarks_game_output(10),
            [
                "stretch tree of depth 11\t check: 4095",
                "1024\t trees of depth 4\t check: 31744",
                "256\t trees of depth 6\t check: 32512",
                "64\t trees of depth 8\t check: 32704",
                "16\t trees of depth 10\t check: 32752",
                "long lived tree of depth 10\t check: 2047",
            ]
        );
    }

    /// A tree of depth `d` has `2^(d+1) - 1` nodes and `2^(max - d + 4)` of them are built
    /// per depth, so each depth's line checks about `2^(max + 5)`.
    #[test]
    fn the_output_for_18_is_the_games_expected_output() {
        assert_eq!(
            benchmarks_game_output(18),
            [
                "stretch tree of depth 19\t check: 1048575",
                "262144\t trees of depth 4\t check: 8126464",
                "65536\t trees of depth 6\t check: 8323072",
                "16384\t trees of depth 8\t check: 8372224",
                "4096\t trees of depth 10\t check: 8384512",
                "1024\t trees of depth 12\t check: 8387584",
                "256\t trees of depth 14\t check: 8388352",
                "64\t trees of depth 16\t check: 8388544",
                "16\t trees of depth 18\t check: 8388592",
                "long lived tree of depth 18\t check: 524287",
            ]
        );
    }

    #[test]
    fn a_small_argument_runs_at_depth_6() {
        let lines = benchmarks_game_output(1);
        assert_eq!(lines.first().unwrap(), "stretch tree of depth 7\t check: 255");
        assert_eq!(lines.last().unwrap(), "long lived tree of depth 6\t check: 127");
        assert_eq!(lines.len(), 4);
    }
}
