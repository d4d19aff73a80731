//! [`SecondaryMap`]: a side table keyed by one pool's keys.

#![expect(
    clippy::cast_possible_truncation,
    reason = "entries exist only at slot indices, which fit a u32"
)]

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
use core::num::NonZeroU32;

use crate::brand::Id;
use crate::handle::Key;

/// Extra data for values of one [`Pool`](crate::Pool), indexed by its [`Key`]s: a `Vec`
/// indexed by slot, each entry tagged with the version of the key that set it.
///
/// Branded like the pool: only keys of that pool type-check. An entry answers only the
/// key it was set with; when the pool's value is removed the entry stays (answering that
/// now-stale key) until it is overwritten by a newer key of the slot or removed, as in
/// slotmap's `SecondaryMap`. Use [`retain`](Self::retain) with
/// [`Pool::contains_key`](crate::Pool::contains_key) to drop entries of removed values.
///
/// The version rule: a slot's keys are ordered by age (each value put in a slot gets a
/// higher version than the one before), and an older key never overwrites the entry of
/// a newer one; see [`insert`](Self::insert).
///
/// # Examples
///
/// ```
/// use arena_core::{Pool, SecondaryMap};
///
/// Pool::with(|mut pool| {
///     let mut names = SecondaryMap::new();
///     let a = pool.insert_keyed([0.0_f32; 3]);
///     names.insert(a, "origin");
///     assert_eq!(names.get(a), Some(&"origin"));
///     let b = pool.insert_keyed([1.0; 3]);
///     assert_eq!(names.get(b), None);
/// });
/// ```
pub struct SecondaryMap<'id, V> {
    /// Per slot: the version of the key that set the entry, and the value.
    entries: Vec<Option<(NonZeroU32, V)>>,
    len: usize,
    /// The brand, taken from the first key inserted (zero-sized): what `retain` rebuilds
    /// keys with. `None` only while the map has never held an entry.
    brand: Option<Id<'id>>,
    _brand: PhantomData<Id<'id>>,
}

impl<'id, V> SecondaryMap<'id, V> {
    /// An empty map for the keys of the pool whose brand it is used with.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let mut map = arena_core::SecondaryMap::new();
    ///     map.insert(pool.insert_keyed(1), 'x');
    ///     assert_eq!(map.len(), 1);
    /// });
    /// ```
    #[must_use]
    pub fn new() -> Self {
        SecondaryMap { entries: Vec::new(), len: 0, brand: None, _brand: PhantomData }
    }

    /// Sets the entry of `key`; returns the previous value set with the same key.
    ///
    /// The entry of an *older* key of the same slot (its value was removed from the pool)
    /// is replaced and dropped, and `None` returned. A key older than the one whose entry
    /// is stored is stale: nothing is stored, the entry stays untouched, `value` is
    /// dropped and `None` returned, as slotmap's `SecondaryMap` does. (A stale key gets
    /// `None` from [`get`](Self::get) too, so the refused value could never be read.)
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(());
    ///     let mut map = arena_core::SecondaryMap::new();
    ///     assert_eq!(map.insert(k, 1), None);
    ///     assert_eq!(map.insert(k, 2), Some(1));
    ///
    ///     pool.remove_key(k);
    ///     let newer = pool.insert_keyed(()); // the same slot, a newer key
    ///     assert_eq!(map.insert(newer, 3), None); // replaces the stale entry
    ///     assert_eq!(map.insert(k, 4), None); // refused: `k` is older
    ///     assert_eq!(map.get(newer), Some(&3));
    /// });
    /// ```
    pub fn insert(&mut self, key: Key<'id>, value: V) -> Option<V> {
        let i = key.index();
        if i >= self.entries.len() {
            self.entries.resize_with(i + 1, || None);
        }
        self.brand = Some(key.brand());
        let entry = &mut self.entries[i];
        match entry {
            Some((version, old)) if *version == key.version() => {
                Some(core::mem::replace(old, value))
            }
            Some((version, _)) if *version > key.version() => None,
            _ => {
                let was_empty = entry.is_none();
                let stale = entry.replace((key.version(), value));
                if was_empty {
                    self.len += 1;
                }
                drop(stale); // last: its destructor may panic, the map is consistent
                None
            }
        }
    }

    /// The entry of `key`, if it was set with this very key.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(());
    ///     let mut map = arena_core::SecondaryMap::new();
    ///     map.insert(k, "v");
    ///     assert_eq!(map.get(k), Some(&"v"));
    /// });
    /// ```
    #[must_use]
    pub fn get(&self, key: Key<'id>) -> Option<&V> {
        match self.entries.get(key.index()) {
            Some(Some((version, value))) if *version == key.version() => Some(value),
            _ => None,
        }
    }

    /// The entry of `key`, mutably.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(());
    ///     let mut map = arena_core::SecondaryMap::new();
    ///     map.insert(k, 1);
    ///     *map.get_mut(k).unwrap() += 1;
    ///     assert_eq!(map.get(k), Some(&2));
    /// });
    /// ```
    #[must_use]
    pub fn get_mut(&mut self, key: Key<'id>) -> Option<&mut V> {
        match self.entries.get_mut(key.index()) {
            Some(Some((version, value))) if *version == key.version() => Some(value),
            _ => None,
        }
    }

    /// Removes the entry of `key` and returns it.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(());
    ///     let mut map = arena_core::SecondaryMap::new();
    ///     map.insert(k, 'a');
    ///     assert_eq!(map.remove(k), Some('a'));
    ///     assert!(map.is_empty());
    /// });
    /// ```
    pub fn remove(&mut self, key: Key<'id>) -> Option<V> {
        let entry = self.entries.get_mut(key.index())?;
        if entry.as_ref().is_some_and(|(version, _)| *version == key.version()) {
            self.len -= 1;
            entry.take().map(|(_, value)| value)
        } else {
            None
        }
    }

    /// Keeps the entries for which `keep` returns `true`, given the index and version the
    /// entry was set with packed back into a key.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_core::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(1);
    ///     let mut map = arena_core::SecondaryMap::new();
    ///     map.insert(k, "side data");
    ///     pool.remove_key(k);
    ///     map.retain(|key, _| pool.contains_key(key));
    ///     assert!(map.is_empty());
    /// });
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(Key<'id>, &mut V) -> bool) {
        let Some(brand) = self.brand else { return }; // never held an entry
        for (i, entry) in self.entries.iter_mut().enumerate() {
            if let Some((version, value)) = entry {
                // Entries exist only at indices of keys, which fit a `u32`.
                let key = Key::new(i as u32, *version, brand);
                if !keep(key, value) {
                    let removed = entry.take();
                    self.len -= 1;
                    drop(removed); // last: its destructor may panic, the count is right
                }
            }
        }
    }

    /// Number of entries.
    ///
    /// # Examples
    ///
    /// ```
    /// let map = arena_core::SecondaryMap::<'_, u8>::new();
    /// assert_eq!(map.len(), 0);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the map has no entry.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(arena_core::SecondaryMap::<'_, u8>::new().is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<V> Default for SecondaryMap<'_, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: fmt::Debug> fmt::Debug for SecondaryMap<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(
                self.entries
                    .iter()
                    .enumerate()
                    .filter_map(|(i, e)| e.as_ref().map(|(_, v)| (i, v))),
            )
            .finish()
    }
}
