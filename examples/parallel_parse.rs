//! Parsing many `key=value;...` records in parallel with rayon, each task allocating its
//! records in an arena lent by an `ArenaPool`; the records, borrowed from the pool, are
//! collected on the main thread (bump-scope's `BumpPool` pattern).
//!
//! `cargo run --example parallel_parse -- 100000`; `cargo test --example parallel_parse`.

use arena_kit::{ArenaPool, scope::PooledArena};
use rayon::prelude::*;

/// One field's value: numbers parsed, text copied into the arena.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value<'a> {
    Int(i64),
    Float(f64),
    Text(&'a str),
}

/// A field: its key lowercased into the arena.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Field<'a> {
    key: &'a str,
    value: Value<'a>,
}

/// A parsed line. `Copy`, so its fields may point at other values of the same arena.
#[derive(Clone, Copy, Debug)]
struct Record<'a> {
    line: usize,
    fields: &'a [Field<'a>],
}

impl<'a> Record<'a> {
    fn get(&self, key: &str) -> Option<Value<'a>> {
        self.fields.iter().find(|f| f.key == key).map(|f| f.value)
    }
}

/// Parses one line (`line` counts from 1) into `arena`. `scratch` is the task's reusable
/// buffer for the fields before they are copied into the arena as one slice.
fn parse_line<'a>(
    arena: &PooledArena<'a, '_>,
    scratch: &mut Vec<Field<'a>>,
    line: usize,
    text: &str,
) -> Result<&'a Record<'a>, String> {
    scratch.clear();
    for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) =
            part.split_once('=').ok_or_else(|| format!("line {line}: no '=' in {part:?}"))?;
        let key = key.trim();
        if key.is_empty() {
            return Err(format!("line {line}: empty key in {part:?}"));
        }
        let key: &'a str = if key.bytes().any(|b| b.is_ascii_uppercase()) {
            arena.alloc_str(&key.to_ascii_lowercase())
        } else {
            arena.alloc_str(key)
        };
        let value = value.trim();
        let value = if let Ok(n) = value.parse::<i64>() {
            Value::Int(n)
        } else if let Ok(x) = value.parse::<f64>() {
            Value::Float(x)
        } else {
            Value::Text(arena.alloc_str(value))
        };
        scratch.push(Field { key, value });
    }
    let fields = arena.alloc_slice_copy(scratch);
    Ok(arena.alloc_copy(Record { line, fields }))
}

/// Parses every line on rayon's threads: each task borrows an arena from `pool` for the
/// lines it takes. The records live as long as the pool, in input order.
fn parse_all<'a>(pool: &'a ArenaPool<'_>, lines: &[String]) -> Result<Vec<&'a Record<'a>>, String> {
    lines
        .par_iter()
        .enumerate()
        .map_init(
            || (pool.get(), Vec::new()),
            |(arena, scratch), (i, text)| parse_line(arena, scratch, i + 1, text),
        )
        .collect()
}

/// `n` records as a log of sensor readings, with keys in mixed case.
fn sample_lines(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let station = ["North", "South", "East", "West"][i % 4];
            format!("ID={i}; station = {station} ;Temp={}.5;ok={}", i % 40, i % 3 != 0)
        })
        .collect()
}

fn main() {
    let n = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let lines = sample_lines(n);
    let pool = ArenaPool::new();
    let records = match parse_all(&pool, &lines) {
        Ok(records) => records,
        Err(e) => {
            eprintln!("error: {e}");
            return;
        }
    };
    let warm: Vec<usize> = records
        .iter()
        .filter(|r| matches!(r.get("temp"), Some(Value::Float(t)) if t > 30.0))
        .map(|r| r.line)
        .collect();
    println!("{} records on {} threads", records.len(), rayon::current_num_threads());
    println!("{} readings above 30 degrees, the first on line {:?}", warm.len(), warm.first());
    let stats = pool.stats();
    println!("{} arenas, {} bytes in {} blocks", stats.arenas, stats.allocated_bytes, stats.blocks);
}

#[test]
fn records_parsed_in_parallel_match_the_input_in_order() {
    let n = 5_000;
    let lines = sample_lines(n);
    let pool = ArenaPool::new();
    let records = parse_all(&pool, &lines).unwrap();
    assert_eq!(records.len(), n);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r.line, i + 1);
        assert_eq!(r.get("id"), Some(Value::Int(i64::try_from(i).unwrap())));
        let station = ["North", "South", "East", "West"][i % 4];
        assert_eq!(r.get("station"), Some(Value::Text(station)));
        assert_eq!(
            r.get("temp"),
            Some(Value::Float(f64::from(u8::try_from(i % 40).unwrap()) + 0.5))
        );
        let ok = if i % 3 != 0 { "true" } else { "false" };
        assert_eq!(r.get("ok"), Some(Value::Text(ok)));
        assert_eq!(r.fields.len(), 4);
    }
    // Each rayon task took an arena; they were reused, not one per line.
    let stats = pool.stats();
    assert!(stats.arenas >= 1 && stats.arenas < n / 10, "{stats:?}");
    assert_eq!(stats.idle_arenas, stats.arenas, "every arena went back to the pool");
}

#[test]
fn a_bad_line_is_reported_with_its_number() {
    let mut lines = sample_lines(100);
    lines[41] = "id=41; broken".to_owned();
    let pool = ArenaPool::new();
    let err = parse_all(&pool, &lines).unwrap_err();
    assert_eq!(err, "line 42: no '=' in \"broken\"");
}

#[test]
fn each_batch_lives_until_the_pool_is_reset_for_the_next() {
    let mut pool = ArenaPool::new();
    for (n, last_id) in [(1_000, 999), (1_001, 1_000), (1_002, 1_001)] {
        let lines = sample_lines(n);
        let records = parse_all(&pool, &lines).unwrap();
        assert_eq!(records.last().unwrap().get("id"), Some(Value::Int(last_id)));
        pool.reset(); // drops nothing (records are `Copy`), keeps the arenas' blocks
    }
    assert_eq!(pool.stats().allocated_bytes, 0);
}
