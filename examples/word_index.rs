//! A word index built per request in a scope: for each document, a `hashbrown` map from
//! word to the lines it occurs on, with `&Scope` as the allocator of the map and of its
//! `allocator_api2` vectors, so the whole index goes back to the pool in one step when
//! the request ends.
//!
//! The map's table outgrows a standard block as it doubles. An allocation bigger than a
//! block gets a block of its own, which goes back as soon as it is outgrown (or resized
//! by `realloc`, for a vector), so the scope does not keep every table the map grew
//! through, as a bump arena would. The short line lists stay in the bump blocks, where
//! a list that grows after something else was allocated leaves its old copy behind
//! until the scope ends: that is the price of a bump allocation, and small.
//!
//! `cargo run --example word_index`; `cargo test --example word_index`.

use arena_kit::allocator_api2::vec::Vec as ApiVec;
use arena_kit::{BlockPool, Scope};
use hashbrown::{DefaultHashBuilder, HashMap};

/// Word -> lines it occurs on (1-based), every byte of it in the scope.
type Index<'s, 'p, 't> =
    HashMap<&'t str, ApiVec<u32, &'s Scope<'p>>, DefaultHashBuilder, &'s Scope<'p>>;

/// Indexes `text` in `scope`: each line's words, lower-cased ASCII letters only.
fn build<'s, 'p, 't>(scope: &'s Scope<'p>, text: &'t str) -> Index<'s, 'p, 't> {
    let mut index = HashMap::with_hasher_in(DefaultHashBuilder::default(), scope);
    for (line, words) in text.lines().enumerate() {
        let line = u32::try_from(line + 1).expect("fewer than 4 G lines");
        for word in words.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| !w.is_empty()) {
            let lines = index.entry(word).or_insert_with(|| ApiVec::new_in(scope));
            if lines.last() != Some(&line) {
                lines.push(line);
            }
        }
    }
    index
}

/// The lines on which every word of `query` occurs.
fn lines_with_all(index: &Index<'_, '_, '_>, query: &str) -> Vec<u32> {
    let mut words = query.split_whitespace();
    let Some(first) = words.next().and_then(|w| index.get(w)) else { return Vec::new() };
    let mut lines: Vec<u32> = first.to_vec();
    for word in words {
        let Some(more) = index.get(word) else { return Vec::new() };
        lines.retain(|l| more.binary_search(l).is_ok());
    }
    lines
}

/// A made-up document of `lines` lines over a vocabulary of `words` words.
fn document(lines: usize, words: usize) -> String {
    let mut text = String::new();
    let mut state = 0x2545_f491_u32;
    for _ in 0..lines {
        for _ in 0..8 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let w = state as usize % words;
            // A word of letters from its number: "a", "b", ..., "ba", ...
            let mut n = w + 1;
            let mut word = Vec::new();
            while n > 0 {
                word.push(b'a' + u8::try_from(n % 26).expect("below 26"));
                n /= 26;
            }
            text.push_str(std::str::from_utf8(&word).expect("ASCII"));
            text.push(' ');
        }
        text.push('\n');
    }
    text
}

/// What one request reports: the answer, and what its scope held at the end.
struct Answer {
    lines: Vec<u32>,
    distinct_words: usize,
    /// Bytes of the blocks the scope held.
    held: usize,
    /// Bytes the index uses now: its table and its line lists' capacities.
    in_use: usize,
    /// Blocks bigger than a standard one: allocations with a block of their own.
    big_blocks: usize,
}

fn serve(pool: &BlockPool, text: &str, query: &str) -> Answer {
    let scope = pool.scope();
    let index = build(&scope, text);
    let lines = lines_with_all(&index, query);
    let lists: usize = index.values().map(|v| v.capacity() * 4).sum();
    Answer {
        lines,
        distinct_words: index.len(),
        held: scope.stats().reserved_bytes,
        in_use: index.allocation_size() + lists,
        big_blocks: scope.blocks().filter(|b| b.capacity > pool.block_size()).count(),
    }
}

fn main() {
    let pool = BlockPool::new();
    let text = document(20_000, 400);
    for query in ["b", "b c", "zz nope"] {
        let answer = serve(&pool, &text, query);
        println!(
            "{query:>8}: {} lines (first {:?}); {} words indexed; the scope held {} KiB for \
             an index using {} KiB; {} block(s) bigger than a standard one",
            answer.lines.len(),
            answer.lines.iter().take(3).collect::<Vec<_>>(),
            answer.distinct_words,
            answer.held / 1024,
            answer.in_use / 1024,
            answer.big_blocks,
        );
    }
    let stats = pool.stats();
    println!(
        "after the requests: {} live blocks, {} cached",
        stats.live_blocks, stats.cached_blocks
    );
}

#[test]
fn finds_the_lines_with_every_word_of_the_query() {
    let pool = BlockPool::new();
    let text = "the cat sat\nthe dog\ncat and dog and cat\n";
    assert_eq!(serve(&pool, text, "cat").lines, [1, 3]);
    assert_eq!(serve(&pool, text, "dog cat").lines, [3]);
    assert_eq!(serve(&pool, text, "the").lines, [1, 2]);
    assert!(serve(&pool, text, "bird").lines.is_empty());
    assert_eq!(serve(&pool, text, "and").distinct_words, 5);
}

#[test]
fn a_big_index_holds_about_what_it_uses_and_goes_back_whole() {
    let pool = BlockPool::new();
    let text = document(20_000, 400);
    let answer = serve(&pool, &text, "b c");
    assert_eq!(answer.distinct_words, 400);
    // The brute-force answer, to check the index against.
    let expected: Vec<u32> = (1..)
        .zip(text.lines())
        .filter(|(_, l)| ["b", "c"].iter().all(|q| l.split(' ').any(|w| w == *q)))
        .map(|(n, _)| n)
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(answer.lines, expected);
    // The table outgrew a block: it is the one block bigger than a standard one; the
    // tables it grew through went back as it outgrew them.
    assert_eq!(answer.big_blocks, 1);
    assert!(answer.held >= answer.in_use);
    assert_eq!(pool.stats().live_blocks, 0, "every block went back with the scope");
}
