//! [`KeyPool`]: the typed free-list pool you can store (a struct field, a `static`, an
//! async task's state), named by checked keys: slotmap's `SlotMap`, on the same storage as
//! the branded [`Pool`](crate::Pool) (`pool/slots.rs`).
//!
//! Keys cannot be checked by type here (there is no brand), so every use is checked at run
//! time against the slot's version, and keys of *other* pools are kept out by a salt: each
//! pool starts its generations at its own random offset (see [`KeyPool`]'s docs for the
//! exact guarantee).

use core::fmt;
use core::hash::{Hash, Hasher};
use core::iter::FusedIterator;
use core::marker::PhantomData;
use core::ops::{Index, IndexMut};

use crate::error::{TryAllocError, fail};
use crate::pool::PoolStats;
use crate::pool::memory::{Fixed, Heap, Memory};
use crate::pool::pool_key::{KeyData, PoolKey};
use crate::pool::slot_key::sealed::KeyParts;
use crate::pool::slots::{Claim, GetDisjointMutError, Slots};
use crate::pool::version::Version;
use crate::pool::{Drain, IntoIter, Iter, IterMut, PoolStorage};

/// A copyable, checked key to a value of a [`KeyPool<T>`]: 8 bytes, and
/// `Option<TypedKey<T>>` too.
///
/// The default key type of a [`KeyPool`]. Typed by the pool's value type, so a key of a
/// `KeyPool<Node>` does not type-check on a `KeyPool<Edge>`; two pools of the *same* value
/// type that must not share keys take named key types of
/// [`new_key_type!`](crate::new_key_type) instead (`KeyPool<String, CityKey>`). A stale key (its value was removed) gets
/// `None`; so, with overwhelming probability, does a key of another `KeyPool<T>` (see
/// [`KeyPool`]). Keys order by slot index, then version.
///
/// # Examples
///
/// ```
/// use arena_kit::{KeyPool, TypedKey};
///
/// let mut names = KeyPool::new();
/// let ada: TypedKey<&str> = names.insert("Ada");
/// assert_eq!(names[ada], "Ada");
/// assert_eq!(size_of::<Option<TypedKey<&str>>>(), 8);
/// assert_eq!(TypedKey::<&str>::from_raw(ada.to_raw()), ada);
/// ```
pub struct TypedKey<T> {
    data: KeyData,
    /// Typed by the pool's values; `fn() -> T` keeps the key `Send`, `Sync` and `Copy`
    /// whatever `T` is.
    _type: PhantomData<fn() -> T>,
}

impl<T> TypedKey<T> {
    /// The slot index.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// assert_eq!(pool.insert('a').index(), 0);
    /// ```
    #[must_use]
    pub fn index(&self) -> usize {
        self.data.index()
    }

    /// The key as one `u64` (version in the high half, index in the low), for FFI,
    /// databases and wire formats; [`from_raw`](Self::from_raw) turns it back.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(1);
    /// let raw: u64 = k.to_raw();
    /// assert_eq!(pool.get(arena_kit::TypedKey::from_raw(raw)), Some(&1));
    /// ```
    #[must_use]
    pub fn to_raw(self) -> u64 {
        self.data.to_raw()
    }

    /// A key from a `u64`, parsed: safe for any bits, whoever sent them (a cookie, a
    /// file, a database).
    ///
    /// A word that [`to_raw`](Self::to_raw) made comes back as the same key. Any other
    /// word whose version half could be a key's (bit 0 set, bit 1 clear) is the key it
    /// spells: checked on every use like any key, it names a value only if that slot
    /// holds one at exactly that version (which a key of another pool does with
    /// probability 2^-30, see [`KeyPool`]). A word whose version half no pool ever gives
    /// a key becomes a key that names no value in any pool. No word names a removed
    /// value or a vacant slot.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{KeyPool, TypedKey};
    ///
    /// let mut pool = KeyPool::<u8>::new();
    /// let k = pool.insert(7);
    /// assert_eq!(TypedKey::<u8>::from_raw(k.to_raw()), k);
    /// let nonsense = TypedKey::from_raw(0xdead_beef);
    /// assert_eq!(pool.get(nonsense), None);
    /// pool.remove(k);
    /// // The removed value's slot is vacant: no bits reach it.
    /// let vacant_pattern = k.to_raw().wrapping_add(3 << 32); // next generation, vacant
    /// assert_eq!(pool.remove(TypedKey::from_raw(vacant_pattern)), None);
    /// ```
    #[must_use]
    pub fn from_raw(raw: u64) -> Self {
        Self::from_data(KeyData::from_raw(raw))
    }
}

impl<T> PoolKey for TypedKey<T> {
    #[inline]
    fn from_data(data: KeyData) -> Self {
        TypedKey { data, _type: PhantomData }
    }
    #[inline]
    fn data(self) -> KeyData {
        self.data
    }
}

impl<T> Clone for TypedKey<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for TypedKey<T> {}
impl<T> PartialEq for TypedKey<T> {
    fn eq(&self, other: &Self) -> bool {
        self.data == other.data
    }
}
impl<T> Eq for TypedKey<T> {}
impl<T> PartialOrd for TypedKey<T> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for TypedKey<T> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.data.cmp(&other.data)
    }
}
impl<T> Hash for TypedKey<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.data.hash(state);
    }
}
impl<T> fmt::Debug for TypedKey<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TypedKey({:?})", self.data)
    }
}

/// Typed free-list storage you can keep anywhere, named by checked keys: slotmap's
/// `SlotMap<K, T>`, on the storage of [`Pool`](crate::Pool).
///
/// Its keys are of type `K`: [`TypedKey<T>`] by default ([`new`](Self::new) and the other
/// constructors without `key` in the name), or a type of
/// [`new_key_type!`](crate::new_key_type) ([`with_key`](Self::with_key)), for pools of one
/// value type whose keys must not mix. The key type changes nothing at run time: every
/// [`PoolKey`] is the same 8 bytes, checked the same way.
///
/// Use it where a pool must outlive a closure: a struct field, a `static` (behind a lock),
/// a server's state, an async task. Inside one function or closure, [`Pool`](crate::Pool)
/// names values by branded handles that need no run-time check at all.
///
/// # Keys and what they guarantee
///
/// - A key reaches the value it was made for while it is in the pool, and `None` after it
///   is removed: the slot's generation rose at the removal (a slot retires after 2^30 - 1
///   values rather than reuse a version).
/// - A key of another `KeyPool<T>` (or a `u64` made up) reaches a value here only if its
///   slot holds one whose version equals the key's. Each pool starts its generations at
///   a salt of 30 random bits (drawn from std's per-process random hasher keys; without
///   the `std` feature, from a per-process address and a counter), so for a key of
///   another pool that happens with probability 2^-30 per lookup: never in practice, but
///   not by proof (the branded [`Pool`](crate::Pool) proves it).
/// - Keys from outside are parsed, not trusted: [`TypedKey::from_raw`] and
///   `Deserialize` take any bits, and no bits name a removed value or a vacant slot
///   (the repository's `docs/keys-from-outside.md`).
/// - Keys survive a serde round trip of their pool (feature `serde`): the salt and every
///   slot's generation travel with it. Loading checks the document (a slot holds a
///   value exactly when its meta word says so, no slot is owned, salt and floor in
///   range) and rebuilds the free list and the count from the slots, so a hand-edited
///   file is an error or a consistent pool, never one that breaks later.
/// - A clone is the same pool twice: every key of the original names the same value in
///   the clone. From then on the two change apart, with the same salt, so a key one of
///   them makes afterwards may name a value of the other (the one at the same slot and
///   version): keep each clone's new keys to it.
///
/// # Cost
///
/// As [`Pool`](crate::Pool): a slot is the value (or a `u32`) and a `u32` of meta, side by
/// side; insert and remove are a free-list pop and push; a lookup is a bounds check and
/// one compare, in one cache line.
///
/// # Examples
///
/// ```
/// use arena_kit::{KeyPool, TypedKey};
///
/// struct Graph {
///     nodes: KeyPool<&'static str>,
///     edges: Vec<(TypedKey<&'static str>, TypedKey<&'static str>)>,
/// }
///
/// let mut g = Graph { nodes: KeyPool::new(), edges: Vec::new() };
/// let a = g.nodes.insert("a");
/// let b = g.nodes.insert("b");
/// g.edges.push((a, b));
/// g.nodes.remove(b);
/// let live: Vec<_> = g.edges.iter().filter(|(_, to)| g.nodes.contains_key(*to)).collect();
/// assert!(live.is_empty()); // the edge's target is gone, and the key says so
/// ```
pub struct KeyPool<T, K = TypedKey<T>, M = Heap> {
    slots: Slots<T>,
    /// The key type; `fn(K) -> K` owns no `K` and keeps the pool `Send` and `Sync` as
    /// its slots are.
    _key: PhantomData<fn(K) -> K>,
    /// Where the slots are ([`Heap`] or [`Fixed`]): for a pool over storage, the borrow
    /// of the storage (`pool/memory.rs`).
    _memory: PhantomData<M>,
}

/// A [`KeyPool`] in a caller's [`PoolStorage`], borrowed for `'s`: the storable, keyed
/// pool without an allocator (heapless's fixed pools, with checked keys).
///
/// The same pool as a heap [`KeyPool`] (the same keys, salt, generations, `retain`,
/// iterators, `get_disjoint_mut`, `compact`), except that it holds `N` values at most:
/// [`try_insert`](KeyPool::try_insert) on a full pool is
/// [`AllocError::CapacityExceeded`](crate::AllocError::CapacityExceeded), the value
/// handed back, and [`insert`](KeyPool::insert) panics. It never calls an allocator.
/// Keep it in a struct with the storage's lifetime, or `'static` over a `static`
/// storage handed out once. What would let the slots outlive the borrow is a heap
/// pool's only: the by-value iterator, `Clone`, `Deserialize`, `reserve`.
///
/// # Examples
///
/// A device table that outlives the function that set it up, in the caller's storage:
///
/// ```
/// use arena_kit::pool::{FixedKeyPool, PoolStorage};
/// use arena_kit::TypedKey;
///
/// struct Devices<'s> {
///     table: FixedKeyPool<'s, &'static str>,
///     console: TypedKey<&'static str>,
/// }
///
/// fn boot<'s>(storage: &'s mut PoolStorage<&'static str, 4>) -> Devices<'s> {
///     let mut table = FixedKeyPool::in_storage(storage);
///     let console = table.insert("uart0");
///     table.insert("spi1");
///     Devices { table, console }
/// }
///
/// let mut storage = PoolStorage::new();
/// let mut devices = boot(&mut storage);
/// assert_eq!(devices.table[devices.console], "uart0");
/// devices.table.retain(|_, name| name.starts_with("uart"));
/// assert_eq!(devices.table.len(), 1);
/// ```
pub type FixedKeyPool<'s, T, K = TypedKey<T>> = KeyPool<T, K, Fixed<'s>>;

/// A random 30-bit salt for a new pool (see [`KeyPool`]); `seed` (a storage's address,
/// or 0) is mixed in where there is no random source.
fn random_salt(seed: usize) -> u32 {
    #[cfg(feature = "std")]
    {
        use core::hash::BuildHasher;
        let _ = seed; // the hasher's keys are random already
        // `RandomState::new` draws per-process random keys and changes them per call.
        let mut hasher = std::hash::RandomState::new().build_hasher();
        hasher.write_u32(0x5a17);
        #[expect(clippy::cast_possible_truncation, reason = "any 32 bits of the hash")]
        let salt = hasher.finish() as u32;
        salt
    }
    #[cfg(not(feature = "std"))]
    {
        // A count of the salts drawn (where the target has the atomics), the counter's
        // address (which address space layout randomisation moves between processes) and
        // `seed`, spread by splitmix64.
        static COUNTER: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);
        #[cfg(target_has_atomic = "ptr")]
        let n = COUNTER.fetch_add(1, core::sync::atomic::Ordering::Relaxed) as u64;
        #[cfg(not(target_has_atomic = "ptr"))]
        let n = 0_u64;
        let mut z = n
            ^ (core::ptr::from_ref(&COUNTER).addr() as u64).rotate_left(17)
            ^ (seed as u64).rotate_left(41);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        #[expect(clippy::cast_possible_truncation, reason = "any 32 bits of the mix")]
        let salt = (z ^ (z >> 31)) as u32;
        salt
    }
}

#[cfg(feature = "alloc")]
impl<T> KeyPool<T> {
    /// An empty pool with a salt of its own; allocates nothing yet.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::KeyPool::<String>::new();
    /// assert!(pool.is_empty());
    /// ```
    #[must_use]
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty pool with room for `capacity` values.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::KeyPool::<u64>::with_capacity(100);
    /// assert!(pool.capacity() >= 100);
    /// ```
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        Self::with_capacity_and_key(capacity)
    }

    /// An empty pool whose generations start at `salt` (its low 30 bits) instead of a
    /// random salt: reproducible keys and saves. Two pools made with the same salt and
    /// the same inserts and removals give the same keys, and save (serde) to the same
    /// bytes, run after run, so a saved pool can be committed, diffed or compared with a
    /// golden file; a small salt also keeps every key's version short in a text format.
    ///
    /// What it gives up: a key of another pool with the same salt names a value here
    /// whenever the slot and generation match, where random salts make that a 2^-30
    /// chance. Give pools whose keys could meet different salts (or use
    /// [`new`](Self::new)), and keep the default where keys travel between pools.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::KeyPool;
    ///
    /// let build = || {
    ///     let mut pool = KeyPool::with_salt(0);
    ///     let a = pool.insert("a");
    ///     pool.insert("b");
    ///     pool.remove(a);
    ///     pool
    /// };
    /// let (one, two) = (build(), build());
    /// assert_eq!(one.keys().collect::<Vec<_>>(), two.keys().collect::<Vec<_>>());
    /// ```
    #[must_use]
    pub fn with_salt(salt: u32) -> Self {
        Self::with_capacity_and_salt(0, salt)
    }

    /// [`with_salt`](Self::with_salt) with room for `capacity` values.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::KeyPool::<u64>::with_capacity_and_salt(100, 7);
    /// assert!(pool.capacity() >= 100);
    /// ```
    #[must_use]
    pub fn with_capacity_and_salt(capacity: usize, salt: u32) -> Self {
        KeyPool::from_slots(Slots::with_capacity(capacity, salt))
    }
}

#[cfg(feature = "alloc")]
impl<T, K: PoolKey> KeyPool<T, K> {
    /// An empty pool whose keys are of type `K`, a key type of
    /// [`new_key_type!`](crate::new_key_type) (or [`TypedKey<T>`], as [`new`](Self::new)
    /// makes it): [`new`](Self::new) for a named key type. Allocates nothing yet.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::KeyPool;
    ///
    /// arena_kit::new_key_type! { struct TownKey; }
    ///
    /// let mut towns: KeyPool<&str, TownKey> = KeyPool::with_key();
    /// let york: TownKey = towns.insert("York");
    /// assert_eq!(towns[york], "York");
    /// ```
    #[must_use]
    pub fn with_key() -> Self {
        Self::with_capacity_and_key(0)
    }

    /// [`with_key`](Self::with_key) with room for `capacity` values.
    ///
    /// # Examples
    ///
    /// ```
    /// arena_kit::new_key_type! { struct JobKey; }
    ///
    /// let pool = arena_kit::KeyPool::<u64, JobKey>::with_capacity_and_key(100);
    /// assert!(pool.capacity() >= 100);
    /// ```
    #[must_use]
    pub fn with_capacity_and_key(capacity: usize) -> Self {
        KeyPool::from_slots(Slots::with_capacity(capacity, random_salt(0)))
    }

    /// [`with_key`](Self::with_key) with the generations starting at `salt`, for
    /// reproducible keys and saves (as [`with_salt`](Self::with_salt), which says what it
    /// gives up).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{KeyPool, PoolKey};
    ///
    /// arena_kit::new_key_type! { struct NoteKey; }
    ///
    /// let mut notes = KeyPool::<&str, NoteKey>::with_key_and_salt(0);
    /// assert_eq!(notes.insert("do").data().to_raw(), 1 << 32);
    /// ```
    #[must_use]
    pub fn with_key_and_salt(salt: u32) -> Self {
        KeyPool::from_slots(Slots::with_capacity(0, salt))
    }

    /// Makes room for `additional` more values.
    ///
    /// # Panics
    ///
    /// As `Vec::reserve`.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::<u8>::new();
    /// pool.reserve(10);
    /// assert!(pool.capacity() >= 10);
    /// ```
    pub fn reserve(&mut self, additional: usize) {
        self.slots.reserve(additional);
    }
}

impl<'s, T> KeyPool<T, TypedKey<T>, Fixed<'s>> {
    /// An empty pool in `storage`, with a salt of its own: `N` values at most, and no
    /// allocator call ever (see [`FixedKeyPool`](crate::pool::FixedKeyPool)).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::pool::{FixedKeyPool, PoolStorage};
    ///
    /// let mut storage = PoolStorage::<&str, 2>::new();
    /// let mut pool = FixedKeyPool::in_storage(&mut storage);
    /// let a = pool.insert("a");
    /// pool.insert("b");
    /// assert!(pool.try_insert("c").is_err()); // full: "c" comes back
    /// assert_eq!(pool.remove(a), Some("a"));
    /// ```
    #[must_use]
    pub fn in_storage<const N: usize>(storage: &'s mut PoolStorage<T, N>) -> Self {
        Self::in_storage_with_key(storage)
    }
}

impl<'s, T, K: PoolKey> KeyPool<T, K, Fixed<'s>> {
    /// [`in_storage`](Self::in_storage) with keys of type `K`, a key type of
    /// [`new_key_type!`](crate::new_key_type).
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::pool::{FixedKeyPool, PoolStorage};
    ///
    /// arena_kit::new_key_type! { struct PortKey; }
    ///
    /// let mut storage = PoolStorage::<u16, 8>::new();
    /// let mut ports: FixedKeyPool<'_, u16, PortKey> = FixedKeyPool::in_storage_with_key(&mut storage);
    /// let http: PortKey = ports.insert(80);
    /// assert_eq!(ports[http], 80);
    /// ```
    #[must_use]
    pub fn in_storage_with_key<const N: usize>(storage: &'s mut PoolStorage<T, N>) -> Self {
        let seed = core::ptr::from_mut(storage).addr();
        Self::in_storage_with_key_and_salt(storage, random_salt(seed))
    }

    /// [`in_storage_with_key`](Self::in_storage_with_key) with the generations starting
    /// at `salt`, for reproducible keys (as [`KeyPool::with_salt`], which says what it
    /// gives up). `K` may be [`TypedKey<T>`].
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::pool::{FixedKeyPool, PoolStorage};
    /// use arena_kit::TypedKey;
    ///
    /// let mut storage = PoolStorage::<char, 4>::new();
    /// let mut pool: FixedKeyPool<'_, char> = FixedKeyPool::in_storage_with_key_and_salt(&mut storage, 0);
    /// let k: TypedKey<char> = pool.insert('x');
    /// assert_eq!(k.to_raw(), 1 << 32); // slot 0, the first version of salt 0
    /// ```
    #[must_use]
    pub fn in_storage_with_key_and_salt<const N: usize>(
        storage: &'s mut PoolStorage<T, N>,
        salt: u32,
    ) -> Self {
        // SAFETY: `storage` is borrowed mutably for `'s`, and the pool's type carries `'s`
        // (`Fixed<'s>`): the pool is gone before the storage is used again or freed, and
        // nothing of the pool that outlives it (the by-value iterator, a clone) exists for
        // `Fixed` (`pool/memory.rs`).
        let slots = unsafe { Slots::fixed(storage.slots_mut(), salt) };
        KeyPool::from_slots(slots)
    }
}

impl<T, K: PoolKey, M: Memory> KeyPool<T, K, M> {
    fn from_slots(slots: Slots<T>) -> Self {
        KeyPool { slots, _key: PhantomData, _memory: PhantomData }
    }

    /// Inserts `value` and returns its key.
    ///
    /// # Panics
    ///
    /// Past `u32::MAX - 1` slots, or out of memory.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(5);
    /// assert_eq!(pool[k], 5);
    /// ```
    #[inline]
    #[track_caller]
    pub fn insert(&mut self, value: T) -> K {
        match self.slots.vacant() {
            Ok(entry) => {
                let (index, version) = entry.fill(value, false);
                key(index, version)
            }
            Err(e) => fail(e),
        }
    }

    /// Like [`insert`](Self::insert), handing `value` back when the index space or memory
    /// is exhausted.
    ///
    /// # Errors
    ///
    /// [`AllocError::CapacityExceeded`](crate::AllocError::CapacityExceeded) or
    /// [`AllocError::OutOfMemory`](crate::AllocError::OutOfMemory), with `value`.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.try_insert('x').unwrap();
    /// assert_eq!(pool.remove(k), Some('x'));
    /// ```
    pub fn try_insert(&mut self, value: T) -> Result<K, TryAllocError<T>> {
        match self.slots.vacant() {
            Ok(entry) => {
                let (index, version) = entry.fill(value, false);
                Ok(key(index, version))
            }
            Err(e) => Err(TryAllocError::new(e, value)),
        }
    }

    /// Claims the slot the next value will take, so its key is known first (see
    /// [`Pool::vacant_entry`](crate::Pool::vacant_entry)). The key is burnt when the
    /// claim is made: an entry dropped unfilled, or forgotten, leaves a key that never
    /// names a value.
    ///
    /// # Panics
    ///
    /// As [`insert`](Self::insert).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let entry = pool.vacant_entry();
    /// let k = entry.key();
    /// entry.insert(k.index());
    /// assert_eq!(pool[k], 0);
    /// ```
    #[track_caller]
    pub fn vacant_entry(&mut self) -> KeyVacantEntry<'_, T, K> {
        match self.slots.claim() {
            Ok(claim) => KeyVacantEntry { claim, _key: PhantomData },
            Err(e) => fail(e),
        }
    }

    /// Inserts the value `make` builds from its own key (slotmap's `insert_with_key`). If
    /// `make` panics the pool is unchanged and the key it was given never names a value.
    ///
    /// # Panics
    ///
    /// As [`insert`](Self::insert), and if `make` panics.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert_with_key(|me| format!("I live in slot {}", me.index()));
    /// assert_eq!(pool[k], "I live in slot 0");
    /// ```
    #[track_caller]
    pub fn insert_with_key(&mut self, make: impl FnOnce(K) -> T) -> K {
        let entry = self.vacant_entry();
        let key = entry.key();
        // The claim burnt `key`: if `make` panics, it never names a value.
        let value = make(key);
        entry.insert(value)
    }

    /// The value of `key`, if it is still in the pool.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert("v");
    /// assert_eq!(pool.get(k), Some(&"v"));
    /// pool.remove(k);
    /// assert_eq!(pool.get(k), None);
    /// ```
    #[inline]
    #[must_use]
    pub fn get(&self, key: K) -> Option<&T> {
        self.slots.get_unowned(key.slot(), key.version())
    }

    /// The value of `key`, mutably, if it is still in the pool.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(1);
    /// *pool.get_mut(k).unwrap() += 1;
    /// assert_eq!(pool[k], 2);
    /// ```
    #[inline]
    #[must_use]
    pub fn get_mut(&mut self, key: K) -> Option<&mut T> {
        self.slots.get_unowned_mut(key.slot(), key.version())
    }

    /// The values of several keys, mutably at once (slotmap's and slab's
    /// `get_disjoint_mut`).
    ///
    /// # Errors
    ///
    /// [`GetDisjointMutError::OverlappingKeys`] if two keys are equal (checked first, over
    /// the whole array), [`GetDisjointMutError::StaleKey`] if a key names no value.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{GetDisjointMutError, KeyPool};
    ///
    /// let mut pool = KeyPool::new();
    /// let (a, b) = (pool.insert(1), pool.insert(2));
    /// let [x, y] = pool.get_disjoint_mut([a, b]).unwrap();
    /// std::mem::swap(x, y);
    /// assert_eq!((pool[a], pool[b]), (2, 1));
    /// assert_eq!(pool.get_disjoint_mut([a, a]).unwrap_err(), GetDisjointMutError::OverlappingKeys);
    /// ```
    pub fn get_disjoint_mut<const N: usize>(
        &mut self,
        keys: [K; N],
    ) -> Result<[&mut T; N], GetDisjointMutError> {
        self.slots.get_disjoint_mut(keys.map(|k| (k.slot(), k.version())))
    }

    /// Removes `key`'s value and returns it; `None` if the key is stale.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(3);
    /// assert_eq!(pool.remove(k), Some(3));
    /// assert_eq!(pool.remove(k), None);
    /// ```
    #[inline]
    pub fn remove(&mut self, key: K) -> Option<T> {
        self.slots.remove(key.slot(), key.version())
    }

    /// Whether `key`'s value is in the pool.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// assert!(pool.contains_key(k));
    /// ```
    #[inline]
    #[must_use]
    pub fn contains_key(&self, key: K) -> bool {
        self.slots.contains_unowned(key.slot(), key.version())
    }

    /// Number of values.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// pool.insert(1);
    /// assert_eq!(pool.len(), 1);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the pool holds no value.
    ///
    /// # Examples
    ///
    /// ```
    /// assert!(arena_kit::KeyPool::<u8>::new().is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.slots.len() == 0
    }

    /// Values the pool holds without growing.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(arena_kit::KeyPool::<u8>::new().capacity(), 0);
    /// ```
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.slots.capacity()
    }

    /// Gives back the trailing vacant slots and the spare buffer; keys of removed values
    /// stay stale.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let keys: Vec<_> = (0..10).map(|i| pool.insert(i)).collect();
    /// for &k in &keys[2..] {
    ///     pool.remove(k);
    /// }
    /// pool.shrink_to_fit();
    /// assert_eq!(pool.stats().free, 0);
    /// assert_eq!(pool.get(keys[5]), None);
    /// ```
    pub fn shrink_to_fit(&mut self) {
        self.slots.shrink_to_fit();
    }

    /// The free-slot policy: past twice `max_free` vacant slots after a removal, the
    /// trailing ones go back (see [`Pool::set_max_free`](crate::Pool::set_max_free)).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// pool.set_max_free(Some(4));
    /// let keys: Vec<_> = (0..100).map(|i| pool.insert(i)).collect();
    /// for &k in keys.iter().rev() {
    ///     pool.remove(k);
    /// }
    /// assert!(pool.stats().free <= 8);
    /// ```
    pub fn set_max_free(&mut self, max_free: Option<usize>) {
        self.slots.set_max_free(max_free);
    }

    /// The pool's counters.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(1);
    /// pool.remove(k);
    /// assert_eq!((pool.stats().live, pool.stats().peak), (0, 1));
    /// ```
    #[must_use]
    pub fn stats(&self) -> PoolStats {
        self.slots.stats()
    }

    /// Keeps the values for which `keep` returns `true`, removes the others.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// for i in 0..10 {
    ///     pool.insert(i);
    /// }
    /// pool.retain(|_, v| *v % 3 == 0);
    /// assert_eq!(pool.len(), 4);
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(K, &mut T) -> bool) {
        self.slots.retain(|index, version, value| keep(key(index, version), value));
    }

    /// Removes every value; every key goes stale. The buffer stays for reuse, and new
    /// values take slots 0, 1, 2... again, as after slab's `clear`.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(1);
    /// pool.clear();
    /// assert!(pool.is_empty() && pool.get(k).is_none());
    /// ```
    pub fn clear(&mut self) {
        self.retain(|_, _| false);
        self.slots.truncate_vacant_tail();
    }

    /// Removes the values one by one as the returned iterator yields them with their (now
    /// stale) keys, in slot order (from either end). The pool stays usable: dropping the
    /// iterator removes what it did not reach.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// pool.insert('a');
    /// pool.insert('b');
    /// let all: String = pool.drain().map(|(_, c)| c).collect();
    /// assert_eq!((all.as_str(), pool.len()), ("ab", 0));
    /// ```
    pub fn drain(&mut self) -> Drain<'_, K, T> {
        let unowned = self.slots.len(); // a `KeyPool` owns no slot
        Drain::new(self.slots.drain_unowned(unowned), K::from_data(KeyData::model()))
    }

    /// Defragments the pool (slab's `compact`): moves values from the highest slots into
    /// the lowest vacant ones until the values fill a prefix of the slots, then gives
    /// back the slots and buffer past them. Each move is announced first as
    /// `rekey(value, old_key, new_key)`, for the caller to update where it kept the key;
    /// if `rekey` returns `false`, that value stays and compaction stops there.
    ///
    /// A moved value's old key is stale at once (`get` gives `None`, never another
    /// value); its new key is what `rekey` was told. If `rekey` panics, the value it was
    /// given stays where it was with its key, the moves made before stand, and the pool
    /// stays consistent (slab loses the value it was moving). Costs one pass over the
    /// slots, and a move per value that sits above a hole.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::collections::HashMap;
    ///
    /// let mut pool = arena_kit::KeyPool::new();
    /// let mut by_name = HashMap::new();
    /// for name in ["ada", "bob", "cy", "dee"] {
    ///     by_name.insert(name, pool.insert(name));
    /// }
    /// pool.remove(by_name.remove("ada").unwrap());
    /// pool.compact(|name, _old, new| {
    ///     by_name.insert(*name, new); // "dee" moves into slot 0
    ///     true
    /// });
    /// assert_eq!(pool.stats().free, 0);
    /// assert_eq!(by_name["dee"].index(), 0);
    /// assert!(by_name.iter().all(|(name, &k)| pool[k] == *name));
    /// ```
    pub fn compact(&mut self, mut rekey: impl FnMut(&mut T, K, K) -> bool) {
        self.slots.compact(|value, (old_index, old_version), (new_index, new_version)| {
            rekey(value, key(old_index, old_version), key(new_index, new_version))
        });
    }

    /// Every value with its key, in slot order (from either end; exact-size, `Clone`).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(7);
    /// assert_eq!(pool.iter().next(), Some((k, &7)));
    /// ```
    #[must_use]
    pub fn iter(&self) -> Iter<'_, K, T> {
        Iter::new(self.slots.iter(), K::from_data(KeyData::model()))
    }

    /// Every value with its key, mutably, in slot order (from either end; exact-size).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(7);
    /// for (_, v) in pool.iter_mut() {
    ///     *v += 1;
    /// }
    /// assert_eq!(pool[k], 8);
    /// ```
    pub fn iter_mut(&mut self) -> IterMut<'_, K, T> {
        IterMut::new(self.slots.iter_mut(), K::from_data(KeyData::model()))
    }

    /// Every key, in slot order (from either end; exact-size, `Clone`).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(());
    /// assert_eq!(pool.keys().collect::<Vec<_>>(), [k]);
    /// ```
    #[must_use]
    pub fn keys(
        &self,
    ) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator + FusedIterator + Clone + '_ {
        self.iter().map(|(key, _)| key)
    }

    /// Every value, in slot order (from either end; exact-size, `Clone`).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// pool.insert(4);
    /// assert_eq!(pool.values().sum::<i32>(), 4);
    /// ```
    #[must_use]
    pub fn values(
        &self,
    ) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator + FusedIterator + Clone + '_ {
        self.iter().map(|(_, value)| value)
    }

    /// Every value, mutably, in slot order (from either end; exact-size).
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.insert(4);
    /// pool.values_mut().for_each(|v| *v *= 2);
    /// assert_eq!(pool[k], 8);
    /// ```
    pub fn values_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = &mut T> + ExactSizeIterator + FusedIterator + '_ {
        self.iter_mut().map(|(_, value)| value)
    }
}

#[cfg(all(feature = "serde", feature = "alloc"))]
impl<T, K: PoolKey, M: Memory> KeyPool<T, K, M> {
    /// What a serialised pool is made of (see `external_impls/serde.rs`).
    pub(crate) fn parts(
        &self,
    ) -> (u32, u32, impl ExactSizeIterator<Item = (u32, Option<&T>)> + Clone + '_) {
        self.slots.parts()
    }
}

#[cfg(all(feature = "serde", feature = "alloc"))]
impl<T, K: PoolKey> KeyPool<T, K> {
    /// A pool from [`parts`](Self::parts), checked.
    pub(crate) fn from_parts(
        salt: u32,
        floor: u32,
        slots: alloc::vec::Vec<(u32, Option<T>)>,
    ) -> Result<Self, &'static str> {
        Ok(KeyPool::from_slots(Slots::from_parts(salt, floor, slots)?))
    }
}

#[cfg(feature = "alloc")]
impl<T, K: PoolKey> Default for KeyPool<T, K> {
    fn default() -> Self {
        Self::with_key()
    }
}

/// Indexing by key.
///
/// # Panics
///
/// If the key is stale (or of another pool): use [`KeyPool::get`] where that can happen.
impl<T, K: PoolKey, M: Memory> Index<K> for KeyPool<T, K, M> {
    type Output = T;

    #[track_caller]
    fn index(&self, key: K) -> &T {
        match self.get(key) {
            Some(value) => value,
            None => stale(key),
        }
    }
}

/// Indexing by key, mutably.
///
/// # Panics
///
/// As [`Index`].
impl<T, K: PoolKey, M: Memory> IndexMut<K> for KeyPool<T, K, M> {
    #[track_caller]
    fn index_mut(&mut self, key: K) -> &mut T {
        match self.slots.get_unowned_mut(key.slot(), key.version()) {
            Some(value) => value,
            None => stale(key),
        }
    }
}

#[cold]
#[track_caller]
fn stale<K: PoolKey>(key: K) -> ! {
    panic!(
        "arena-kit: {key:?} is stale: its value was removed from the pool (or it is another pool's key)"
    )
}

/// Every value with its key, in slot order, the pool consumed. A heap pool's only: the
/// iterator owns the buffer, and a pool over storage may not hand its storage on.
impl<T, K: PoolKey> IntoIterator for KeyPool<T, K> {
    type Item = (K, T);
    type IntoIter = IntoIter<K, T>;

    fn into_iter(self) -> Self::IntoIter {
        IntoIter::new(self.slots.into_iter(), K::from_data(KeyData::model()))
    }
}

/// Every value with its key, in slot order: [`KeyPool::iter`].
impl<'a, T, K: PoolKey, M: Memory> IntoIterator for &'a KeyPool<T, K, M> {
    type Item = (K, &'a T);
    type IntoIter = Iter<'a, K, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Every value with its key, mutably, in slot order: [`KeyPool::iter_mut`].
impl<'a, T, K: PoolKey, M: Memory> IntoIterator for &'a mut KeyPool<T, K, M> {
    type Item = (K, &'a mut T);
    type IntoIter = IterMut<'a, K, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// A copy of every value, under the same keys: a key of the original names the same
/// value in the copy (they start as one pool, twice; from then on each changes alone).
/// Costs a clone per value and a copy of the slots.
///
/// # Examples
///
/// ```
/// let mut pool = arena_kit::KeyPool::new();
/// let k = pool.insert(String::from("kept"));
/// let mut copy = pool.clone();
/// copy[k].push('!');
/// assert_eq!((pool[k].as_str(), copy[k].as_str()), ("kept", "kept!"));
/// ```
#[cfg(feature = "alloc")]
impl<T: Clone, K: PoolKey> Clone for KeyPool<T, K> {
    fn clone(&self) -> Self {
        KeyPool::from_slots(self.slots.clone())
    }

    /// Drops this pool's values and clones `source`'s into its buffer (slab's
    /// `clone_from`); if a destructor or a clone panics, this pool is left empty.
    fn clone_from(&mut self, source: &Self) {
        self.slots.clone_from(&source.slots);
    }
}

/// The key of slot `index` at `version`, of whichever key type the caller's pool has.
fn key<K: PoolKey>(index: u32, version: Version) -> K {
    K::from_data(KeyData::new(index, version))
}

impl<T, K: PoolKey, M: Memory> fmt::Debug for KeyPool<T, K, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyPool")
            .field("type", &core::any::type_name::<T>())
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

/// A claimed slot of a [`KeyPool`], from [`KeyPool::vacant_entry`]: its key is known, the
/// value not yet stored. Dropped unfilled (or forgotten), it leaves the pool as it was,
/// but for the key, which was burnt when the slot was claimed and never names a value.
pub struct KeyVacantEntry<'a, T, K = TypedKey<T>> {
    claim: Claim<'a, T>,
    _key: PhantomData<fn(K) -> K>,
}

impl<T, K: PoolKey> KeyVacantEntry<'_, T, K> {
    /// The key the value will have.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let entry = pool.vacant_entry();
    /// let k = entry.key();
    /// assert_eq!(entry.insert('v'), k);
    /// ```
    #[must_use]
    pub fn key(&self) -> K {
        key(self.claim.index(), self.claim.version())
    }

    /// Stores `value` in the slot and returns its key.
    ///
    /// # Examples
    ///
    /// ```
    /// let mut pool = arena_kit::KeyPool::new();
    /// let k = pool.vacant_entry().insert(1);
    /// assert_eq!(pool[k], 1);
    /// ```
    pub fn insert(self, value: T) -> K {
        let (index, version) = self.claim.fill(value, false);
        key(index, version)
    }
}

impl<T, K> fmt::Debug for KeyVacantEntry<'_, T, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyVacantEntry").field("slot", &self.claim.index()).finish()
    }
}
