//! A road network in a `KeyPool`: shortest paths with Dijkstra, then a junction closes
//! and the routes are recomputed. Nodes live in a storable pool (the graph is a plain
//! struct field), distances and predecessors in side tables keyed by the same keys, and
//! the priority queue orders keys directly.
//!
//! `cargo run --example graph`; `cargo test --example graph` checks the routes.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use arena_kit::{KeyPool, SecondaryMap, TypedKey};

/// A junction and the roads leaving it (target, length in metres).
struct Junction {
    name: &'static str,
    roads: Vec<(Key, u32)>,
}

type Key = TypedKey<Junction>;
/// A route: the junctions' names and its length in metres.
type Route = (Vec<&'static str>, u32);

/// The network: stored in a struct, not inside a closure.
struct Network {
    junctions: KeyPool<Junction>,
}

impl Network {
    fn add(&mut self, name: &'static str) -> Key {
        self.junctions.insert(Junction { name, roads: Vec::new() })
    }

    fn road(&mut self, a: Key, b: Key, metres: u32) {
        self.junctions[a].roads.push((b, metres));
        self.junctions[b].roads.push((a, metres));
    }

    /// Closes a junction: its node goes, and roads to it are dropped lazily (a key to a
    /// removed junction is stale, and the search skips it).
    fn close(&mut self, j: Key) -> Option<&'static str> {
        self.junctions.remove(j).map(|junction| junction.name)
    }

    /// Shortest distances from `start`, with each junction's predecessor.
    fn dijkstra(&self, start: Key) -> (SecondaryMap<Key, u32>, SecondaryMap<Key, Key>) {
        let mut dist = SecondaryMap::new();
        let mut prev = SecondaryMap::new();
        let mut queue = BinaryHeap::new();
        dist.insert(start, 0);
        queue.push((Reverse(0), start));
        while let Some((Reverse(d), at)) = queue.pop() {
            if dist.get(at).is_some_and(|&best| d > best) {
                continue; // an outdated queue entry
            }
            let Some(junction) = self.junctions.get(at) else { continue };
            for &(to, metres) in &junction.roads {
                if !self.junctions.contains_key(to) {
                    continue; // a road to a closed junction
                }
                let through = d + metres;
                if dist.get(to).is_none_or(|&best| through < best) {
                    dist.insert(to, through);
                    prev.insert(to, at);
                    queue.push((Reverse(through), to));
                }
            }
        }
        (dist, prev)
    }

    /// The route from the search's start to `to`, as names.
    fn route(&self, prev: &SecondaryMap<Key, Key>, to: Key) -> Vec<&'static str> {
        let mut path = vec![self.junctions[to].name];
        let mut at = to;
        while let Some(&p) = prev.get(at) {
            path.push(self.junctions[p].name);
            at = p;
        }
        path.reverse();
        path
    }
}

/// Builds the network, routes across it, closes a junction and routes again; returns the
/// two routes and their lengths.
fn run() -> (Route, Route) {
    let mut net = Network { junctions: KeyPool::new() };
    let [harbour, market, bridge, mill, station, hill] =
        ["harbour", "market", "bridge", "mill", "station", "hill"].map(|n| net.add(n));
    net.road(harbour, market, 400);
    net.road(market, bridge, 300);
    net.road(bridge, station, 500);
    net.road(harbour, mill, 900);
    net.road(mill, hill, 600);
    net.road(hill, station, 300);
    net.road(market, hill, 1_200);

    let (dist, prev) = net.dijkstra(harbour);
    let first = (net.route(&prev, station), dist[station]);

    assert_eq!(net.close(bridge), Some("bridge"));
    let (dist, prev) = net.dijkstra(harbour);
    let second = (net.route(&prev, station), dist[station]);
    assert!(dist.get(bridge).is_none(), "the closed junction is never reached");
    (first, second)
}

fn main() {
    let ((before, d1), (after, d2)) = run();
    println!("harbour -> station: {} ({d1} m)", before.join(" -> "));
    println!("bridge closed:      {} ({d2} m)", after.join(" -> "));
}

#[test]
fn routes_before_and_after_the_closure() {
    let ((before, d1), (after, d2)) = run();
    assert_eq!(before, ["harbour", "market", "bridge", "station"]);
    assert_eq!(d1, 1_200);
    assert_eq!(after, ["harbour", "mill", "hill", "station"]);
    assert_eq!(d2, 1_800);
}
