//! A bus network: stops and lines are both names (`String`), kept in two `KeyPool`s with
//! key types of their own (`new_key_type!`), so a stop's key can never be used where a
//! line's is meant, which two `KeyPool<String>`s would allow. Side tables say which stops
//! a line calls at and which lines serve a stop; the planner finds the route with the
//! fewest changes, a stop closes (its key goes stale and every side table skips it), and
//! the network is saved with serde and loaded again.
//!
//! `cargo run --example transit`; `cargo test --example transit`.

use std::collections::{HashMap, VecDeque};

use arena_kit::{KeyPool, SecondaryMap};
use serde::{Deserialize, Serialize};

arena_kit::new_key_type! {
    /// A stop of the network.
    pub struct StopKey;
    /// A bus line.
    pub struct LineKey;
}

/// The network: stop names, line names, and each line's stops in order.
#[derive(Serialize, Deserialize)]
struct Network {
    stops: KeyPool<String, StopKey>,
    lines: KeyPool<String, LineKey>,
    calls_at: SecondaryMap<LineKey, Vec<StopKey>>,
}

/// The lines of the example network and their stops.
const LINES: &[(&str, &[&str])] = &[
    ("1", &["Station", "Market", "Castle", "University"]),
    ("4", &["Harbour", "Market", "Hospital"]),
    ("7", &["University", "Park", "Hospital", "Airport"]),
    ("X9", &["Station", "Airport"]),
];

impl Network {
    /// The network of [`LINES`]; keys come from salt 0, so saves are reproducible.
    fn build() -> Network {
        let mut net = Network {
            stops: KeyPool::with_key_and_salt(0),
            lines: KeyPool::with_key_and_salt(0),
            calls_at: SecondaryMap::new(),
        };
        let mut stop_of = HashMap::new();
        for &(line, stops) in LINES {
            let route: Vec<StopKey> = stops
                .iter()
                .map(|&name| {
                    *stop_of.entry(name).or_insert_with(|| net.stops.insert(name.to_owned()))
                })
                .collect();
            let line = net.lines.insert(line.to_owned());
            net.calls_at.insert(line, route);
        }
        net
    }

    fn stop(&self, name: &str) -> Option<StopKey> {
        self.stops.iter().find(|(_, stop)| *stop == name).map(|(key, _)| key)
    }

    /// Which lines serve each open stop: the inverse side table, rebuilt on demand.
    fn served_by(&self) -> SecondaryMap<StopKey, Vec<LineKey>> {
        let mut served = SecondaryMap::new();
        for (line, stops) in &self.calls_at {
            for &stop in stops.iter().filter(|&&stop| self.stops.contains_key(stop)) {
                match served.entry(stop) {
                    Some(entry) => entry.or_insert_with(Vec::new).push(line),
                    None => unreachable!("every open stop's key is live"),
                }
            }
        }
        served
    }

    /// The lines to take from `from` to `to` with the fewest changes (a breadth-first
    /// search over lines), skipping closed stops.
    fn plan(&self, from: StopKey, to: StopKey) -> Option<Vec<&str>> {
        let served = self.served_by();
        let mut came_from: HashMap<LineKey, Option<LineKey>> = HashMap::new();
        let mut queue = VecDeque::new();
        for &line in served.get(from)? {
            came_from.insert(line, None);
            queue.push_back(line);
        }
        while let Some(line) = queue.pop_front() {
            let stops = &self.calls_at[line];
            if stops.contains(&to) {
                let mut trip = vec![self.lines[line].as_str()];
                let mut at = line;
                while let Some(Some(before)) = came_from.get(&at) {
                    trip.push(&self.lines[*before]);
                    at = *before;
                }
                trip.reverse();
                return Some(trip);
            }
            for stop in stops.iter().filter(|&&stop| self.stops.contains_key(stop)) {
                for &next in served.get(*stop).into_iter().flatten() {
                    came_from.entry(next).or_insert_with(|| {
                        queue.push_back(next);
                        Some(line)
                    });
                }
            }
        }
        None
    }
}

fn main() {
    let mut net = Network::build();
    let (harbour, airport) =
        (net.stop("Harbour").expect("Harbour"), net.stop("Airport").expect("Airport"));
    println!(
        "Harbour to Airport: lines {}",
        net.plan(harbour, airport).expect("a trip").join(", ")
    );
    let hospital = net.stop("Hospital").expect("Hospital");
    net.stops.remove(hospital);
    println!("Hospital closed: lines {}", net.plan(harbour, airport).expect("a trip").join(", "));
    let saved = serde_json::to_string(&net).expect("a save");
    let loaded: Network = serde_json::from_str(&saved).expect("a load");
    println!(
        "saved {} bytes; after loading, Harbour to Airport: lines {}",
        saved.len(),
        loaded.plan(harbour, airport).expect("a trip").join(", ")
    );
}

#[test]
fn the_planner_changes_as_few_times_as_it_can() {
    let net = Network::build();
    let stop = |name| net.stop(name).unwrap();
    assert_eq!(net.plan(stop("Harbour"), stop("Airport")), Some(vec!["4", "7"]));
    assert_eq!(net.plan(stop("Station"), stop("Airport")), Some(vec!["X9"]));
    assert_eq!(net.plan(stop("Castle"), stop("Park")), Some(vec!["1", "7"]));
}

#[test]
fn a_closed_stop_is_skipped_and_its_key_is_stale() {
    let mut net = Network::build();
    let (harbour, airport, market) =
        (net.stop("Harbour").unwrap(), net.stop("Airport").unwrap(), net.stop("Market").unwrap());
    let hospital = net.stop("Hospital").unwrap();
    net.stops.remove(hospital);
    assert_eq!(net.stops.get(hospital), None);
    assert!(net.served_by().get(hospital).is_none());
    // Without Hospital, Harbour's line 4 meets line 1 at Market, then X9 or 7.
    assert_eq!(net.plan(harbour, airport).unwrap().len(), 3);
    net.stops.remove(market);
    assert_eq!(net.plan(harbour, airport), None, "line 4 now reaches no other line");
}

#[test]
fn a_saved_network_loads_with_the_same_keys_and_bytes() {
    let net = Network::build();
    let saved = serde_json::to_string(&net).unwrap();
    assert_eq!(saved, serde_json::to_string(&Network::build()).unwrap(), "reproducible");
    let loaded: Network = serde_json::from_str(&saved).unwrap();
    let (harbour, airport) = (net.stop("Harbour").unwrap(), net.stop("Airport").unwrap());
    assert_eq!(loaded.stop("Harbour"), Some(harbour), "the same key after the load");
    assert_eq!(loaded.plan(harbour, airport), net.plan(harbour, airport));
    assert_eq!(serde_json::to_string(&loaded).unwrap(), saved);
}
