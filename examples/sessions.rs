//! A web server's session store: sessions in a `KeyPool`, each session's cookie its key
//! as 16 hex digits, a shopping cart per session in a `SecondaryMap`, and the whole store
//! saved to JSON at shutdown and loaded at start-up.
//!
//! Everything a client sends is untrusted: a cookie is parsed with `TypedKey::from_raw`,
//! which is safe for any bits. A cookie for a session that logged out, a cookie edited
//! by hand, a cookie from another server's store: each gets "no session", never another
//! session's data. The saved file is untrusted too (it may have been edited): loading it
//! either gives a consistent store or fails with a message.
//!
//! `cargo run --example sessions`; `cargo test --example sessions`.

use arena_kit::{KeyPool, SecondaryMap, TypedKey};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Session {
    user: String,
    requests: u32,
}

/// The store: what the server keeps between requests, and what it saves.
#[derive(Default, Serialize, Deserialize)]
struct Store {
    sessions: KeyPool<Session>,
    carts: SecondaryMap<TypedKey<Session>, Vec<String>>,
}

impl Store {
    /// Logs `user` in and returns the cookie to set.
    fn log_in(&mut self, user: &str) -> String {
        let key = self.sessions.insert(Session { user: user.to_owned(), requests: 0 });
        format!("{:016x}", key.to_raw())
    }

    /// The session a request's cookie names: parsed, not trusted.
    fn session(cookie: &str) -> Option<TypedKey<Session>> {
        // A cookie that is not 16 hex digits is no cookie.
        if cookie.len() != 16 {
            return None;
        }
        u64::from_str_radix(cookie, 16).ok().map(TypedKey::from_raw)
    }

    /// Serves one request: counts it and adds `item` to the cart. `None` when the cookie
    /// names no live session (log in again).
    fn request(&mut self, cookie: &str, item: &str) -> Option<(String, usize)> {
        let key = Self::session(cookie)?;
        let session = self.sessions.get_mut(key)?;
        session.requests += 1;
        // The key was checked against the pool above, so it may size the side table.
        let cart = self.carts.entry(key)?.or_default();
        cart.push(item.to_owned());
        Some((session.user.clone(), cart.len()))
    }

    /// Logs the cookie's session out.
    fn log_out(&mut self, cookie: &str) -> bool {
        let Some(key) = Self::session(cookie) else { return false };
        self.carts.remove(key);
        self.sessions.remove(key).is_some()
    }

    /// The store as a JSON document.
    fn save(&self) -> String {
        serde_json::to_string(self).expect("sessions serialise")
    }

    /// A store from a JSON document: every session and cart, every live cookie still live,
    /// every stale cookie still stale; a document that describes no valid store is an
    /// error.
    fn load(document: &str) -> Result<Store, serde_json::Error> {
        serde_json::from_str(document)
    }
}

fn main() {
    let mut store = Store::default();
    let ada = store.log_in("ada");
    let bob = store.log_in("bob");
    println!("ada's cookie {ada}, bob's {bob}");
    println!("{:?}", store.request(&ada, "book"));
    println!("{:?}", store.request(&bob, "lamp"));
    store.log_out(&bob);
    println!("bob after logging out: {:?}", store.request(&bob, "chair"));
    let saved = store.save();
    println!("saved: {} bytes", saved.len());
    let mut store = Store::load(&saved).expect("our own save loads");
    println!("ada after a restart: {:?}", store.request(&ada, "pen"));
}

#[test]
fn cookies_survive_a_restart_and_stale_ones_stay_stale() {
    let mut store = Store::default();
    let ada = store.log_in("ada");
    let bob = store.log_in("bob");
    assert_eq!(store.request(&ada, "book"), Some(("ada".into(), 1)));
    assert_eq!(store.request(&bob, "lamp"), Some(("bob".into(), 1)));
    assert!(store.log_out(&bob));
    let cy = store.log_in("cy"); // takes bob's slot: bob's cookie must not reach cy
    assert_eq!(store.request(&bob, "chair"), None);

    let mut store = Store::load(&store.save()).unwrap();
    assert_eq!(store.request(&ada, "pen"), Some(("ada".into(), 2)));
    assert_eq!(store.request(&cy, "mug"), Some(("cy".into(), 1)));
    assert_eq!(store.request(&bob, "chair"), None, "still logged out");
    assert_eq!(store.sessions.get(Store::session(&ada).unwrap()).unwrap().requests, 2);
}

#[test]
fn forged_cookies_reach_no_session() {
    let mut store = Store::default();
    let ada = store.log_in("ada");
    let raw = u64::from_str_radix(&ada, 16).unwrap();
    store.log_out(&ada);
    let _ = store.log_in("eve");
    // Every word an attacker could derive from ada's old cookie: other versions of the
    // slot (the vacant slot's own meta word among them), other indices, nonsense.
    for delta in 0..16_u64 {
        for forged in [raw.wrapping_add(delta << 32), raw.wrapping_sub(delta << 32), raw ^ delta] {
            let cookie = format!("{forged:016x}");
            if let Some((user, _)) = store.request(&cookie, "x") {
                // Only eve's own cookie spells eve's session.
                assert_eq!(user, "eve");
                assert_eq!(Store::session(&cookie), store.sessions.keys().next());
            }
        }
    }
    for junk in ["", "zz", "ffffffffffffffff", "0000000000000000", "not a cookie at all"] {
        assert_eq!(store.request(junk, "x"), None, "{junk}");
    }
}

#[test]
fn an_edited_save_loads_consistently_or_not_at_all() {
    let mut store = Store::default();
    let ada = store.log_in("ada");
    store.request(&ada, "book");
    let saved = store.save();
    // Marking ada's slot vacant while it keeps its value, or owned: refused.
    let value: serde_json::Value = serde_json::from_str(&saved).unwrap();
    let meta = value["sessions"]["slots"][0][0].as_u64().unwrap();
    for edited_meta in [meta & !1, meta | 2] {
        let edited = saved.replacen(&meta.to_string(), &edited_meta.to_string(), 1);
        assert!(Store::load(&edited).is_err(), "{edited}");
    }
    // A cart entry whose version no key has: refused, with a message.
    let cart_version = value["carts"][0][0].as_u64().unwrap();
    let (was, now) =
        (format!(r#""carts":[[{cart_version},"#), format!(r#""carts":[[{},"#, cart_version + 1));
    let edited = saved.replacen(&was, &now, 1);
    assert_ne!(edited, saved);
    let err = Store::load(&edited).err().expect("refused").to_string();
    assert!(err.contains("version"), "{err}");
    // A cart far past every session costs the document its bytes: no allocation
    // for an index the document does not spell out.
    let far = saved.replacen(r#""carts":["#, r#""carts":[null,null,null,"#, 1);
    let loaded = Store::load(&far).unwrap();
    assert!(loaded.carts.capacity() <= 4);
    assert_eq!(loaded.carts.len(), 1);
}
