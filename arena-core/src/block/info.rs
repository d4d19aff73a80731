//! [`BlockInfo`]: what [`Scope::blocks`](crate::Scope::blocks) reports about each block a
//! scope holds (bumpalo's `iter_allocated_chunks` and `chunk_capacity`, as figures).

/// What a block held by a scope is used for.
///
/// # Examples
///
/// ```
/// use arena_kit::{block::BlockKind, BlockPool};
///
/// let pool = BlockPool::new();
/// let scope = pool.scope();
/// scope.alloc(1_u8);
/// let kinds: Vec<BlockKind> = scope.blocks().map(|b| b.kind).collect();
/// assert_eq!(kinds, [BlockKind::Current]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BlockKind {
    /// The block the scope bumps into now; its free tail is the scope's room.
    Current,
    /// An older block (or one taken for a single oversize value): it keeps its values
    /// until the scope ends or resets, and is never bumped into again.
    Retired,
    /// The block of its own that a growing [`ArenaVec`](crate::ArenaVec) or
    /// [`ArenaString`](crate::ArenaString) moved into once it outgrew a standard block,
    /// or that an allocation through the scope's `Allocator` impl bigger than a standard
    /// block got.
    Buffer,
}

/// One block a scope holds, as [`Scope::blocks`](crate::Scope::blocks) reports it.
///
/// # Examples
///
/// ```
/// let pool = arena_kit::BlockPool::new();
/// let scope = pool.scope();
/// scope.alloc([0_u8; 100]);
/// let current = scope.blocks().next().unwrap();
/// assert_eq!(current.size, pool.block_size());
/// assert_eq!(current.room, current.capacity - 100);
/// assert_eq!(current.room, scope.block_room());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct BlockInfo {
    /// What the block is used for.
    pub kind: BlockKind,
    /// Bytes of the block, header included: what counts against a limit.
    pub size: usize,
    /// Address of the block's first data byte: with [`capacity`](Self::capacity), the
    /// range the scope's values in this block lie in (an address, not a pointer to use).
    pub addr: usize,
    /// Bytes of the block's data: its size less the header (and alignment padding).
    pub capacity: usize,
    /// Bytes still free for the scope to bump into: the free tail of the
    /// [current](BlockKind::Current) block, 0 for every other one.
    pub room: usize,
}

impl BlockInfo {
    #[cfg(feature = "alloc")]
    pub(crate) fn new(
        kind: BlockKind,
        size: usize,
        addr: usize,
        capacity: usize,
        room: usize,
    ) -> Self {
        BlockInfo { kind, size, addr, capacity, room }
    }
}
