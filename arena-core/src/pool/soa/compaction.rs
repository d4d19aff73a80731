//! [`Compaction`]: [`SoaPool::retain`](super::SoaPool::retain)'s one pass over the rows,
//! which keeps the row index whole at every point where user code runs.
//!
//! `retain` visits the rows from the first on. A row kept stays where it is. A row
//! rejected swaps places with the last row not yet rejected, which is visited next in
//! its place ([`SoaRow::compact`](crate::SoaRow::compact) swaps the columns, the slot
//! column with them), so the rejected rows gather at the end, behind every row kept.
//! Then they are taken off the end, one whole value at a time, each dropped as it
//! leaves. A row that stays costs its visit and nothing more; a row removed costs one
//! swap and one pop.
//!
//! The row index's invariant, that every slot knows its row, is what a swap of two rows
//! breaks. The pass mends it before the user's `keep` can next run: a rejected row's
//! slot learns its place at the end when it is rejected (the swap follows at once, with
//! no user code between), and the row that came from the end learns its new place when
//! it is visited, before `keep` sees it. So a panic in `keep`, or in a destructor while
//! the rejected rows are popped, leaves every value not yet dropped in the pool under
//! its key, and the pass needs no guard to mend the index during an unwind.
//!
//! A hand-written [`SoaRow`](crate::SoaRow) whose `compact` does not visit the rows as
//! promised (the pass's count of rows visited and rejected then disagrees with the
//! rows) makes `retain` drop nothing and tell every slot its row again from the slot
//! column: the values all stay, under their keys.

use crate::pool::Key;
use crate::pool::soa::row_index::RowIndex;

/// A `retain` pass in progress over a [`RowIndex`]: rows `..next` are kept, rows
/// `next..end` not yet visited, rows `end..` rejected.
pub(super) struct Compaction<'a, 'id> {
    index: &'a mut RowIndex<'id>,
    next: usize,
    end: usize,
    /// Whether the row at `next` came from the end (the last visit rejected a row), so
    /// that its slot still names its old row.
    moved_in: bool,
    /// Whether some row is owned by a handle; if not, no row needs asking.
    handles: bool,
}

impl<'a, 'id> Compaction<'a, 'id> {
    /// A pass over the `len` rows of `index`'s columns that has visited nothing yet.
    pub(super) fn new(index: &'a mut RowIndex<'id>, len: usize) -> Self {
        let handles = index.has_handles();
        Compaction { index, next: 0, end: len, moved_in: false, handles }
    }

    /// Visits the next row, whose slot (from the slot column) is `slot`: asks `keep`
    /// about it with its key, unless a handle owns it (then it is kept, unseen), and
    /// says whether it stays. A row rejected is about to swap places with row `end - 1`
    /// (see [`SoaRow::compact`](crate::SoaRow::compact)), where its slot is told it is.
    ///
    /// The row is the pass's count, not a number `compact` gives: a hand-written
    /// `SoaRow` that visits past the end has those rows kept, unseen, and one that
    /// misplaces rows makes lookups find other values or panic, never lose a row.
    #[inline]
    pub(super) fn visit(&mut self, slot: u32, keep: impl FnOnce(Key<'id>) -> bool) -> bool {
        let row = self.next;
        if row >= self.end {
            return true;
        }
        if self.moved_in {
            self.index.moved(slot, row);
        }
        let key = if self.handles {
            let Some(key) = self.index.unowned_key_of_slot(slot) else {
                // Owned by a handle: kept, unseen.
                self.next += 1;
                self.moved_in = false;
                return true;
            };
            key
        } else {
            // No row is owned: the key is the row's, whether the caller looks at it or
            // not (if not, the slot is never read).
            self.index.key_of_slot(slot)
        };
        if keep(key) {
            self.next += 1;
            self.moved_in = false;
            true
        } else {
            self.end -= 1;
            self.index.moved(slot, self.end);
            self.moved_in = row != self.end;
            false
        }
    }

    /// The number of rows kept, the rows from there on being the rejected ones, if the
    /// pass visited every row as [`SoaRow::compact`](crate::SoaRow::compact) promises
    /// (then the visits met the rejected rows at the end). `None` if it did not: a
    /// hand-written `compact` broke its contract, and the slots told of rows may not be
    /// where the rows are.
    pub(super) fn kept(&self) -> Option<usize> {
        (self.next == self.end).then_some(self.end)
    }
}
