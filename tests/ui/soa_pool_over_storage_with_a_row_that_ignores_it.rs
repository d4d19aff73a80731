// A hand-written `SoaRow` may define `Storage<M>` without `M` (here heap vectors for
// every memory). A pool over a `SoaStorage` still keeps its index in that storage, so the
// pool's own type must hold the storage's borrow: declared before the storage (dropped
// after it), or alive while a second pool takes the storage, it must not compile.
use arena_kit::pool::soa::{SoaStorage, Views};
use arena_kit::pool::Memory;
use arena_kit::{AllocError, Brand, SoaPool, SoaRow};
use std::mem::MaybeUninit;

struct H(u32);
struct St { slots: Vec<u32>, xs: Vec<u32> }
impl<'a> Views<'a> for H {
    type Ref = &'a u32;
    type Mut = &'a mut u32;
    type Columns = &'a [u32];
    type ColumnsMut = &'a mut [u32];
    fn split_first_mut(c: &'a mut [u32]) -> Option<(&'a mut u32, &'a mut [u32])> { c.split_first_mut() }
    fn split_last_mut(c: &'a mut [u32]) -> Option<(&'a mut u32, &'a mut [u32])> { c.split_last_mut() }
}
impl SoaRow for H {
    type Storage<M: Memory> = St;
    fn new_storage(cap: usize) -> St { St { slots: Vec::with_capacity(cap), xs: Vec::with_capacity(cap) } }
    fn storage_in(_b: &mut [MaybeUninit<u8>], rows: usize) -> Option<St> { Some(Self::new_storage(rows)) }
    fn column_len<M: Memory>(s: &St) -> usize { s.xs.len() }
    fn reserve<M: Memory>(s: &mut St, n: usize) { s.slots.reserve(n); s.xs.reserve(n); }
    fn try_reserve<M: Memory>(s: &mut St, n: usize) -> Result<(), AllocError> { s.slots.reserve(n); s.xs.reserve(n); Ok(()) }
    fn shrink_to_fit<M: Memory>(_s: &mut St) {}
    fn push<M: Memory>(s: &mut St, slot: u32, v: H) { s.slots.push(slot); s.xs.push(v.0); }
    fn swap_remove<M: Memory>(s: &mut St, row: usize) -> (H, Option<u32>) {
        s.slots.swap_remove(row); let v = s.xs.swap_remove(row); (H(v), s.slots.get(row).copied())
    }
    fn compact<M: Memory>(s: &mut St, mut keep: impl FnMut(u32, &mut u32) -> bool) {
        let mut i = 0;
        while i < s.xs.len() { if keep(s.slots[i], &mut s.xs[i]) { i += 1 } else { s.slots.swap_remove(i); s.xs.swap_remove(i); } }
    }
    fn pop<M: Memory>(s: &mut St) -> Option<(u32, H)> { Some((s.slots.pop()?, H(s.xs.pop()?))) }
    fn slots<M: Memory>(s: &St) -> &[u32] { &s.slots }
    fn slots_and_columns_mut<M: Memory>(s: &mut St) -> (&[u32], &mut [u32]) { (&s.slots, &mut s.xs) }
    fn columns<M: Memory>(s: &St) -> &[u32] { &s.xs }
    fn columns_mut<M: Memory>(s: &mut St) -> &mut [u32] { &mut s.xs }
    fn row<M: Memory>(s: &St, r: usize) -> &u32 { &s.xs[r] }
    fn row_mut<M: Memory>(s: &mut St, r: usize) -> &mut u32 { &mut s.xs[r] }
}

fn main() {
    // Declared before its storage: dropped after it.
    Brand::with(|brand| {
        let mut pool;
        let mut storage = SoaStorage::<H, 4>::new();
        pool = SoaPool::new_in_storage(&mut storage, brand);
        pool.insert_keyed(H(1));
    });
    // A second pool over the same storage while the first lives.
    Brand::with(|brand| {
        let mut storage = SoaStorage::<H, 4>::new();
        let mut old = SoaPool::new_in_storage(&mut storage, brand);
        old.insert_keyed(H(1));
        Brand::with(|again| {
            let mut second = SoaPool::new_in_storage(&mut storage, again);
            second.insert_keyed(H(2));
        });
        drop(old);
    });
}
