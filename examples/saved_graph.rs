//! A road map saved to a file and loaded again: towns in a `KeyPool`, each holding the
//! keys of its neighbours, written with serde to JSON, read back, and asked the same
//! question (the fewest roads between two towns) before and after.
//!
//! The pool is made with `KeyPool::with_salt(0)`, so a save is reproducible: the same
//! map saves to the same bytes on every run, and a save can be committed, diffed or
//! compared with a golden file (with `KeyPool::new()`, a random salt would be in every
//! key's version and every save would differ). The same map kept in slotmap's `SlotMap`
//! is saved beside it, to compare the sizes.
//!
//! `cargo run --example saved_graph`; `cargo test --example saved_graph`.

use std::collections::VecDeque;

use arena_kit::{KeyPool, TypedKey};
use serde::{Deserialize, Serialize};

/// A town and the towns one road away.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Town {
    name: String,
    roads: Vec<TypedKey<Town>>,
}

/// The map: the towns, and the key of the capital.
#[derive(Serialize, Deserialize)]
struct Map {
    towns: KeyPool<Town>,
    capital: TypedKey<Town>,
}

/// Roads between towns, by name: the same map whatever keeps it.
const ROADS: &[(&str, &str)] = &[
    ("Aston", "Brill"),
    ("Brill", "Crewe"),
    ("Crewe", "Dover"),
    ("Aston", "Epsom"),
    ("Epsom", "Dover"),
    ("Dover", "Frome"),
    ("Brill", "Goole"),
    ("Goole", "Frome"),
];

impl Map {
    /// The map of [`ROADS`], with a town that was added and closed again (so the save
    /// holds a vacant slot, as a real one does), capital Aston.
    fn build() -> Map {
        let mut towns = KeyPool::with_salt(0);
        let mut key_of = std::collections::BTreeMap::new();
        for name in ROADS.iter().flat_map(|&(a, b)| [a, b]) {
            key_of
                .entry(name)
                .or_insert_with(|| towns.insert(Town { name: name.to_owned(), roads: Vec::new() }));
        }
        let closed = towns.insert(Town { name: "Hythe".to_owned(), roads: Vec::new() });
        towns.remove(closed);
        for &(a, b) in ROADS {
            let (ka, kb) = (key_of[a], key_of[b]);
            towns[ka].roads.push(kb);
            towns[kb].roads.push(ka);
        }
        Map { capital: key_of["Aston"], towns }
    }

    /// The key of the town called `name`.
    fn town(&self, name: &str) -> Option<TypedKey<Town>> {
        self.towns.iter().find(|(_, town)| town.name == name).map(|(key, _)| key)
    }

    /// The fewest roads from the capital to `to`, with the towns on the way.
    fn route(&self, to: TypedKey<Town>) -> Option<Vec<&str>> {
        let mut came_from = std::collections::HashMap::new();
        let mut queue = VecDeque::from([self.capital]);
        came_from.insert(self.capital, self.capital);
        while let Some(at) = queue.pop_front() {
            if at == to {
                let mut path = vec![self.towns[at].name.as_str()];
                let mut step = at;
                while step != self.capital {
                    step = came_from[&step];
                    path.push(&self.towns[step].name);
                }
                path.reverse();
                return Some(path);
            }
            for &next in &self.towns.get(at)?.roads {
                came_from.entry(next).or_insert_with(|| {
                    queue.push_back(next);
                    at
                });
            }
        }
        None
    }
}

/// The same map in slotmap's `SlotMap`, saved the same way: for the size comparison.
fn slotmap_save() -> String {
    slotmap::new_key_type! { struct TownKey; }
    #[derive(Serialize)]
    struct SlotTown {
        name: String,
        roads: Vec<TownKey>,
    }
    #[derive(Serialize)]
    struct SlotMapMap {
        towns: slotmap::SlotMap<TownKey, SlotTown>,
        capital: TownKey,
    }
    let mut towns = slotmap::SlotMap::with_key();
    let mut key_of = std::collections::BTreeMap::new();
    for name in ROADS.iter().flat_map(|&(a, b)| [a, b]) {
        key_of
            .entry(name)
            .or_insert_with(|| towns.insert(SlotTown { name: name.to_owned(), roads: Vec::new() }));
    }
    let closed = towns.insert(SlotTown { name: "Hythe".to_owned(), roads: Vec::new() });
    towns.remove(closed);
    for &(a, b) in ROADS {
        let (ka, kb) = (key_of[a], key_of[b]);
        towns[ka].roads.push(kb);
        towns[kb].roads.push(ka);
    }
    serde_json::to_string(&SlotMapMap { capital: key_of["Aston"], towns }).expect("a save")
}

fn main() {
    let map = Map::build();
    let saved = serde_json::to_string(&map).expect("a save");
    let loaded: Map = serde_json::from_str(&saved).expect("a load");
    let frome = loaded.town("Frome").expect("Frome");
    println!("Aston to Frome: {}", loaded.route(frome).expect("a route").join(" -> "));
    let theirs = slotmap_save();
    println!(
        "saved {} bytes; the same map in slotmap: {} bytes ({}% of it)",
        saved.len(),
        theirs.len(),
        saved.len() * 100 / theirs.len()
    );
}

#[test]
fn a_loaded_map_answers_as_the_saved_one_did() {
    let map = Map::build();
    let loaded: Map = serde_json::from_str(&serde_json::to_string(&map).unwrap()).unwrap();
    for name in ["Brill", "Dover", "Frome", "Goole"] {
        let (before, after) = (map.town(name).unwrap(), loaded.town(name).unwrap());
        assert_eq!(before, after, "{name}: the same key after the load");
        assert_eq!(map.route(before), loaded.route(after));
    }
    assert_eq!(loaded.route(loaded.town("Frome").unwrap()).unwrap().len(), 4);
}

#[test]
fn saves_are_reproducible_and_no_larger_than_slotmaps() {
    let (one, two) = (Map::build(), Map::build());
    let saved = serde_json::to_string(&one).unwrap();
    assert_eq!(saved, serde_json::to_string(&two).unwrap(), "the same map, the same bytes");
    let loaded: Map = serde_json::from_str(&saved).unwrap();
    assert_eq!(serde_json::to_string(&loaded).unwrap(), saved, "a load saves the same bytes");
    assert!(
        saved.len() <= slotmap_save().len(),
        "{} against {}",
        saved.len(),
        slotmap_save().len()
    );
}

#[test]
fn a_closed_towns_key_names_nothing_after_the_load() {
    let mut map = Map::build();
    let dover = map.town("Dover").unwrap();
    map.towns.remove(dover);
    let loaded: Map = serde_json::from_str(&serde_json::to_string(&map).unwrap()).unwrap();
    assert!(loaded.towns.get(dover).is_none());
    assert!(loaded.town("Dover").is_none());
}
