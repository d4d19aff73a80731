//! [`Compaction`]: [`SoaPool::retain`](super::SoaPool::retain)'s one pass over the rows,
//! as a guard that leaves the row index whole wherever the pass stops.
//!
//! `retain` visits the rows from the first on. A row kept stays where it is. A row
//! rejected swaps places with the last row not yet rejected, which is visited next in
//! its place ([`SoaRow::compact`](crate::SoaRow::compact) swaps the columns the same
//! way), so the rejected rows gather at the end, behind every row kept. Then they are
//! taken off the end, one whole value at a time, each dropped as it leaves. A row that
//! stays costs its visit and nothing more; a row removed costs one swap and one pop.
//!
//! The row index's invariant, that every slot knows its row, is what a swap of two rows
//! breaks. The pass tells only the row that moves into the hole its new place
//! ([`swap_rows_unlinked`](RowIndex::swap_rows_unlinked)); the rejected rows at the
//! end are relinked when the guard drops. On the normal path none is left by then
//! (every one has been removed); after a panic in the user's `keep` or in a destructor,
//! the guard relinks them during the unwind, so every value not yet dropped stays in
//! the pool under its key. The guard runs no user code.

use crate::pool::Key;
use crate::pool::soa::row_index::RowIndex;

/// A `retain` pass in progress over a [`RowIndex`]: rows `..next` are kept, rows
/// `next..end` not yet visited, rows `end..` rejected (not linked to their slots).
pub(super) struct Compaction<'a, 'id> {
    index: &'a mut RowIndex<'id>,
    next: usize,
    end: usize,
    /// Whether some row is owned by a handle; if not, no row needs asking.
    handles: bool,
}

impl<'a, 'id> Compaction<'a, 'id> {
    /// A pass over `index` that has visited nothing yet.
    pub(super) fn new(index: &'a mut RowIndex<'id>) -> Self {
        let end = index.len();
        let handles = index.has_handles();
        Compaction { index, next: 0, end, handles }
    }

    /// The key of the row to visit next, or `None` if a handle owns it (then it is kept,
    /// unseen) or every row has been visited.
    #[inline]
    pub(super) fn next_key(&self) -> Option<Key<'id>> {
        if self.next >= self.end {
            return None;
        }
        if self.handles {
            self.index.unowned_key_at_row(self.next)
        } else {
            // No row is owned: the key is the row's, whether the caller looks at it or
            // not (if not, the slot is never read).
            Some(self.index.key_of_row(self.next))
        }
    }

    /// The row visited stays; the next row is visited next.
    #[inline]
    pub(super) fn keep(&mut self) {
        self.next += 1;
    }

    /// The row visited (whose key [`next_key`](Self::next_key) gave) is removed: it swaps
    /// places with the last row not yet visited, which is visited next.
    #[inline]
    pub(super) fn reject(&mut self) {
        debug_assert!(self.next < self.end, "only a visited row is rejected");
        self.end -= 1;
        if self.next != self.end {
            self.index.swap_rows_unlinked(self.next, self.end);
        }
    }

    /// Frees the last row if the pass rejected it, and says whether it did; the caller
    /// then pops one row off every column.
    #[inline]
    pub(super) fn pop_rejected(&mut self) -> bool {
        self.index.pop_unowned_past(self.end)
    }
}

impl Drop for Compaction<'_, '_> {
    fn drop(&mut self) {
        self.index.relink_from(self.end);
    }
}
