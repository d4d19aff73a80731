//! The hot slot of a block pool's cache: the block the last scope gave back, lent to the
//! next scope while the slot keeps its address.
//!
//! A scope made and dropped per request takes the hot block when it starts and gives it
//! back when it ends. If the slot held the `Block` itself, each round would move the
//! block out of the slot and back in (an `Option` written both ways), and the return
//! would read the block's header to tell a standard block from a dedicated one. The
//! slot instead keeps the address and lends the block: lending clears a flag; the
//! return compares addresses and sets the flag again, and its address alone says that
//! the block is this cache's standard one. The address is written only when another
//! block takes the slot, so a round's loads do not wait on the last round's stores of
//! it either.
//!
//! # Invariant
//!
//! - **(H1) The slot owns the block at its address while `owned` is set**: no `Block`
//!   for that address exists elsewhere, and the slot alone may make one
//!   ([`lend`](HotSlot::lend), [`take`](HotSlot::take)).
//! - **(H2) While `owned` is clear, the address is the lent block's or none**: the block
//!   lent last, out with a scope (or leaked with it by `mem::forget`), never freed
//!   memory. So a block put back with that address *is* the lent block, and the address
//!   kept (with the provenance of that allocation) still names it when the slot lends
//!   it again. It holds because the slot takes its lent block back whenever it comes
//!   back with the address still kept ([`take_back`](HotSlot::take_back) asks nothing
//!   else), and the address changes only to another block's ([`put`](HotSlot::put)) or
//!   to none ([`take`](HotSlot::take), [`unreserve`](HotSlot::unreserve)).
//!
//! A slot that owns a block or waits for its lent one is [`reserved`](HotSlot::reserved):
//! the cache keeps a place for the lent block among the `max_free` it may hold, so its
//! return needs no room check.
#![expect(clippy::inline_always, reason = "a W1 scope lends and returns here every round")]

use core::cell::Cell;

use crate::block::header::{Block, BlockAddr};

/// One block a cache keeps aside for the next scope; see the module docs.
pub(super) struct HotSlot {
    /// The hot block's address, owned while `owned` is set (H1); a dangling address,
    /// which no block has, before the first block.
    addr: Cell<BlockAddr>,
    /// Whether the slot owns the block at `addr` (H1).
    owned: Cell<bool>,
}

impl HotSlot {
    /// An empty slot.
    pub(super) const fn new() -> Self {
        HotSlot { addr: Cell::new(BlockAddr::NONE), owned: Cell::new(false) }
    }

    /// Whether the slot owns a block (one the cache counts as cached).
    #[inline]
    pub(super) fn holds(&self) -> bool {
        self.owned.get()
    }

    /// Lends the block out, keeping its address for its return: `None` if the slot owns
    /// none.
    #[inline(always)]
    pub(super) fn lend(&self) -> Option<Block> {
        if !self.owned.get() {
            return None;
        }
        self.owned.set(false);
        // SAFETY: H1: `owned` was set, so the slot owned the block at `addr` and no other
        // `Block` for it exists; clearing `owned` hands that ownership to this `Block`.
        Some(unsafe { Block::from_addr(self.addr.get()) })
    }

    /// Takes the block out for good: `None` if the slot owns none.
    pub(super) fn take(&self) -> Option<Block> {
        let block = self.lend()?;
        self.addr.set(BlockAddr::NONE);
        Some(block)
    }

    /// Takes back the block [`lend`](Self::lend) handed out, known by its address (H2);
    /// hands any other block back (and this one, if the slot owns a block already).
    #[inline(always)]
    pub(super) fn take_back(&self, block: Block) -> Result<(), Block> {
        if self.owned.get() || block.addr() != self.addr.get() {
            return Err(block);
        }
        self.owned.set(true);
        // H1: the slot owns the block again; its `Block` ends here without freeing it.
        let _owned_by_the_slot = block.into_addr();
        Ok(())
    }

    /// Whether the slot owns a block or waits for the one it lent (H2: its address is
    /// kept): either way, it takes a place in the cache.
    #[inline]
    pub(super) fn reserved(&self) -> bool {
        self.addr.get() != BlockAddr::NONE
    }

    /// Gives up the place of a lent block: when it comes back, it is given back like any
    /// other block. Does nothing if the slot owns its block.
    pub(super) fn unreserve(&self) {
        if !self.owned.get() {
            self.addr.set(BlockAddr::NONE);
        }
    }

    /// Takes `block` into the slot if the slot owns none; hands it back otherwise.
    pub(super) fn put(&self, block: Block) -> Result<(), Block> {
        if self.owned.get() {
            return Err(block);
        }
        self.addr.set(block.into_addr());
        self.owned.set(true);
        Ok(())
    }
}
