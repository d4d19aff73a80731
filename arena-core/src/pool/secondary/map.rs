//! [`SecondaryMap`]: a side table keyed by one pool's keys (slotmap's `SecondaryMap`).

#![expect(
    clippy::cast_possible_truncation,
    reason = "entries exist only at slot indices, which fit a u32"
)]

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
use core::ops::{Index, IndexMut};

use crate::error::{AllocError, TryAllocError, fail};
use crate::pool::memory::{Fixed, Heap, Memory};
use crate::pool::secondary::iter::{Iter, IterMut, Tagged};
use crate::pool::secondary::storage::SecondaryStorage;
use crate::pool::slot_buf::{NoRoom, SlotBuf};
use crate::pool::slot_key::{SlotKey, sealed::KeyParts};
use crate::pool::slots::{GetDisjointMutError, overlapping};
use crate::pool::version::NO_SLOT;

/// Extra data for the values of one pool, keyed by its keys: a `Vec` indexed by slot,
/// each entry tagged with the version of the key that set it. `K` is [`Key<'id>`](crate::Key)
/// (a branded [`Pool`](crate::Pool): only that pool's keys type-check) or
/// [`TypedKey<T>`](crate::TypedKey) (a [`KeyPool<T>`](crate::KeyPool)).
///
/// An entry answers only the key it was set with. The map does not know when the pool
/// removes a value: the entry stays (answering that now-stale key) until a newer key of
/// the slot overwrites it or it is removed, as in slotmap. Use [`retain`](Self::retain)
/// with the pool's `contains_key` to drop the entries of removed values.
///
/// The version rule: a slot's keys are ordered by age (each value put in a slot gets a
/// newer version than the one before), and an older key never overwrites the entry of a
/// newer one; see [`insert`](Self::insert). (Versions are compared within a window of
/// 2^29 generations of one slot: a stale entry outlived by half a billion reuses of its
/// slot may be taken for a newer one.)
///
/// # Cost
///
/// A slot's entry is the value and a `u32`; lookups are a bounds check and a compare.
/// Memory follows the highest slot index seen, not the number of entries: check a key
/// from outside against its pool before it sizes a map (see [`insert`](Self::insert)).
/// With feature `serde`, a map of [`TypedKey`](crate::TypedKey)s saves every slot up to
/// its last entry (`null` or `[version, value]`, slotmap's form), so a document sizes
/// the map it loads by its own length and a few bytes cannot ask for a far index.
///
/// # Examples
///
/// ```
/// use arena_kit::{Pool, SecondaryMap};
///
/// Pool::with(|mut pool| {
///     let mut names = SecondaryMap::new();
///     let a = pool.insert_keyed([0.0_f32; 3]);
///     names.insert(a, "origin");
///     assert_eq!(names[a], "origin");
///     let b = pool.insert_keyed([1.0; 3]);
///     assert_eq!(names.get(b), None);
/// });
/// ```
pub struct SecondaryMap<K: SlotKey, V, M = Heap> {
    /// Per slot: the version of the key that set the entry, and the value. A `Vec`'s
    /// parts on the heap, or a caller's [`SecondaryStorage`] (`pool/slot_buf.rs`).
    entries: SlotBuf<Tagged<V>>,
    len: usize,
    /// A key seen (the first inserted): what keys of other slots are rebuilt from (it
    /// carries the brand or type). `None` only while the map has never held an entry.
    model: Option<K>,
    /// Where the entries are ([`Heap`] or [`Fixed`]): for a map over storage, the
    /// storage's borrow (`pool/memory.rs`).
    _memory: PhantomData<M>,
}

/// A [`SecondaryMap`] in a caller's [`SecondaryStorage`], borrowed for `'s`: the side
/// table without an allocator, for keys of a [`FixedKeyPool`](crate::pool::FixedKeyPool)
/// or of a [`Pool`](crate::Pool) over storage.
///
/// The same map as a heap one (the same version rule, lookups, `retain`, iterators,
/// entries), except that it has entries for slots `0..N` only: [`insert`](SecondaryMap::insert)
/// of a key of a higher slot panics and [`try_insert`](SecondaryMap::try_insert) hands the
/// value back. Size it as the pool its keys come from. What would hand the entries on
/// past the borrow (the by-value iterator, `drain`, `Clone`, `Deserialize`) is a heap
/// map's only.
///
/// # Examples
///
/// ```
/// use arena_kit::pool::secondary::{FixedSecondaryMap, SecondaryStorage};
/// use arena_kit::pool::{FixedKeyPool, PoolStorage};
///
/// let mut names = PoolStorage::<&str, 4>::new();
/// let mut ages = SecondaryStorage::<u8, 4>::new();
/// let mut people = FixedKeyPool::in_storage(&mut names);
/// let mut age: FixedSecondaryMap<'_, _, u8> = FixedSecondaryMap::in_storage(&mut ages);
/// let ada = people.insert("Ada");
/// age.insert(ada, 36);
/// assert_eq!(age[ada], 36);
/// people.remove(ada);
/// age.retain(|k, _| people.contains_key(k));
/// assert!(age.is_empty());
/// ```
pub type FixedSecondaryMap<'s, K, V> = SecondaryMap<K, V, Fixed<'s>>;

#[cfg(feature = "alloc")]
impl<K: SlotKey, V> SecondaryMap<K, V> {
    /// An empty map.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let mut map = arena_kit::SecondaryMap::new();
    ///     map.insert(pool.insert_keyed(1), 'x');
    ///     assert_eq!(map.len(), 1);
    /// });
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self::over(SlotBuf::default())
    }

    /// An empty map with room for slots `0..capacity`.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// let mut map = arena_kit::SecondaryMap::with_capacity(16);
    /// map.insert(k, 1.5);
    /// assert_eq!(map[k], 1.5);
    /// ```
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        Self::over(SlotBuf::with_capacity(capacity))
    }

    /// Removes every entry and yields it with its key, in slot order; entries the
    /// iterator does not reach are dropped with it. (A heap map's only: the entries are
    /// gathered into a `Vec`.)
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// let mut map = arena_kit::SecondaryMap::new();
    /// map.insert(k, 'v');
    /// assert_eq!(map.drain().collect::<Vec<_>>(), [(k, 'v')]);
    /// assert!(map.is_empty());
    /// ```
    pub fn drain(&mut self) -> alloc::vec::IntoIter<(K, V)> {
        let model = self.model;
        let mut out = Vec::with_capacity(self.len);
        for (i, entry) in self.entries.iter_mut().enumerate() {
            if let (Some((version, value)), Some(model)) = (entry.take(), model) {
                out.push((model.with_parts(i as u32, version), value));
            }
        }
        self.len = 0;
        out.into_iter()
    }

    /// A map of `entries` by slot (at most `MAX_SLOTS`), whose keys are made like `model`.
    #[cfg(feature = "serde")]
    pub(crate) fn from_entries(entries: Vec<Tagged<V>>, model: K) -> Self {
        debug_assert!(entries.len() <= crate::pool::slots::MAX_SLOTS, "slot indices fit a u32");
        let len = entries.iter().filter(|entry| entry.is_some()).count();
        let mut buffer = SlotBuf::with_capacity(entries.len());
        for entry in entries {
            buffer.push(entry);
        }
        SecondaryMap { entries: buffer, len, model: Some(model), _memory: PhantomData }
    }
}

impl<'s, K: SlotKey, V> SecondaryMap<K, V, Fixed<'s>> {
    /// An empty map in `storage`: entries for slots `0..N`, and no allocator call ever
    /// (see [`FixedSecondaryMap`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::pool::secondary::{FixedSecondaryMap, SecondaryStorage};
    /// use arena_kit::pool::PoolStorage;
    /// use arena_kit::Pool;
    ///
    /// let (mut slots, mut side) = (PoolStorage::<u32, 8>::new(), SecondaryStorage::<bool, 8>::new());
    /// Pool::with_storage(&mut slots, |mut pool| {
    ///     let mut marked = FixedSecondaryMap::in_storage(&mut side);
    ///     let k = pool.insert_keyed(7);
    ///     marked.insert(k, true);
    ///     assert_eq!(marked.get(k), Some(&true));
    /// });
    /// ```
    #[must_use]
    pub fn in_storage<const N: usize>(storage: &'s mut SecondaryStorage<V, N>) -> Self {
        // SAFETY: `storage` is borrowed mutably for `'s`, and the map's type carries `'s`
        // (`Fixed<'s>`): the map is gone before the storage is used again or freed, and
        // nothing that would outlive it with the entries (the by-value iterator, `drain`,
        // a clone) exists for `Fixed` (`pool/memory.rs`).
        Self::over(unsafe { SlotBuf::fixed(storage.entries_mut()) })
    }
}

impl<K: SlotKey, V, M: Memory> SecondaryMap<K, V, M> {
    /// An empty map over `entries` (empty).
    fn over(entries: SlotBuf<Tagged<V>>) -> Self {
        debug_assert!(entries.is_empty(), "an empty buffer");
        SecondaryMap { entries, len: 0, model: None, _memory: PhantomData }
    }

    /// Entries (vacant) up to slot `i`, so that `entries[i]` exists.
    fn reach(&mut self, i: usize) -> Result<(), AllocError> {
        while self.entries.len() <= i {
            self.entries.try_reserve_one().map_err(|room| match room {
                NoRoom::Fixed(max) => AllocError::CapacityExceeded { max },
                #[cfg(feature = "alloc")]
                NoRoom::OutOfMemory => AllocError::OutOfMemory {
                    size: size_of::<Tagged<V>>(),
                    align: align_of::<Tagged<V>>(),
                },
            })?;
            self.entries.push(None);
        }
        Ok(())
    }

    /// Sets the entry of `key`; returns the previous value set with the same key.
    ///
    /// The map grows to `key`'s slot: memory follows the highest slot index it is given.
    /// A key made from bits that name no value ([`TypedKey::from_raw`] of a word no pool
    /// made) stores nothing and returns `None`; for keys from outside, check them against
    /// the pool (`contains_key`) before they size a map.
    ///
    /// [`TypedKey::from_raw`]: crate::TypedKey::from_raw
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
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(());
    ///     let mut map = arena_kit::SecondaryMap::new();
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
    #[track_caller]
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.try_insert(key, value) {
            Ok(old) => old,
            Err(e) => fail(e.error()),
        }
    }

    /// Like [`insert`](Self::insert), handing `value` back when the map cannot reach the
    /// key's slot: past a [`FixedSecondaryMap`]'s storage
    /// ([`AllocError::CapacityExceeded`]), or when the heap refuses.
    ///
    /// # Errors
    ///
    /// [`AllocError::CapacityExceeded`] or [`AllocError::OutOfMemory`], with `value`.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::pool::secondary::{FixedSecondaryMap, SecondaryStorage};
    ///
    /// let mut pool = arena_kit::KeyPool::new();
    /// let keys: Vec<_> = (0..3).map(|i| pool.insert(i)).collect();
    /// let mut storage = SecondaryStorage::<char, 2>::new();
    /// let mut map = FixedSecondaryMap::in_storage(&mut storage);
    /// assert_eq!(map.try_insert(keys[1], 'b').unwrap(), None);
    /// let refused = map.try_insert(keys[2], 'c').unwrap_err(); // slot 2: no entry for it
    /// assert_eq!(refused.into_value(), 'c');
    /// ```
    pub fn try_insert(&mut self, key: K, value: V) -> Result<Option<V>, TryAllocError<V>> {
        if key.slot() == NO_SLOT {
            return Ok(None); // a key that names no value (from bad raw bits): nothing to tag
        }
        let i = key.slot() as usize;
        if let Err(e) = self.reach(i) {
            return Err(TryAllocError::new(e, value));
        }
        if self.model.is_none() {
            self.model = Some(key);
        }
        let entry = &mut self.entries[i];
        match entry {
            Some((version, old)) if *version == key.version() => {
                Ok(Some(core::mem::replace(old, value)))
            }
            Some((version, _)) if key.version().is_older_than(*version) => Ok(None),
            _ => {
                let was_empty = entry.is_none();
                let stale = entry.replace((key.version(), value));
                if was_empty {
                    self.len += 1;
                }
                drop(stale); // last: its destructor may panic, the map is consistent
                Ok(None)
            }
        }
    }

    /// The entry of `key`, if it was set with this very key. The map does not know
    /// whether the pool still holds `key`'s value: a removed value's entry stays until it
    /// is removed or overwritten by a newer key of its slot.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(());
    ///     let mut map = arena_kit::SecondaryMap::new();
    ///     map.insert(k, "v");
    ///     assert_eq!(map.get(k), Some(&"v"));
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get(&self, key: K) -> Option<&V> {
        match self.entries.get(key.slot() as usize) {
            Some(Some((version, value))) if *version == key.version() => Some(value),
            _ => None,
        }
    }

    /// The entry of `key`, mutably, if it was set with this very key.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(());
    ///     let mut map = arena_kit::SecondaryMap::new();
    ///     map.insert(k, 1);
    ///     *map.get_mut(k).unwrap() += 1;
    ///     assert_eq!(map[k], 2);
    /// });
    /// ```
    #[inline]
    #[must_use]
    pub fn get_mut(&mut self, key: K) -> Option<&mut V> {
        match self.entries.get_mut(key.slot() as usize) {
            Some(Some((version, value))) if *version == key.version() => Some(value),
            _ => None,
        }
    }

    /// The entries of several keys, mutably at once (slotmap's `get_disjoint_mut`).
    ///
    /// # Errors
    ///
    /// [`GetDisjointMutError::OverlappingKeys`] if two keys name the same slot (checked
    /// first, over the whole array), [`GetDisjointMutError::StaleKey`] if a key has no
    /// entry.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let (a, b) = (pool.insert(()), pool.insert(()));
    /// let mut score = arena_kit::SecondaryMap::new();
    /// score.insert(a, 10);
    /// score.insert(b, 0);
    /// let [from, to] = score.get_disjoint_mut([a, b]).unwrap();
    /// (*from, *to) = (*from - 3, *to + 3);
    /// assert_eq!((score[a], score[b]), (7, 3));
    /// assert!(score.get_disjoint_mut([a, a]).is_err());
    /// ```
    pub fn get_disjoint_mut<const N: usize>(
        &mut self,
        keys: [K; N],
    ) -> Result<[&mut V; N], GetDisjointMutError> {
        let indices = keys.map(KeyParts::slot);
        if overlapping(&indices) {
            return Err(GetDisjointMutError::OverlappingKeys);
        }
        if !keys.iter().all(|&key| self.contains_key(key)) {
            return Err(GetDisjointMutError::StaleKey);
        }
        let entries = disjoint(&mut self.entries, indices.map(|i| i as usize));
        Ok(entries.map(|entry| match entry {
            Some((_, value)) => value,
            None => unreachable!("every key has an entry: checked above"),
        }))
    }

    /// Whether the map has an entry for `key`.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// let mut map = arena_kit::SecondaryMap::new();
    /// map.insert(k, ());
    /// assert!(map.contains_key(k));
    /// ```
    #[inline]
    #[must_use]
    pub fn contains_key(&self, key: K) -> bool {
        self.get(key).is_some()
    }

    /// Removes `key`'s entry and returns it, if it was set with this very key.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(());
    ///     let mut map = arena_kit::SecondaryMap::new();
    ///     map.insert(k, 5);
    ///     assert_eq!(map.remove(k), Some(5));
    ///     assert!(map.is_empty());
    /// });
    /// ```
    pub fn remove(&mut self, key: K) -> Option<V> {
        let entry = self.entries.get_mut(key.slot() as usize)?;
        if entry.as_ref().is_some_and(|(version, _)| *version == key.version()) {
            self.len -= 1;
            entry.take().map(|(_, value)| value)
        } else {
            None
        }
    }

    /// The entry of `key` for in-place manipulation; `None` if `key` is older than the key
    /// whose entry the slot holds (stale).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert("word");
    /// let mut counts = arena_kit::SecondaryMap::new();
    /// for _ in 0..3 {
    ///     *counts.entry(k).unwrap().or_insert(0) += 1;
    /// }
    /// assert_eq!(counts[k], 3);
    /// ```
    pub fn entry(&mut self, key: K) -> Option<Entry<'_, K, V, M>> {
        if key.slot() == NO_SLOT {
            return None;
        }
        let i = key.slot() as usize;
        if let Some(Some((version, _))) = self.entries.get(i) {
            if key.version().is_older_than(*version) {
                return None;
            }
        }
        Some(Entry { map: self, key })
    }

    /// Keeps the entries for which `keep` returns `true`, given the key each was set with.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::with(|mut pool| {
    ///     let k = pool.insert_keyed(1);
    ///     let mut map = arena_kit::SecondaryMap::new();
    ///     map.insert(k, "side data");
    ///     pool.remove_key(k);
    ///     map.retain(|key, _| pool.contains_key(key));
    ///     assert!(map.is_empty());
    /// });
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(K, &mut V) -> bool) {
        let Some(model) = self.model else { return }; // never held an entry
        for (i, entry) in self.entries.iter_mut().enumerate() {
            if let Some((version, value)) = entry {
                // Entries exist only at indices of keys, which fit a `u32`.
                let key = model.with_parts(i as u32, *version);
                if !keep(key, value) {
                    let removed = entry.take();
                    self.len -= 1;
                    drop(removed); // last: its destructor may panic, the count is right
                }
            }
        }
    }

    /// Removes every entry.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let mut map = arena_kit::SecondaryMap::new();
    /// map.insert(pool.insert(()), 1);
    /// map.clear();
    /// assert!(map.is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.retain(|_, _| false);
    }

    /// Every entry with its key, in slot order.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// let mut map = arena_kit::SecondaryMap::new();
    /// map.insert(k, 1);
    /// assert_eq!(map.iter().collect::<Vec<_>>(), [(k, &1)]);
    /// ```
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter::new(&self.entries, self.len, self.model)
    }

    /// Every entry with its key, mutably, in slot order.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// let mut map = arena_kit::SecondaryMap::new();
    /// map.insert(k, 1);
    /// map.iter_mut().for_each(|(_, v)| *v += 1);
    /// assert_eq!(map[k], 2);
    /// ```
    pub fn iter_mut(&mut self) -> IterMut<'_, K, V> {
        IterMut::new(&mut self.entries, self.len, self.model)
    }

    /// Every key with an entry, in slot order.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// let map: arena_kit::SecondaryMap<_, _> = [(k, 'x')].into_iter().collect();
    /// assert_eq!(map.keys().collect::<Vec<_>>(), [k]);
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = K> + '_ {
        self.iter().map(|(key, _)| key)
    }

    /// Every entry's value, in slot order.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let mut map = arena_kit::SecondaryMap::new();
    /// map.insert(pool.insert(()), 2);
    /// assert_eq!(map.values().sum::<i32>(), 2);
    /// ```
    pub fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.entries.iter().filter_map(|entry| entry.as_ref().map(|(_, value)| value))
    }

    /// Every entry's value, mutably, in slot order.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// let mut map = arena_kit::SecondaryMap::new();
    /// map.insert(k, 2);
    /// map.values_mut().for_each(|v| *v *= 10);
    /// assert_eq!(map[k], 20);
    /// ```
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> + '_ {
        self.entries.iter_mut().filter_map(|entry| entry.as_mut().map(|(_, value)| value))
    }

    /// Slots the map has room for without growing (its entry vector's capacity).
    ///
    /// # Examples
    ///
    /// ```
    /// let map = arena_kit::SecondaryMap::<arena_kit::TypedKey<u8>, u8>::with_capacity(8);
    /// assert!(map.capacity() >= 8);
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.entries.capacity()
    }

    /// The entries by slot, for `external_impls/serde.rs`.
    #[cfg(all(feature = "serde", feature = "alloc"))]
    pub(crate) fn entries(&self) -> &[Tagged<V>] {
        &self.entries
    }

    /// Number of entries.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::Pool::<()>::with(|_| {
    ///     let map = arena_kit::SecondaryMap::<arena_kit::Key<'_>, u8>::new();
    ///     assert_eq!(map.len(), 0);
    /// });
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
    /// let map = arena_kit::SecondaryMap::<arena_kit::TypedKey<u8>, u8>::new();
    /// assert!(map.is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A slot's entry in a [`SecondaryMap`], from [`SecondaryMap::entry`].
pub struct Entry<'a, K: SlotKey, V, M = Heap> {
    map: &'a mut SecondaryMap<K, V, M>,
    key: K,
}

impl<'a, K: SlotKey, V, M: Memory> Entry<'a, K, V, M> {
    /// The key of the entry.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// let mut map = arena_kit::SecondaryMap::<_, u8>::new();
    /// assert_eq!(map.entry(k).unwrap().key(), k);
    /// ```
    #[must_use]
    pub fn key(&self) -> K {
        self.key
    }

    /// The value, inserting `default` if the key has no entry yet.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// let mut map = arena_kit::SecondaryMap::new();
    /// assert_eq!(*map.entry(k).unwrap().or_insert(3), 3);
    /// ```
    pub fn or_insert(self, default: V) -> &'a mut V {
        self.or_insert_with(|| default)
    }

    /// The value, inserting `make()` if the key has no entry yet.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// let mut map = arena_kit::SecondaryMap::new();
    /// map.entry(k).unwrap().or_insert_with(Vec::new).push(1);
    /// assert_eq!(map[k], [1]);
    /// ```
    pub fn or_insert_with(self, make: impl FnOnce() -> V) -> &'a mut V {
        let Entry { map, key } = self;
        if !map.contains_key(key) {
            // The key is not older than the slot's entry (`entry` checked): it replaces it.
            map.insert(key, make());
        }
        map.get_mut(key).unwrap_or_else(|| unreachable!("inserted just above"))
    }

    /// The value, inserting `V::default()` if the key has no entry yet.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// let mut map = arena_kit::SecondaryMap::<_, u32>::new();
    /// *map.entry(k).unwrap().or_default() += 7;
    /// assert_eq!(map[k], 7);
    /// ```
    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }

    /// Runs `f` on the value if the key has an entry; returns the entry.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// let mut map = arena_kit::SecondaryMap::new();
    /// map.insert(k, 1);
    /// map.entry(k).unwrap().and_modify(|v| *v += 1).or_insert(0);
    /// assert_eq!(map[k], 2);
    /// ```
    #[must_use = "the entry is for chaining: `.and_modify(..).or_insert(..)`"]
    pub fn and_modify(self, f: impl FnOnce(&mut V)) -> Self {
        let Entry { map, key } = self;
        if let Some(value) = map.get_mut(key) {
            f(value);
        }
        Entry { map, key }
    }
}

#[cfg(feature = "alloc")]
impl<K: SlotKey, V> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

/// Indexing by key.
///
/// # Panics
///
/// If the map has no entry for the key.
impl<K: SlotKey, V, M: Memory> Index<K> for SecondaryMap<K, V, M> {
    type Output = V;

    #[track_caller]
    fn index(&self, key: K) -> &V {
        match self.get(key) {
            Some(value) => value,
            None => no_entry(key.slot()),
        }
    }
}

/// Indexing by key, mutably.
///
/// # Panics
///
/// If the map has no entry for the key.
impl<K: SlotKey, V, M: Memory> IndexMut<K> for SecondaryMap<K, V, M> {
    #[track_caller]
    fn index_mut(&mut self, key: K) -> &mut V {
        let slot = key.slot();
        match self.get_mut(key) {
            Some(value) => value,
            None => no_entry(slot),
        }
    }
}

#[cold]
#[track_caller]
fn no_entry(slot: u32) -> ! {
    panic!("arena-kit: the secondary map has no entry for this key (slot {slot})")
}

/// Every entry with its key, in slot order, the map consumed.
///
/// # Examples
///
/// ```
/// let mut pool = arena_kit::KeyPool::new();
/// let k = pool.insert(());
/// let mut map = arena_kit::SecondaryMap::new();
/// map.insert(k, 'v');
/// assert_eq!(map.into_iter().collect::<Vec<_>>(), [(k, 'v')]);
/// ```
impl<'a, K: SlotKey, V, M: Memory> IntoIterator for &'a SecondaryMap<K, V, M> {
    type Item = (K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, K: SlotKey, V, M: Memory> IntoIterator for &'a mut SecondaryMap<K, V, M> {
    type Item = (K, &'a mut V);
    type IntoIter = IterMut<'a, K, V>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

#[cfg(feature = "alloc")]
impl<K: SlotKey, V> IntoIterator for SecondaryMap<K, V> {
    type Item = (K, V);
    type IntoIter = alloc::vec::IntoIter<(K, V)>;

    fn into_iter(mut self) -> Self::IntoIter {
        self.drain()
    }
}

/// A copy of every entry, under the same keys.
///
/// # Examples
///
/// ```
/// let mut pool = arena_kit::KeyPool::new();
/// let k = pool.insert(());
/// let mut map = arena_kit::SecondaryMap::new();
/// map.insert(k, 1);
/// let mut copy = map.clone();
/// copy[k] += 1;
/// assert_eq!((map[k], copy[k]), (1, 2));
/// ```
#[cfg(feature = "alloc")]
impl<K: SlotKey, V: Clone> Clone for SecondaryMap<K, V> {
    fn clone(&self) -> Self {
        let mut entries = SlotBuf::with_capacity(self.entries.len());
        for entry in self.entries.iter() {
            entries.push(entry.clone());
        }
        SecondaryMap { entries, len: self.len, model: self.model, _memory: PhantomData }
    }
}

/// Inserts every pair, as [`SecondaryMap::insert`].
impl<K: SlotKey, V, M: Memory> Extend<(K, V)> for SecondaryMap<K, V, M> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, pairs: I) {
        for (key, value) in pairs {
            self.insert(key, value);
        }
    }
}

/// A map of every pair, as [`SecondaryMap::insert`].
#[cfg(feature = "alloc")]
impl<K: SlotKey, V> FromIterator<(K, V)> for SecondaryMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Self {
        let mut map = Self::new();
        map.extend(pairs);
        map
    }
}

impl<K: SlotKey + fmt::Debug, V: fmt::Debug, M: Memory> fmt::Debug for SecondaryMap<K, V, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: SlotKey, V, M> fmt::Debug for Entry<'_, K, V, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry").field("slot", &self.key.slot()).finish_non_exhaustive()
    }
}

/// The elements at `indices` of `slice`, mutably at once, in the order of `indices`.
/// Safe code: the slice is split at each index in ascending order, so the borrows are
/// disjoint by construction (`<[T]>::get_disjoint_mut` came after the crate's MSRV).
///
/// # Panics
///
/// If two indices are equal or one is out of bounds (the caller checks both first).
fn disjoint<T, const N: usize>(slice: &mut [T], indices: [usize; N]) -> [&mut T; N] {
    let mut order: [usize; N] = core::array::from_fn(|k| k);
    order.sort_unstable_by_key(|&k| indices[k]);
    let mut out: [Option<&mut T>; N] = core::array::from_fn(|_| None);
    let (mut rest, mut base) = (slice, 0);
    for k in order {
        let (_, tail) = core::mem::take(&mut rest).split_at_mut(indices[k] - base);
        let (first, tail) = tail.split_first_mut().expect("indices in bounds");
        out[k] = Some(first);
        (rest, base) = (tail, indices[k] + 1);
    }
    out.map(|r| r.expect("distinct indices"))
}
