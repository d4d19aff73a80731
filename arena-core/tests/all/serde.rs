//! The `serde` feature: keys and storable pools survive a round trip (every live key
//! still names its value, stale keys stay stale, other pools' keys stay out), and bad
//! input is an error, not a broken pool.
#![cfg(feature = "serde")]

use arena_core::{BlockPool, KeyPool, PoolKey, SecondaryMap};

fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned>(value: &T) -> T {
    serde_json::from_str(&serde_json::to_string(value).unwrap()).unwrap()
}

#[test]
fn keys_round_trip_as_index_and_version() {
    let mut pool = KeyPool::new();
    let k = pool.insert('x');
    let json = serde_json::to_string(&k).unwrap();
    assert!(json.starts_with(r#"{"index":0,"version":"#), "{json}");
    let back: PoolKey<char> = serde_json::from_str(&json).unwrap();
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
    let back: SecondaryMap<PoolKey<()>, f64> = round_trip(&side);
    assert_eq!((back[a], back[b], back.len()), (1.5, 2.5, 2));

    let blocks = BlockPool::new();
    let scope = blocks.scope();
    let mut v = arena_core::ArenaVec::new_in(&scope);
    v.extend_from_slice(&[1, 2, 3]);
    assert_eq!(serde_json::to_string(&v).unwrap(), "[1,2,3]");
    let s = arena_core::ArenaString::from_str_in("hi", &scope);
    assert_eq!(serde_json::to_string(&s).unwrap(), r#""hi""#);
}
