//! A server's sliding window of request records, kept as columns in a `ColumnVec`: the
//! error rate reads only the status column, the latency percentile only the latency
//! column, and evicting old records scans only the timestamps. A record's columns move
//! together (one length for all of them), so a `swap_remove` cannot leave a path behind
//! its status.
//!
//! This is the building block of `#[derive(ArenaAlloc)]`'s struct-of-arrays pools, used
//! by hand: no keys, no handles, rows identified by nothing but their place, which suits
//! a window whose records are only ever scanned.
//!
//! `cargo run --example request_log`; `cargo test --example request_log`.

use arena_kit::pool::soa::ColumnVec;

/// One request: when it ended (milliseconds), how long it took (microseconds), its
/// HTTP status and its path.
#[derive(Debug, Clone, PartialEq)]
struct Request {
    at_ms: u64,
    latency_us: u32,
    status: u16,
    path: String,
}

/// A record's columns, as a `ColumnVec` lists them: end time, latency, status, path.
type Record = (u64, (u32, (u16, (String, ()))));

/// The last `window_ms` milliseconds of requests, one column per field.
struct Window {
    window_ms: u64,
    rows: ColumnVec<Record>,
}

/// What the window says about the requests in it.
#[derive(Debug, PartialEq)]
struct Summary {
    requests: usize,
    /// Server errors (5xx) per thousand requests.
    errors_per_mille: usize,
    /// The 95th percentile latency, microseconds (nearest rank).
    p95_us: u32,
    /// The path asked for most, with its count (the first such path in byte order).
    busiest: Option<(String, usize)>,
}

impl Window {
    fn new(window_ms: u64) -> Self {
        Window { window_ms, rows: ColumnVec::new() }
    }

    /// Adds a request and evicts every one older than the window before it.
    fn record(&mut self, request: Request) {
        let now = request.at_ms;
        self.rows.push((request.at_ms, (request.latency_us, (request.status, (request.path, ())))));
        self.evict_before(now.saturating_sub(self.window_ms));
    }

    /// Drops every request that ended before `oldest_ms`: a scan of the timestamp column;
    /// each old row is swapped out (its place taken by the last row, which is looked at
    /// next).
    fn evict_before(&mut self, oldest_ms: u64) {
        let mut row = 0;
        while row < self.rows.len() {
            let (at_ms, _) = self.rows.row(row);
            if *at_ms < oldest_ms {
                drop(self.rows.swap_remove(row));
            } else {
                row += 1;
            }
        }
    }

    fn summary(&self) -> Summary {
        let (_, (latencies, (statuses, (paths, ())))) = self.rows.slices();
        let requests = statuses.len();
        let errors = statuses.iter().filter(|&&s| s >= 500).count();
        let mut sorted = latencies.to_vec();
        sorted.sort_unstable();
        let p95_us = match requests {
            0 => 0,
            n => sorted[(n * 95).div_ceil(100) - 1],
        };
        let mut counts = std::collections::BTreeMap::<&str, usize>::new();
        for path in paths {
            *counts.entry(path).or_default() += 1;
        }
        let busiest = counts
            .into_iter()
            .fold(None, |best: Option<(&str, usize)>, (path, n)| match best {
                Some((_, m)) if m >= n => best,
                _ => Some((path, n)),
            })
            .map(|(path, n)| (path.to_string(), n));
        Summary { requests, errors_per_mille: errors * 1000 / requests.max(1), p95_us, busiest }
    }
}

/// A made-up stream of `n` requests, one every `step_ms`.
fn traffic(n: usize, step_ms: u64) -> impl Iterator<Item = Request> {
    let paths = ["/", "/login", "/api/items", "/api/cart", "/static/app.js"];
    let mut state = 0x9e37_79b9_u32;
    (0..n).map(move |i| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        Request {
            at_ms: i as u64 * step_ms,
            latency_us: 200 + state % 5000,
            status: if state.is_multiple_of(53) { 503 } else { 200 },
            path: paths[(state >> 8) as usize % paths.len()].to_string(),
        }
    })
}

fn main() {
    let mut window = Window::new(60_000);
    for (i, request) in traffic(20_000, 7).enumerate() {
        window.record(request);
        if (i + 1) % 5_000 == 0 {
            let s = window.summary();
            println!(
                "after {:>6} requests: {} in the last minute, {} errors per mille, p95 {} us, busiest {:?}",
                i + 1,
                s.requests,
                s.errors_per_mille,
                s.p95_us,
                s.busiest
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Request, Summary, Window, traffic};

    /// The same summary from a plain `Vec` of whole records, the obvious way.
    fn by_hand(records: &[Request], window_ms: u64) -> Summary {
        let now = records.last().map_or(0, |r| r.at_ms);
        let live: Vec<&Request> =
            records.iter().filter(|r| r.at_ms >= now.saturating_sub(window_ms)).collect();
        let mut window = Window::new(u64::MAX);
        for r in &live {
            window.rows.push((r.at_ms, (r.latency_us, (r.status, (r.path.clone(), ())))));
        }
        window.summary()
    }

    #[test]
    fn the_window_agrees_with_a_filter_over_every_record() {
        let records: Vec<Request> = traffic(3_000, 11).collect();
        let mut window = Window::new(5_000);
        for (i, r) in records.iter().enumerate() {
            window.record(r.clone());
            if i % 250 == 0 {
                assert_eq!(window.summary(), by_hand(&records[..=i], 5_000), "after {i}");
            }
        }
        let last = window.summary();
        assert_eq!(last.requests, 455, "5 s of requests every 11 ms, both ends in");
        assert!(last.busiest.is_some());
    }

    #[test]
    fn a_record_keeps_its_fields_together_through_evictions() {
        let mut window = Window::new(10);
        for (t, path) in [(0_u32, "/a"), (5, "/b"), (12, "/c"), (20, "/d"), (21, "/e")] {
            let status = if path == "/c" { 500 } else { 200 };
            let at_ms = u64::from(t);
            window.record(Request { at_ms, latency_us: t, status, path: path.into() });
        }
        // Kept: ended at 12 or later (21 - 10 = 11).
        let (times, (latencies, (statuses, (paths, ())))) = window.rows.slices();
        let mut rows: Vec<_> = times
            .iter()
            .zip(latencies)
            .zip(statuses)
            .zip(paths)
            .map(|(((t, l), s), p)| (*t, *l, *s, p.as_str()))
            .collect();
        rows.sort_unstable();
        assert_eq!(rows, [(12, 12, 500, "/c"), (20, 20, 200, "/d"), (21, 21, 200, "/e")]);
        assert_eq!(window.summary().errors_per_mille, 333);
    }

    #[test]
    fn an_empty_window_says_nothing_happened() {
        let window = Window::new(1_000);
        let s = window.summary();
        assert_eq!((s.requests, s.errors_per_mille, s.p95_us, s.busiest), (0, 0, 0, None));
    }
}
