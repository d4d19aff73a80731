//! The `serde` feature: keys and storable pools survive a round trip (every live key
//! still names its value, stale keys stay stale, other pools' keys stay out), and bad
//! input is an error, not a broken pool.
#![cfg(feature = "serde")]

use arena_kit::{BlockPool, KeyPool, SecondaryMap, TypedKey};

fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned>(value: &T) -> T {
    serde_json::from_str(&serde_json::to_string(value).unwrap()).unwrap()
}

#[test]
fn keys_round_trip_as_index_and_version() {
    let mut pool = KeyPool::new();
    let k = pool.insert('x');
    let json = serde_json::to_string(&k).unwrap();
    assert!(json.starts_with(r#"{"index":0,"version":"#), "{json}");
    let back: TypedKey<char> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, k);
}

#[test]
fn a_pool_round_trip_keeps_live_keys_live_and_stale_keys_stale() {
    let mut pool = KeyPool::new();
    let keys: Vec<_> = (0..20).map(|i| pool.insert(format!("v{i}"))).collect();
    for &k in &keys[5..15] {
        pool.remove(k);
    }
    let reused = pool.insert("reused".to_owned()); // a slot's second value
    pool.shrink_to_fit();
    let back: KeyPool<String> = round_trip(&pool);
    assert_eq!(back.len(), pool.len());
    for &k in &keys {
        assert_eq!(back.get(k), pool.get(k), "{k:?}");
    }
    assert_eq!(back[reused], "reused");
    // New values after the trip get new keys: no stale key matches them.
    let mut back = back;
    let fresh: Vec<_> = (0..20).map(|i| back.insert(format!("new{i}"))).collect();
    for &k in &keys[5..15] {
        assert_eq!(back.get(k), None, "stale {k:?} stays stale");
    }
    assert!(fresh.iter().all(|k| !keys.contains(k)));
}

#[test]
fn a_pool_keeps_its_salt_so_other_pools_keys_stay_out() {
    let mut a = KeyPool::new();
    let mut b = KeyPool::new();
    let ka = a.insert(1);
    let kb = b.insert(2);
    let b2: KeyPool<i32> = round_trip(&b);
    assert_eq!(b2.get(kb), Some(&2));
    assert_eq!(b2.get(ka), None);
}

#[test]
fn broken_pools_are_errors() {
    // A slot marked occupied without a value, and the reverse, an owned slot, a salt out
    // of range.
    for bad in [
        r#"{"salt":0,"floor":0,"slots":[[1,null]]}"#,
        r#"{"salt":0,"floor":0,"slots":[[0,5]]}"#,
        r#"{"salt":0,"floor":0,"slots":[[3,5]]}"#,
        r#"{"salt":4294967295,"floor":0,"slots":[]}"#,
    ] {
        assert!(serde_json::from_str::<KeyPool<i32>>(bad).is_err(), "{bad}");
    }
    let ok: KeyPool<i32> =
        serde_json::from_str(r#"{"salt":7,"floor":0,"slots":[[29,5],[28,null]]}"#).unwrap();
    assert_eq!(ok.len(), 1);
}

#[test]
fn side_tables_and_collections_serialise() {
    let mut pool = KeyPool::new();
    let (a, b) = (pool.insert(()), pool.insert(()));
    let mut side = SecondaryMap::new();
    side.insert(a, 1.5);
    side.insert(b, 2.5);
    let back: SecondaryMap<TypedKey<()>, f64> = round_trip(&side);
    assert_eq!((back[a], back[b], back.len()), (1.5, 2.5, 2));

    let blocks = BlockPool::new();
    let scope = blocks.scope();
    let mut v = arena_kit::ArenaVec::new_in(&scope);
    v.extend_from_slice(&[1, 2, 3]);
    assert_eq!(serde_json::to_string(&v).unwrap(), "[1,2,3]");
    let s = arena_kit::ArenaString::from_str_in("hi", &scope);
    assert_eq!(serde_json::to_string(&s).unwrap(), r#""hi""#);
}

#[test]
fn a_side_table_is_its_slots_so_a_far_index_costs_its_bytes() {
    let mut pool = KeyPool::new();
    let keys: Vec<_> = (0..5).map(|i| pool.insert(i)).collect();
    let mut side = SecondaryMap::new();
    side.insert(keys[1], "one");
    side.insert(keys[3], "three");
    let json = serde_json::to_string(&side).unwrap();
    let v1 = keys[1].to_raw() >> 32;
    let v3 = keys[3].to_raw() >> 32;
    assert_eq!(json, format!(r#"[null,[{v1},"one"],null,[{v3},"three"]]"#));
    let back: SecondaryMap<TypedKey<i32>, String> = serde_json::from_str(&json).unwrap();
    assert_eq!((back[keys[1]].as_str(), back[keys[3]].as_str(), back.len()), ("one", "three", 2));
    assert_eq!(back.get(keys[0]), None);
    assert!(back.capacity() <= 4, "as long as the document");
}

#[test]
fn a_few_bytes_cannot_make_a_side_table_allocate_for_a_far_index() {
    // The pairs form that once sized a map by its largest index (80 MB from 36 bytes)
    // is not a side table.
    let pairs = r#"[[{"index":10000000,"version":1},0]]"#;
    assert!(serde_json::from_str::<SecondaryMap<TypedKey<u8>, u8>>(pairs).is_err());
    // Every document sizes the map by its own length.
    for doc in ["[]", "[null]", "[null,null,[1,7]]", "[[5,1],null,null,null,null]"] {
        let map: SecondaryMap<TypedKey<u8>, u8> = serde_json::from_str(doc).unwrap();
        assert!(map.capacity() <= doc.len(), "{doc}: capacity {}", map.capacity());
    }
}

#[test]
fn a_side_table_entry_must_carry_a_keys_version() {
    for bad in ["[[0,1]]", "[[2,1]]", "[[3,1]]", "[[4294967295,1]]"] {
        let err = serde_json::from_str::<SecondaryMap<TypedKey<u8>, u8>>(bad).unwrap_err();
        assert!(err.to_string().contains("version"), "{bad}: {err}");
    }
}

#[test]
fn a_key_with_a_version_no_pool_gives_names_nothing_after_loading() {
    let mut pool = KeyPool::new();
    let k = pool.insert('k');
    pool.remove(k);
    let vacant_version = (k.to_raw() >> 32) as u32 + 3; // the slot's meta word now
    let doc = format!(r#"{{"index":{},"version":{vacant_version}}}"#, k.index());
    let forged: TypedKey<char> = serde_json::from_str(&doc).unwrap();
    assert_eq!(pool.get(forged), None);
    assert_eq!(pool.remove(forged), None);
    let again = pool.insert('n');
    assert_eq!(pool.get(forged), None);
    assert_eq!(pool.remove(again), Some('n'));
}

#[test]
fn hand_edited_pools_are_errors_or_consistent_pools() {
    // No free list and no count travel: both are rebuilt from the slots, so neither can
    // disagree with them. An owned bit, a value without the occupied bit (or the
    // reverse) and a salt or floor out of range are errors with a message.
    for (bad, says) in [
        (r#"{"salt":0,"floor":0,"slots":[[5,null]]}"#, "value"),
        (r#"{"salt":0,"floor":0,"slots":[[4,5]]}"#, "value"),
        (r#"{"salt":0,"floor":0,"slots":[[7,5]]}"#, "owns"),
        (r#"{"salt":0,"floor":1073741824,"slots":[]}"#, "below"),
        (r#"{"salt":0,"floor":0,"slots":[[1,5]],"len":9}"#, "len"),
        (r#"{"salt":0,"floor":0,"free_head":0,"slots":[[1,5]]}"#, "free_head"),
    ] {
        let err = serde_json::from_str::<KeyPool<i32>>(bad).unwrap_err().to_string();
        assert!(err.contains(says), "{bad}: {err}");
    }
    // Versions "out of order" across slots are any pool's slots: each slot stands alone.
    let mut pool: KeyPool<i32> = serde_json::from_str(
        r#"{"salt":0,"floor":0,"slots":[[401,1],[4,null],[1,3],[8,null],[4294967293,4]]}"#,
    )
    .unwrap();
    assert_eq!(pool.len(), 3);
    let keys: Vec<_> = pool.keys().collect();
    assert_eq!(keys.iter().map(TypedKey::index).collect::<Vec<_>>(), [0, 2, 4]);
    // The rebuilt free list hands out slots 1 and 3, then makes slot 5.
    let fresh: Vec<_> = (0..3).map(|i| pool.insert(10 + i).index()).collect();
    assert_eq!(fresh, [1, 3, 5]);
    for k in keys {
        assert!(pool.remove(k).is_some());
    }
    assert_eq!(pool.len(), 3);
}

#[test]
fn pools_and_side_tables_round_trip_through_a_format_that_needs_lengths() {
    // postcard (as bincode) writes a sequence's length first: every sequence the kit
    // serialises knows it up front.
    let mut pool = KeyPool::new();
    let keys: Vec<_> = (0..6_u16).map(|i| pool.insert(i * 3)).collect();
    pool.remove(keys[2]);
    let mut side = SecondaryMap::new();
    side.insert(keys[4], 'x');
    let bytes = postcard::to_allocvec(&(&pool, &side, keys[1])).unwrap();
    let (back, side_back, key): (KeyPool<u16>, SecondaryMap<TypedKey<u16>, char>, TypedKey<u16>) =
        postcard::from_bytes(&bytes).unwrap();
    assert_eq!(back.iter().collect::<Vec<_>>(), pool.iter().collect::<Vec<_>>());
    assert_eq!((side_back[keys[4]], back[key], back.get(keys[2])), ('x', 3, None));
}

/// The same program on pools of one salt: byte-identical saves, in a text and a binary
/// format, and keys with short versions; a random salt gives other bytes.
#[test]
fn pools_of_one_salt_save_to_the_same_bytes() {
    let build = |mut pool: KeyPool<String>| {
        let keys: Vec<_> = (0..20).map(|i| pool.insert(format!("v{i}"))).collect();
        for k in keys.iter().step_by(3) {
            pool.remove(*k);
        }
        pool.insert("late".to_owned());
        pool
    };
    let (one, two) = (build(KeyPool::with_salt(0)), build(KeyPool::with_salt(0)));
    let json = serde_json::to_string(&one).unwrap();
    assert_eq!(json, serde_json::to_string(&two).unwrap());
    assert_eq!(postcard::to_allocvec(&one).unwrap(), postcard::to_allocvec(&two).unwrap());
    // Salt 0: a key's version is its generation, small.
    let key = serde_json::to_string(&one.keys().next().unwrap()).unwrap();
    assert!(key.len() <= r#"{"index":1,"version":5}"#.len(), "{key}");
    // A loaded save saves the same bytes again.
    let back: KeyPool<String> = serde_json::from_str(&json).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), json);
    // Random salts: the saves differ (a 2^-30 chance of equal salts aside).
    let (a, b) = (build(KeyPool::new()), build(KeyPool::new()));
    assert_ne!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
}

arena_kit::new_key_type! {
    /// A named key type, saved as a `TypedKey` is.
    struct NoteKey;
}

/// A pool of a named key type saves exactly as a `KeyPool<T>` of the same history does,
/// and its keys and side tables round-trip with it.
#[test]
fn named_key_pools_keys_and_side_tables_round_trip_in_the_typed_form() {
    use arena_kit::PoolKey;

    let mut named = KeyPool::<String, NoteKey>::with_key_and_salt(3);
    let mut typed = KeyPool::<String>::with_salt(3);
    let mut side = SecondaryMap::new();
    for i in 0..6 {
        let k = named.insert(format!("n{i}"));
        typed.insert(format!("n{i}"));
        side.insert(k, i);
    }
    let gone = named.keys().nth(2).unwrap();
    named.remove(gone);
    let typed_gone = typed.keys().nth(2).unwrap();
    typed.remove(typed_gone);
    let json = serde_json::to_string(&named).unwrap();
    assert_eq!(json, serde_json::to_string(&typed).unwrap(), "the same document");

    let live = named.keys().next().unwrap();
    let key_json = serde_json::to_string(&live).unwrap();
    assert_eq!(
        key_json,
        serde_json::to_string(&TypedKey::<String>::from_raw(live.data().to_raw())).unwrap()
    );
    let back: NoteKey = serde_json::from_str(&key_json).unwrap();
    assert_eq!(back, live);
    let data: arena_kit::pool::KeyData = serde_json::from_str(&key_json).unwrap();
    assert_eq!(data, live.data());

    let pool_back: KeyPool<String, NoteKey> = serde_json::from_str(&json).unwrap();
    assert_eq!(pool_back[live], "n0");
    assert_eq!(pool_back.get(gone), None, "a stale key stays stale");
    let side_back: SecondaryMap<NoteKey, i32> = round_trip(&side);
    assert_eq!(side_back.get(live), Some(&0));
    assert_eq!(side_back.len(), side.len());
}
