//! W7 (the Computer Language Benchmarks Game's binary-trees): build and check complete
//! binary trees. One long-lived tree of the maximum depth, then for each depth `d` from 4
//! to the maximum in steps of 2, `2^(max - d + 4)` short-lived trees of depth `d`, each
//! built, checked (its nodes counted) and thrown away. `Box` trees against arena trees.
//!
//! The arena trees are `Copy` nodes linked by references (`Scope::alloc_copy`): a node
//! borrows its children from the same scope, which the lifetime rules allow because a
//! `Copy` value has no destructor to run in the wrong order.

use std::marker::PhantomData;
use std::mem::MaybeUninit;

use arena_kit::{Arena, BlockPool, Scope};

use allocator_api2::boxed::Box as ApiBox;

use super::Contender;
use super::mi_alloc::MiAlloc;

/// Maximum depth of the benchmark (the Benchmarks Game's usual small size).
pub const DEPTH: usize = 16;
pub(crate) const MIN_DEPTH: usize = 4;

/// Every W7 contender; "n" is the maximum depth.
pub const CONTENDERS: &[Contender] = &[
    Contender { name: "arena-kit Scope per tree (BlockPool)", run: scope_per_tree },
    Contender { name: "arena-kit Arena per depth", run: arena_per_depth },
    Contender { name: "Box", run: boxed },
    Contender { name: "mimalloc Box", run: mimalloc_boxed },
    Contender { name: "bumpalo Bump::reset per tree", run: bumpalo_reset },
    Contender { name: "bump-scope Bump::reset per tree", run: bump_scope_reset },
    Contender { name: "typed-arena Arena per tree", run: typed_arena_per_tree },
    Contender { name: "limit: one reserved buffer per phase", run: limit_reserved },
];

/// The depths and tree counts of the short-lived phase.
pub(crate) fn rounds(max_depth: usize) -> impl Iterator<Item = (usize, usize)> {
    let max_depth = max_depth.max(MIN_DEPTH + 2);
    (MIN_DEPTH..=max_depth).step_by(2).map(move |d| (d, 1 << (max_depth - d + MIN_DEPTH)))
}

/// A node of an arena tree.
#[derive(Clone, Copy)]
pub(crate) struct Node<'a> {
    pub(crate) children: Option<(&'a Node<'a>, &'a Node<'a>)>,
}

pub(crate) fn build<'a>(scope: &'a Scope<'_>, depth: usize) -> &'a Node<'a> {
    let children = (depth > 0).then(|| (build(scope, depth - 1), build(scope, depth - 1)));
    scope.alloc_copy(Node { children })
}

pub(crate) fn check(node: &Node<'_>) -> u64 {
    1 + node.children.map_or(0, |(l, r)| check(l) + check(r))
}

/// A scope per short-lived tree, all recycling blocks through one pool.
#[must_use]
pub fn scope_per_tree(max_depth: usize) -> u64 {
    let pool = BlockPool::new();
    let long_lived = pool.scope();
    let mut sum = check(build(&long_lived, max_depth));
    for (depth, trees) in rounds(max_depth) {
        for _ in 0..trees {
            let scope = pool.scope();
            sum += check(build(&scope, depth));
        }
    }
    sum
}

/// One `Arena` per depth, reset after each tree.
#[must_use]
pub fn arena_per_depth(max_depth: usize) -> u64 {
    let long_lived = Arena::new();
    let mut sum = check(build(&long_lived, max_depth));
    for (depth, trees) in rounds(max_depth) {
        let mut arena = Arena::new();
        for _ in 0..trees {
            sum += check(build(&arena, depth));
            arena.reset();
        }
    }
    sum
}

/// A `Box` tree.
pub(crate) struct BoxNode {
    children: Option<(Box<BoxNode>, Box<BoxNode>)>,
}

pub(crate) fn build_boxed(depth: usize) -> Box<BoxNode> {
    let children = (depth > 0).then(|| (build_boxed(depth - 1), build_boxed(depth - 1)));
    Box::new(BoxNode { children })
}

pub(crate) fn check_boxed(node: &BoxNode) -> u64 {
    1 + node.children.as_ref().map_or(0, |(l, r)| check_boxed(l) + check_boxed(r))
}

/// The binary-trees run for trees that own their nodes: `build(d)` builds a tree of
/// depth `d`, `check` counts its nodes; each short-lived tree is dropped node by node.
fn owned_trees<T>(max_depth: usize, build: impl Fn(usize) -> T, check: impl Fn(&T) -> u64) -> u64 {
    let long_lived = build(max_depth);
    let mut sum = check(&long_lived);
    for (depth, trees) in rounds(max_depth) {
        for _ in 0..trees {
            sum += check(&build(depth));
        }
    }
    sum
}

/// Every node a `Box`, every tree dropped node by node.
#[must_use]
pub fn boxed(max_depth: usize) -> u64 {
    owned_trees(max_depth, build_boxed, |tree| check_boxed(tree))
}

/// A `Box` tree on mimalloc.
struct MiNode {
    children: Option<(ApiBox<MiNode, MiAlloc>, ApiBox<MiNode, MiAlloc>)>,
}

fn build_mimalloc(depth: usize) -> ApiBox<MiNode, MiAlloc> {
    let children = (depth > 0).then(|| (build_mimalloc(depth - 1), build_mimalloc(depth - 1)));
    ApiBox::new_in(MiNode { children }, MiAlloc)
}

fn check_mimalloc(node: &MiNode) -> u64 {
    1 + node.children.as_ref().map_or(0, |(l, r)| check_mimalloc(l) + check_mimalloc(r))
}

/// Every node an `allocator_api2` `Box` on mimalloc, every tree dropped node by node.
#[must_use]
pub fn mimalloc_boxed(max_depth: usize) -> u64 {
    owned_trees(max_depth, build_mimalloc, |tree| check_mimalloc(tree))
}

#[derive(Clone, Copy)]
pub(crate) struct BumpNode<'a> {
    children: Option<(&'a BumpNode<'a>, &'a BumpNode<'a>)>,
}

pub(crate) fn build_bump(bump: &bumpalo::Bump, depth: usize) -> &BumpNode<'_> {
    let children = (depth > 0).then(|| (build_bump(bump, depth - 1), build_bump(bump, depth - 1)));
    bump.alloc(BumpNode { children })
}

pub(crate) fn check_bump(node: &BumpNode<'_>) -> u64 {
    1 + node.children.map_or(0, |(l, r)| check_bump(l) + check_bump(r))
}

/// One `bumpalo::Bump` per depth, reset after each tree.
#[must_use]
pub fn bumpalo_reset(max_depth: usize) -> u64 {
    let long_lived = bumpalo::Bump::new();
    let mut sum = check_bump(build_bump(&long_lived, max_depth));
    for (depth, trees) in rounds(max_depth) {
        let mut bump = bumpalo::Bump::new();
        for _ in 0..trees {
            sum += check_bump(build_bump(&bump, depth));
            bump.reset();
        }
    }
    sum
}

fn build_bump_scope(bump: &bump_scope::Bump, depth: usize) -> &BumpNode<'_> {
    let children =
        (depth > 0).then(|| (build_bump_scope(bump, depth - 1), build_bump_scope(bump, depth - 1)));
    bump.alloc(BumpNode { children }).into_mut()
}

/// One `bump_scope::Bump` per depth, reset after each tree.
#[must_use]
pub fn bump_scope_reset(max_depth: usize) -> u64 {
    let long_lived: bump_scope::Bump = bump_scope::Bump::new();
    let mut sum = check_bump(build_bump_scope(&long_lived, max_depth));
    for (depth, trees) in rounds(max_depth) {
        let mut bump: bump_scope::Bump = bump_scope::Bump::new();
        for _ in 0..trees {
            sum += check_bump(build_bump_scope(&bump, depth));
            bump.reset();
        }
    }
    sum
}

pub(crate) fn build_typed<'a>(
    arena: &'a typed_arena::Arena<BumpNode<'a>>,
    depth: usize,
) -> &'a BumpNode<'a> {
    let children =
        (depth > 0).then(|| (build_typed(arena, depth - 1), build_typed(arena, depth - 1)));
    arena.alloc(BumpNode { children })
}

/// A new `typed_arena::Arena` per tree.
#[must_use]
pub fn typed_arena_per_tree(max_depth: usize) -> u64 {
    let long_lived = typed_arena::Arena::new();
    let mut sum = check_bump(build_typed(&long_lived, max_depth));
    for (depth, trees) in rounds(max_depth) {
        for _ in 0..trees {
            let arena = typed_arena::Arena::new();
            sum += check_bump(build_typed(&arena, depth));
        }
    }
    sum
}

/// A bump over a buffer reserved up front: each node takes the next place, with no
/// block to check or chain: a pointer and its end, as a C programmer would write it.
struct SliceBump<'a> {
    next: *mut BumpNode<'a>,
    end: *mut BumpNode<'a>,
    /// The buffer, borrowed exclusively for `'a` (its places are handed out as `&'a`).
    buffer: PhantomData<&'a mut [MaybeUninit<BumpNode<'a>>]>,
}

impl<'a> SliceBump<'a> {
    fn new(buffer: &'a mut [MaybeUninit<BumpNode<'a>>]) -> Self {
        let range = buffer.as_mut_ptr_range();
        SliceBump { next: range.start.cast(), end: range.end.cast(), buffer: PhantomData }
    }

    #[inline]
    fn alloc(&mut self, node: BumpNode<'a>) -> &'a BumpNode<'a> {
        assert!(self.next != self.end, "the buffer holds the tree");
        let place = self.next;
        // SAFETY: `place` is below `end`, so within the buffer (or one past its last
        // place after the add, which `end` is).
        self.next = unsafe { place.add(1) };
        // SAFETY: `place` is in the buffer, which this bump borrows exclusively for `'a`,
        // and each place is handed out once: writing it aliases nothing.
        unsafe { place.write(node) };
        // SAFETY: as above, and the place was just written; lending it for `'a` is the
        // place's one use (`BumpNode` is `Copy`: nothing is left to drop).
        unsafe { &*place }
    }
}

fn build_slice<'a>(bump: &mut SliceBump<'a>, depth: usize) -> &'a BumpNode<'a> {
    let children =
        (depth > 0).then(|| (build_slice(bump, depth - 1), build_slice(bump, depth - 1)));
    bump.alloc(BumpNode { children })
}

/// Memory for nodes of any lifetime: a [`BumpNode`] is two references or none, which is
/// two words.
type RawNode = MaybeUninit<[usize; 2]>;

/// `raw` as places for nodes that live as long as this borrow of it.
fn as_nodes(raw: &mut [RawNode]) -> &mut [MaybeUninit<BumpNode<'_>>] {
    const {
        assert!(size_of::<BumpNode<'_>>() == size_of::<RawNode>());
        assert!(align_of::<BumpNode<'_>>() == align_of::<RawNode>());
    }
    // SAFETY: the two element types have the same size and alignment (checked above)
    // and every bit pattern is a valid `MaybeUninit`; the new slice has the same length
    // and borrows `raw` exclusively for as long as it lives.
    unsafe { std::slice::from_raw_parts_mut(raw.as_mut_ptr().cast(), raw.len()) }
}

/// The limit: the long-lived tree in a buffer of exactly its nodes, each short-lived tree
/// in one buffer of the largest tree's nodes, reserved once and taken again by every tree
/// (a fresh borrow of the same buffer per tree: nothing to reset or free).
#[must_use]
pub fn limit_reserved(max_depth: usize) -> u64 {
    let nodes = |d: usize| (1_usize << (d + 1)) - 1;
    let mut long_lived = vec![RawNode::uninit(); nodes(max_depth)];
    let mut bump = SliceBump::new(as_nodes(&mut long_lived));
    let mut sum = check_bump(build_slice(&mut bump, max_depth));
    let largest = rounds(max_depth).map(|(d, _)| nodes(d)).max().unwrap_or(0);
    let mut buffer = vec![RawNode::uninit(); largest];
    for (depth, trees) in rounds(max_depth) {
        for _ in 0..trees {
            let mut bump = SliceBump::new(as_nodes(&mut buffer));
            sum += check_bump(build_slice(&mut bump, depth));
        }
    }
    sum
}

/// The checksum every contender must reach: nodes of all trees built.
#[must_use]
pub fn expected(max_depth: usize) -> u64 {
    let nodes = |d: usize| (1_u64 << (d + 1)) - 1;
    nodes(max_depth) + rounds(max_depth).map(|(d, trees)| trees as u64 * nodes(d)).sum::<u64>()
}
