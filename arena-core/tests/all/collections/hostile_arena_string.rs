//! Hostile programs against `ArenaString`: multi-byte characters through push, pop,
//! `truncate` inside a character and growth past a block; `try_push` and `fmt::Write` at a
//! limit (the string must stay valid UTF-8); `into_str` slices that outlive their string;
//! `str` methods through `DerefMut`.

use std::fmt::Write;

use arena_kit::{ArenaString, BlockPool};

use crate::common::{expect_panic, scaled};

#[test]
fn multi_byte_characters_survive_push_pop_truncate_and_growth() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut s = ArenaString::new_in(&scope);
    let mut model = String::new();
    for i in 0..scaled(3000) {
        let c = ['a', 'é', '€', '𝄞'][i % 4];
        s.push(c);
        model.push(c);
        if i % 10 == 9 {
            assert_eq!(s.pop(), model.pop());
        }
    }
    assert_eq!(s.as_str(), model);
    expect_panic(|| s.truncate(2)); // inside 'é' (bytes 1..3)
    assert_eq!(s.as_str(), model);
    s.truncate(3);
    assert_eq!(s.as_str(), "aé");
    s.clear();
    assert_eq!(s.pop(), None);
}

/// A pool whose one-block limit fills after fewer characters under Miri (the smallest
/// block, half the default).
fn small_blocks_under_miri() -> BlockPool {
    if cfg!(miri) { BlockPool::with_block_size(1) } else { BlockPool::new() }
}

#[test]
fn try_push_at_a_limit_hands_the_char_back_and_keeps_the_string_valid() {
    let pool = small_blocks_under_miri();
    let scope = pool.scope();
    scope.set_limit(Some(pool.block_size()));
    let mut s = ArenaString::new_in(&scope);
    let mut count = 0;
    loop {
        match s.try_push('€') {
            Ok(()) => count += 1,
            Err(e) => {
                assert_eq!(e.into_value(), '€');
                break;
            }
        }
    }
    assert_eq!(s.chars().count(), count);
    assert!(s.chars().all(|c| c == '€'));
    assert!(s.try_push_str("longer than nothing").is_err() || s.ends_with("nothing"));
    assert!(std::str::from_utf8(s.as_bytes()).is_ok());
}

#[test]
fn fmt_write_at_a_limit_fails_without_breaking_utf8() {
    let pool = small_blocks_under_miri();
    let scope = pool.scope();
    scope.set_limit(Some(pool.block_size()));
    let mut s = ArenaString::new_in(&scope);
    let mut result = Ok(());
    for i in 0..100_000 {
        result = write!(s, "{i}é");
        if result.is_err() {
            break;
        }
    }
    assert!(result.is_err());
    assert!(std::str::from_utf8(s.as_bytes()).is_ok());
    let last = s.chars().last().unwrap();
    assert!(last == 'é' || last.is_ascii_digit());
}

#[test]
fn into_str_slices_outlive_their_strings_and_strings_grow_past_a_block() {
    let len = if cfg!(miri) { 500 } else { 4000 };
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut kept = Vec::new();
    for round in 0..3 {
        let mut s = ArenaString::from_str_in("start-", &scope);
        for i in 0..len {
            s.push(char::from(b'a' + ((i + round) % 26) as u8));
        }
        kept.push(s.into_str());
    }
    for (round, s) in kept.iter().enumerate() {
        assert!(s.starts_with("start-"));
        assert_eq!(s.len(), 6 + len);
        assert_eq!(s.as_bytes()[6], b'a' + round as u8);
    }
    kept[0].make_ascii_uppercase();
    assert!(kept[0].starts_with("START-"));
    assert!(kept[1].starts_with("start-"));
}

#[test]
fn str_methods_through_deref_mut_keep_the_string_utf8() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let mut s = ArenaString::from_str_in("héllo wörld", &scope);
    s.make_ascii_uppercase();
    assert_eq!(s.as_str(), "HéLLO WöRLD");
    let (a, _) = s.split_at_mut(1);
    a.make_ascii_lowercase();
    assert_eq!(s, "héLLO WöRLD");
}
