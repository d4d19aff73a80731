//! Seed 003's pool written by hand, kept in a `static` as firmware keeps it: a fixed
//! array of objects and a free list of `u32` indices threaded through the vacant places,
//! with no handles, no generations and no heap. The row the no-heap pools and scopes of
//! W1 and W5 are read against (W4's hand-written row is the same design on `Vec`s).
//!
//! The seed keeps each vacant place's link in the object's first bytes; here the links
//! are an array beside the objects, so that the code stays safe: the same loads and
//! stores per allocation, in a second array.

/// A fixed pool of `N` objects: [`alloc`](Self::alloc) takes the first vacant place
/// (an index), [`free`](Self::free) puts a place back at the front of the list.
///
/// Nothing checks an index: freeing one twice or reading a freed one is a logic error,
/// as in the seed's C (it cannot be undefined behaviour: every place always holds an
/// initialized `T`).
#[derive(Debug)]
pub struct StaticFreeList<T: Copy, const N: usize> {
    /// The objects; a vacant place holds whatever it last held.
    objects: [T; N],
    /// For each vacant place, the next vacant place (`N`: none).
    next: [u32; N],
    /// The first vacant place (`N`: none).
    head: u32,
}

impl<T: Copy, const N: usize> StaticFreeList<T, N> {
    /// A list with every place holding `filler` and none vacant: [`thread`](Self::thread)
    /// makes them vacant (a `const fn`, for a `static`, whose zeroed bytes cost no
    /// image space; threading at run time is the seed's `arena_creat`).
    ///
    /// # Panics
    ///
    /// At compile time in a `static`, if `N` does not fit in a `u32`.
    pub const fn new(filler: T) -> Self {
        assert!(N < u32::MAX as usize, "a free list of u32 indices");
        #[expect(clippy::cast_possible_truncation, reason = "N < u32::MAX, asserted above")]
        StaticFreeList { objects: [filler; N], next: [0; N], head: N as u32 }
    }

    /// Makes every place vacant, threaded in order (the seed's `arena_creat`).
    pub fn thread(&mut self) {
        for (next, link) in self.next.iter_mut().zip(1..) {
            *next = link;
        }
        self.head = 0;
    }

    /// Puts `value` in the first vacant place and returns its index, or `None` if every
    /// place is taken.
    #[inline]
    pub fn alloc(&mut self, value: T) -> Option<u32> {
        let index = self.head;
        let place = index as usize;
        if place >= N {
            return None;
        }
        self.head = self.next[place];
        self.objects[place] = value;
        Some(index)
    }

    /// Makes the place `index` vacant again.
    ///
    /// # Panics
    ///
    /// If `index` is not below `N`.
    #[inline]
    pub fn free(&mut self, index: u32) {
        self.next[index as usize] = self.head;
        self.head = index;
    }
}

impl<T: Copy, const N: usize> std::ops::Index<u32> for StaticFreeList<T, N> {
    type Output = T;

    #[inline]
    fn index(&self, index: u32) -> &T {
        &self.objects[index as usize]
    }
}

impl<T: Copy, const N: usize> std::ops::IndexMut<u32> for StaticFreeList<T, N> {
    #[inline]
    fn index_mut(&mut self, index: u32) -> &mut T {
        &mut self.objects[index as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::StaticFreeList;

    #[test]
    fn takes_places_in_order_and_reuses_the_last_freed_first() {
        let mut list = StaticFreeList::<u64, 3>::new(0);
        assert_eq!(list.alloc(1), None, "nothing is vacant before threading");
        list.thread();
        assert_eq!([list.alloc(10), list.alloc(11), list.alloc(12)], [Some(0), Some(1), Some(2)]);
        assert_eq!(list.alloc(13), None);
        list.free(1);
        list.free(0);
        assert_eq!(list.alloc(14), Some(0));
        assert_eq!(list.alloc(15), Some(1));
        assert_eq!([list[0], list[1], list[2]], [14, 15, 12]);
        list[2] += 1;
        assert_eq!(list[2], 13);
    }
}
