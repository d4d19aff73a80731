//! A least-recently-used cache of four calibration records in front of a slow flash
//! chip, as a sensor hub keeps one. The cache takes no heap: the records sit in a pool
//! over fixed storage on the stack, and the recency order is a doubly linked list
//! threaded through them by keys of that very pool (`#[arena(brand = 'id, capacity =
//! 4)]` on the entry type, `Pool::with_storage_in`). A hit moves its entry to the front,
//! a miss reads the flash and, when the cache is full, evicts the entry at the back.
//! (The log of evictions and the printed lines are the example's own, on the heap.)
//!
//! The list's links are checked keys, not indices: an evicted entry's key is stale at
//! once, so a link left behind by a bug reads as `None` rather than as the record that
//! took the slot.
//!
//! `cargo run --example lru_cache`; `cargo test --example lru_cache` checks the hits,
//! the misses and the order of evictions.

use std::fmt::Write as _;

use arena_kit::{ArenaAlloc, Brand, Pool};

/// A sensor's calibration record, as the flash holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Calibration {
    offset: i16,
    gain: u16,
}

/// What the flash holds for `sensor` (a function of the id, so the output is checkable);
/// `reads` counts the slow reads.
fn read_flash(sensor: u16, reads: &mut u32) -> Calibration {
    *reads += 1;
    Calibration { offset: i16::try_from(sensor % 7).unwrap_or(0) - 3, gain: 1000 + sensor }
}

/// One cached record and its neighbours in recency order: the pool's value type names the
/// pool's own brand, so its links are keys of this pool and no other.
#[derive(ArenaAlloc)]
#[arena(brand = 'id, capacity = 4)]
struct Entry<'id> {
    sensor: u16,
    record: Calibration,
    /// The entry used just before this one (towards the front).
    newer: Option<EntryKey<'id>>,
    /// The entry used just after this one (towards the back).
    older: Option<EntryKey<'id>>,
}

/// The cache: the entries' pool, lent for the cache's life, and the two ends of the list.
struct Lru<'p, 'id> {
    entries: &'p mut Pool<'id, Entry<'id>>,
    front: Option<EntryKey<'id>>,
    back: Option<EntryKey<'id>>,
    reads: u32,
    evicted: Vec<u16>,
}

impl<'p, 'id> Lru<'p, 'id> {
    fn new(entries: &'p mut Pool<'id, Entry<'id>>) -> Self {
        Lru { entries, front: None, back: None, reads: 0, evicted: Vec::new() }
    }

    /// Takes `key` out of the list (the entry stays in the pool).
    fn unlink(&mut self, key: EntryKey<'id>) {
        let entry = self.entries.get_key(key).expect("a linked entry is in the pool");
        let (newer, older) = (entry.newer, entry.older);
        match newer.and_then(|k| self.entries.get_key_mut(k)) {
            Some(n) => n.older = older,
            None => self.front = older,
        }
        match older.and_then(|k| self.entries.get_key_mut(k)) {
            Some(o) => o.newer = newer,
            None => self.back = newer,
        }
    }

    /// Puts `key` at the front of the list.
    fn push_front(&mut self, key: EntryKey<'id>) {
        let old_front = self.front.replace(key);
        let entry = self.entries.get_key_mut(key).expect("a linked entry is in the pool");
        entry.newer = None;
        entry.older = old_front;
        match old_front.and_then(|k| self.entries.get_key_mut(k)) {
            Some(f) => f.newer = Some(key),
            None => self.back = Some(key),
        }
    }

    /// The record of `sensor`: from the cache (and it becomes the newest), or from the
    /// flash, evicting the oldest entry if the pool is full.
    fn get(&mut self, sensor: u16) -> Calibration {
        let hit = self.entries.iter().find(|(_, e)| e.sensor == sensor).map(|(k, _)| k);
        if let Some(key) = hit {
            self.unlink(key);
            self.push_front(key);
            return self.entries.get_key(key).expect("just linked").record;
        }
        let record = read_flash(sensor, &mut self.reads);
        let fresh = Entry { sensor, record, newer: None, older: None };
        let key = match self.entries.try_insert_keyed(fresh) {
            Ok(key) => key,
            Err(full) => {
                let oldest = self.back.expect("a full cache has a back");
                self.unlink(oldest);
                let gone = self.entries.remove_key(oldest).expect("the back is in the pool");
                self.evicted.push(gone.sensor);
                self.entries.insert_keyed(full.into_value())
            }
        };
        self.push_front(key);
        record
    }

    /// The cached sensors, newest first, following the links.
    fn order(&self) -> Vec<u16> {
        let mut order = Vec::new();
        let mut at = self.front;
        while let Some(entry) = at.and_then(|k| self.entries.get_key(k)) {
            order.push(entry.sensor);
            at = entry.older;
        }
        order
    }
}

/// Serves `requests` through a cache of four, returning what it printed and the cache's
/// counts: (flash reads, evicted sensors in order, final order newest first).
fn run(requests: &[u16]) -> (String, u32, Vec<u16>, Vec<u16>) {
    Brand::with(|brand| {
        // The storage names the brand, so it is made inside the brand's closure: here on
        // the stack, four entries and nothing else.
        let mut storage = EntryStorage::new();
        Pool::with_storage_in(&mut storage, brand, |entries| {
            let mut cache = Lru::new(entries);
            let mut out = String::new();
            for &sensor in requests {
                let reads = cache.reads;
                let record = cache.get(sensor);
                let how = if cache.reads > reads { "flash" } else { "cache" };
                let (offset, gain) = (record.offset, record.gain);
                writeln!(out, "sensor {sensor:>3}: offset {offset:>2}, gain {gain} ({how})")
                    .expect("a String takes every write");
            }
            let order = cache.order();
            (out, cache.reads, cache.evicted, order)
        })
    })
}

/// A morning's requests: three sensors polled in turn, a fourth and a fifth now and then.
const REQUESTS: &[u16] = &[10, 11, 12, 10, 13, 11, 14, 10, 12, 11, 10, 14];

fn main() {
    let (out, reads, evicted, order) = run(REQUESTS);
    print!("{out}");
    println!(
        "{} requests, {reads} flash reads; evicted {evicted:?}; cached {order:?}",
        REQUESTS.len()
    );
}

#[test]
fn hits_come_from_the_cache_and_the_oldest_entry_is_evicted() {
    let (out, reads, evicted, order) = run(REQUESTS);
    // Misses: 10 11 12 13 (the fourth fills the cache), 14 evicts 12 (the least
    // recently used, 10 and 11 having been read since), 12 evicts 13; the order is then
    // 12 10 14 11, and 11, 10 and 14 hit.
    assert_eq!(evicted, [12, 13]);
    assert_eq!(reads, 6, "five sensors, 12 read twice");
    assert_eq!(order, [14, 10, 11, 12]);
    assert_eq!(out.lines().count(), REQUESTS.len());
    assert!(out.starts_with("sensor  10: offset  0, gain 1010 (flash)\n"), "{out}");
    assert!(out.contains("sensor  10: offset  0, gain 1010 (cache)\n"), "{out}");
}

#[test]
fn an_evicted_entry_s_key_is_stale_at_once() {
    Brand::with(|brand| {
        let mut storage = EntryStorage::new();
        Pool::with_storage_in(&mut storage, brand, |entries| {
            let mut cache = Lru::new(entries);
            for sensor in [1, 2, 3, 4] {
                cache.get(sensor);
            }
            let oldest = cache.back.expect("four cached");
            cache.get(5); // evicts sensor 1, whose slot sensor 5 takes
            assert_eq!(cache.evicted, [1]);
            assert!(cache.entries.get_key(oldest).is_none(), "the old key names nothing");
            assert_eq!(cache.order(), [5, 4, 3, 2]);
        });
    });
}
