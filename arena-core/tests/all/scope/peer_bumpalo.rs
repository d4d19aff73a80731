//! bumpalo's own test suite (fitzgen/bumpalo, `tests/all/*.rs` and `tests/*.rs`),
//! re-expressed against arena-kit's API as a bumpalo user would expect it to behave.
//! Each test names the bumpalo test it mirrors (`file::name`); where arena-kit differs
//! on purpose the test says how, and `docs/coming-from-bumpalo.md` lists every
//! difference.
//!
//! Not ported, and why:
//! - `tests.rs::bump_is_send`: a scope or arena is `!Send` (it may hold `Rc`s whose
//!   destructors it runs); `tests/ui/arena_is_not_send.rs` checks it.
//! - `tests.rs::test_debug_assert_ptr_align_pr_313`, `with_capacity_test`'s
//!   `Bump::<1>::with_min_align*`: there is no minimum-alignment parameter.
//! - `tests.rs::checkpoint_after_shrink_realloc`, `quickchecks.rs::stress_raw_checkpoints`:
//!   no raw checkpoints (a child scope is the checkpoint: `Scope::scope`).
//! - `emplace.rs` and `tests.rs::emplace_*`: no emplace API (`Scope::alloc_with` builds
//!   in place).
//! - `try_alloc.rs`: it installs a failing global allocator, which would fail every other
//!   test of this binary; `hostile_allocator.rs` covers refused allocations.
//! - `tests.rs::miri_stacked_borrows_issue_247` is ported with allocator-api2's `Box`.
//! - `alloc_with.rs`, `try_alloc_with.rs`, `alloc_try_with.rs`, `try_alloc_try_with.rs`:
//!   bumpalo runs them in release builds only, with 10-60 MB values that overflow the
//!   stack unless LLVM builds them in place; here they run everywhere with values that fit
//!   a test thread's stack, checking the results rather than the optimiser.

use std::alloc::Layout;
use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::mem;
use std::rc::Rc;

use arena_kit::{
    AllocOrInitError, Arena, ArenaBox, ArenaString, ArenaVec, BlockPool, CollectIn, format, vec,
};
use proptest::prelude::*;

use crate::common::{expect_panic, scaled};

fn config() -> ProptestConfig {
    crate::common::proptest_config(128)
}

/// Text of up to `max` arbitrary characters (a character strategy rather than a regex:
/// much cheaper under Miri).
fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..=max).prop_map(String::from_iter)
}

/// `[start, end)` of a value's bytes.
fn range_of<T: ?Sized>(t: &T) -> (usize, usize) {
    let start = (t as *const T).cast::<u8>() as usize;
    (start, start + mem::size_of_val(t))
}

fn overlap(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

// ----- vec.rs -----------------------------------------------------------------------

/// bumpalo `tests/all/vec.rs::push_a_bunch_of_items`.
#[test]
fn vec_push_a_bunch_of_items() {
    let arena = Arena::new();
    let mut v = ArenaVec::new_in(&arena);
    for x in 0..scaled(10_000) {
        v.push(x);
    }
    assert!(v.iter().copied().eq(0..scaled(10_000)));
}

/// bumpalo `tests/all/vec.rs::trailing_comma_in_vec_macro`.
#[test]
fn vec_trailing_comma_in_vec_macro() {
    let arena = Arena::new();
    let v = vec![in &arena; 1, 2, 3,];
    assert_eq!(v, [1, 2, 3]);
}

/// bumpalo `tests/all/vec.rs::recursive_vecs`: nodes pointing at themselves and each
/// other through vectors. Deliberate difference: bumpalo never drops its values, so it
/// accepts them in the arena as they are; a scope drops its values, and a node whose
/// drop glue (here its vector) could run after a node it points to is rejected by
/// `alloc`. Giving the destructor up with `ArenaBox::leak` is bumpalo's behaviour,
/// asked for explicitly.
#[test]
fn vec_recursive_vecs() {
    struct Node<'a> {
        myself: Cell<Option<&'a Node<'a>>>,
        edges: Cell<ArenaVec<'a, &'a Node<'a>>>,
    }

    let arena = Arena::new();
    let node = || Node { myself: Cell::new(None), edges: Cell::new(ArenaVec::new_in(&arena)) };
    let node1: &Node<'_> = ArenaBox::leak(ArenaBox::new_in(node(), &arena));
    let node2: &Node<'_> = ArenaBox::leak(ArenaBox::new_in(node(), &arena));
    node1.myself.set(Some(node1));
    node1.edges.set(vec![in &arena; node1, node1, node2]);
    node2.myself.set(Some(node2));
    node2.edges.set(vec![in &arena; node1, node2]);

    let edges = node1.edges.replace(ArenaVec::new_in(&arena));
    assert!(std::ptr::eq(edges[2], node2));
    assert!(std::ptr::eq(node2.myself.get().unwrap(), node2));
}

/// bumpalo `tests/all/vec.rs::test_into_bump_slice_mut`.
#[test]
fn vec_test_into_bump_slice_mut() {
    let arena = Arena::new();
    let slice = vec![in &arena; 1, 2, 3].into_slice();
    slice[0] = 3;
    slice[2] = 1;
    assert_eq!(slice, [3, 2, 1]);
}

proptest! {
    #![proptest_config(config())]

    /// bumpalo `tests/all/vec.rs::vec_resizes_causing_reallocs`: resizes across blocks,
    /// each followed by `shrink_to_fit`.
    #[test]
    fn vec_resizes_causing_reallocs(sizes in prop::collection::vec(any::<usize>(), 0..16)) {
        let max = if cfg!(miri) { 1 << 11 } else { 1 << 15 };
        let arena = Arena::new();
        let mut v = vec![in &arena];
        for len in sizes {
            let len = len.clamp(1 << 7, max);
            v.resize(len, 0_u8);
            v.shrink_to_fit();
            prop_assert_eq!(v.len(), len);
            prop_assert!(v.capacity() >= len);
        }
    }

    /// bumpalo `tests/all/vec.rs::vec_operation_sequences_match_std`.
    #[test]
    fn vec_operation_sequences_match_std(ops in prop::collection::vec(vec_op(), 0..64)) {
        let arena = Arena::new();
        let mut actual = ArenaVec::new_in(&arena);
        let mut expected = Vec::new();
        for op in ops {
            match op {
                VecOp::Push(x) => { actual.push(x); expected.push(x); }
                VecOp::Pop => prop_assert_eq!(actual.pop(), expected.pop()),
                VecOp::Extend(xs) => {
                    actual.extend_from_slice_copy(&xs);
                    expected.extend_from_slice(&xs);
                }
                VecOp::Resize(len, fill) => {
                    actual.resize(usize::from(len) % 48, fill);
                    expected.resize(usize::from(len) % 48, fill);
                }
                VecOp::Truncate(len) => {
                    actual.truncate(usize::from(len) % 48);
                    expected.truncate(usize::from(len) % 48);
                }
                VecOp::ShrinkToFit => { actual.shrink_to_fit(); expected.shrink_to_fit(); }
            }
            prop_assert_eq!(actual.as_slice(), expected.as_slice());
            prop_assert!(actual.capacity() >= actual.len());
        }
        prop_assert_eq!(&*actual.into_slice(), expected.as_slice());
    }
}

#[derive(Debug, Clone)]
enum VecOp {
    Push(u8),
    Pop,
    Extend(Vec<u8>),
    Resize(u8, u8),
    Truncate(u8),
    ShrinkToFit,
}

fn vec_op() -> impl Strategy<Value = VecOp> {
    prop_oneof![
        any::<u8>().prop_map(VecOp::Push),
        Just(VecOp::Pop),
        prop::collection::vec(any::<u8>(), 0..16).prop_map(VecOp::Extend),
        (any::<u8>(), any::<u8>()).prop_map(|(n, x)| VecOp::Resize(n, x)),
        any::<u8>().prop_map(VecOp::Truncate),
        Just(VecOp::ShrinkToFit),
    ]
}

/// bumpalo `tests/all/vec.rs::test_vec_items_get_dropped`.
#[test]
fn vec_test_vec_items_get_dropped() {
    struct Foo<'a>(&'a RefCell<String>);
    impl Drop for Foo<'_> {
        fn drop(&mut self) {
            self.0.borrow_mut().push_str("Dropped!");
        }
    }

    let buffer = RefCell::new(String::new());
    let arena = Arena::new();
    {
        let mut v = ArenaVec::new_in(&arena);
        v.push(Foo(&buffer));
        v.push(Foo(&buffer));
    }
    assert_eq!(*buffer.borrow(), "Dropped!Dropped!");
}

/// bumpalo `tests/all/vec.rs::test_extend_from_slice_copy`.
#[test]
fn vec_test_extend_from_slice_copy() {
    let arena = Arena::new();
    let mut v = vec![in &arena; 1, 2, 3];
    v.extend_from_slice_copy(&[4, 5, 6]);
    assert_eq!(v, [1, 2, 3, 4, 5, 6]);
    v.extend_from_slice_copy(&[]);
    assert_eq!(v, [1, 2, 3, 4, 5, 6]);
    v.extend_from_slice_copy(&[7]);
    assert_eq!(v, [1, 2, 3, 4, 5, 6, 7]);
}

/// bumpalo `tests/all/vec.rs::test_extend_from_slices_copy`.
#[test]
fn vec_test_extend_from_slices_copy() {
    let arena = Arena::new();
    let mut v = vec![in &arena; 1, 2, 3];
    v.extend_from_slices_copy(&[]);
    assert_eq!(v, [1, 2, 3]);
    v.extend_from_slices_copy(&[&[4, 5, 6], &[], &[7]]);
    assert_eq!(v, [1, 2, 3, 4, 5, 6, 7]);
    v.extend_from_slices_copy(&[&[8], &[9, 10, 11], &[12]]);
    assert_eq!(v, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
}

/// bumpalo `tests/all/vec.rs::test_vec_write`.
#[test]
fn vec_test_vec_write() {
    use std::io::Write;

    let arena = Arena::new();
    let mut v = vec![in &arena];
    assert_eq!(v.write(&[]).unwrap(), 0);
    v.flush().unwrap();
    assert_eq!(v.write(&[1]).unwrap(), 1);
    v.write_all(&[]).unwrap();
    v.write_all(&[2, 3]).unwrap();
    v.flush().unwrap();
    assert_eq!(v, [1_u8, 2, 3]);
}

/// A value whose drops are counted in a borrowed cell, with a tag to recognise it.
#[derive(Debug)]
struct Tracked<'a>(i32, &'a Cell<usize>);

impl Drop for Tracked<'_> {
    fn drop(&mut self) {
        self.1.set(self.1.get() + 1);
    }
}

/// bumpalo's predicate in its `panic_in_*` tests: drops `Tracked(1)`, panics on
/// `Tracked(2)`, keeps `Tracked(3)`.
fn keep_or_panic(id: i32) -> bool {
    assert!(id != 2, "predicate panics on purpose");
    id != 1
}

/// Runs `filter` on a vector of `Tracked(1..=3)`, expecting it to panic; returns how many
/// values were dropped in all once everything is gone.
fn drops_after_a_panicking_filter(filter: impl FnOnce(&mut ArenaVec<'_, Tracked<'_>>)) -> usize {
    let drops = Cell::new(0);
    let arena = Arena::new();
    expect_panic(|| {
        let mut v = ArenaVec::new_in(&arena);
        v.extend([1, 2, 3].map(|i| Tracked(i, &drops)));
        filter(&mut v);
    });
    drops.get()
}

/// bumpalo `tests/all/vec.rs::panic_in_drain_filter`, with `extract_if` (std's name for
/// `drain_filter`). Deliberate difference: bumpalo expects 2 drops because it leaks the
/// element whose predicate panicked; here it stays in the vector and is dropped with it,
/// so all 3 drop, each once.
#[test]
fn vec_panic_in_drain_filter() {
    let drops = drops_after_a_panicking_filter(|v| {
        let mut it = v.extract_if(.., |x| !keep_or_panic(x.0));
        let extracted = it.next();
        assert!(extracted.is_some());
        let _ = it.next();
    });
    assert_eq!(drops, 3);
}

/// bumpalo `tests/all/vec.rs::panic_in_retain`.
#[test]
fn vec_panic_in_retain() {
    assert_eq!(drops_after_a_panicking_filter(|v| v.retain(|x| keep_or_panic(x.0))), 3);
}

/// bumpalo `tests/all/vec.rs::panic_in_retain_mut`.
#[test]
fn vec_panic_in_retain_mut() {
    assert_eq!(drops_after_a_panicking_filter(|v| v.retain_mut(|x| keep_or_panic(x.0))), 3);
}

// ----- string.rs --------------------------------------------------------------------

/// bumpalo `tests/all/string.rs::format_a_bunch_of_strings`.
#[test]
fn string_format_a_bunch_of_strings() {
    let arena = Arena::new();
    let mut s = ArenaString::from_str_in("hello", &arena);
    for i in 0..scaled(1000) {
        write!(&mut s, " {i}").unwrap();
    }
    assert!(s.ends_with(&format!(" {}", scaled(1000) - 1)));
}

/// bumpalo `tests/all/string.rs::trailing_comma_in_format_macro`.
#[test]
fn string_trailing_comma_in_format_macro() {
    let arena = Arena::new();
    let s = format!(in &arena, "{}{}", 1, 2,);
    assert_eq!(s, "12");
}

/// bumpalo `tests/all/string.rs::push_str`.
#[test]
fn string_push_str() {
    let arena = Arena::new();
    let mut s = ArenaString::new_in(&arena);
    s.push_str("abc");
    assert_eq!(s, "abc");
    s.push_str("def");
    assert_eq!(s, "abcdef");
    s.push_str("");
    assert_eq!(s, "abcdef");
    s.push_str(&"x".repeat(4000));
    assert_eq!(s.len(), 4006);
    s.push_str("ghi");
    assert_eq!(s.len(), 4009);
    assert_eq!(&s[s.len() - 5..], "xxghi");
}

#[derive(Debug, Clone)]
enum StringOp {
    PushChar(char),
    PushStr(String),
    WriteStr(String),
    Pop,
    Truncate(usize),
    ShrinkToFit,
}

fn string_op() -> impl Strategy<Value = StringOp> {
    prop_oneof![
        any::<char>().prop_map(StringOp::PushChar),
        text(8).prop_map(StringOp::PushStr),
        text(8).prop_map(StringOp::WriteStr),
        Just(StringOp::Pop),
        any::<usize>().prop_map(StringOp::Truncate),
        Just(StringOp::ShrinkToFit),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// bumpalo `tests/all/string.rs::string_operation_sequences_match_std`.
    #[test]
    fn string_operation_sequences_match_std(ops in prop::collection::vec(string_op(), 0..64)) {
        let arena = Arena::new();
        let mut actual = ArenaString::new_in(&arena);
        let mut expected = String::new();
        for op in ops {
            match op {
                StringOp::PushChar(c) => { actual.push(c); expected.push(c); }
                StringOp::PushStr(s) => { actual.push_str(&s); expected.push_str(&s); }
                StringOp::WriteStr(s) => {
                    write!(actual, "{s}").unwrap();
                    write!(expected, "{s}").unwrap();
                }
                StringOp::Pop => prop_assert_eq!(actual.pop(), expected.pop()),
                StringOp::Truncate(n) => {
                    let chars = n % (expected.chars().count() + 1);
                    let at = expected.char_indices().nth(chars).map_or(expected.len(), |(i, _)| i);
                    actual.truncate(at);
                    expected.truncate(at);
                }
                StringOp::ShrinkToFit => { actual.shrink_to_fit(); expected.shrink_to_fit(); }
            }
            prop_assert_eq!(actual.as_str(), expected.as_str());
            prop_assert!(actual.capacity() >= actual.len());
        }
    }

    /// bumpalo `tests/all/collect_in.rs::test_string_collect`.
    #[test]
    fn collect_in_test_string_collect(input in text(40)) {
        let arena = Arena::new();
        let s = input.chars().collect_in::<ArenaString<'_>>(&arena);
        prop_assert_eq!(s.as_str(), input.as_str());
    }

    /// bumpalo `tests/all/collect_in.rs::test_vec_collect`.
    #[test]
    fn collect_in_test_vec_collect(input in prop::collection::vec(any::<i32>(), 0..64)) {
        let arena = Arena::new();
        let v = input.iter().copied().collect_in::<ArenaVec<'_, _>>(&arena);
        prop_assert_eq!(v.as_slice(), input.as_slice());
    }
}

/// bumpalo `tests/reproduce_issue_261.rs::issue_261_reproduction`: a panic in
/// `String::retain`'s predicate must leave valid UTF-8.
#[test]
fn reproduce_issue_261_issue_261_reproduction() {
    let arena = Arena::new();
    let mut s = ArenaString::new_in(&arena);
    s.push_str("_få_b");
    expect_panic(|| {
        s.retain(|c| {
            assert!(c != 'b', "predicate panics on purpose");
            c != '_'
        });
    });
    assert!(std::str::from_utf8(s.as_bytes()).is_ok());
    // The characters judged before the panic are filtered, the rest kept whole.
    assert_eq!(s, "fåb");
}

// ----- boxed.rs ---------------------------------------------------------------------

/// bumpalo `tests/all/boxed.rs::into_raw_aliasing`, with `leak` (there is no public
/// `into_raw`): the leaked reference is the only one to the value.
#[test]
fn boxed_into_raw_aliasing() {
    let arena = Arena::new();
    let boxed = ArenaBox::new_in(1, &arena);
    let r: &mut i32 = ArenaBox::leak(boxed);
    *r += 1;
    assert_eq!(*r, 2);
}

/// bumpalo `tests/all/boxed.rs::test_box_basic`.
#[test]
fn boxed_test_box_basic() {
    let arena = Arena::new();
    let mut value = ArenaBox::new_in("hello".to_string(), &arena);
    assert_eq!(*value, "hello");
    *value = "world".to_string();
    assert_eq!(*value, "world");
}

/// bumpalo `tests/all/boxed.rs::_box_is_covariant`: compiles only if `ArenaBox` is
/// covariant in its value (and its scope borrow).
#[expect(dead_code, reason = "a type check: compiling is the test")]
fn boxed_box_is_covariant<'sup, 'sub: 'sup>(
    a: ArenaBox<'sup, &'sup u32>,
    b: ArenaBox<'sub, &'sub u32>,
    f: impl Fn(ArenaBox<'sup, &'sup u32>),
) {
    f(a);
    f(b);
}

/// bumpalo `tests/all/boxed.rs::box_is_send_sync`.
#[test]
fn boxed_box_is_send_sync() {
    fn assert_send(_: impl Send) {}
    fn assert_sync(_: impl Sync) {}

    let arena = Arena::new();
    assert_send(ArenaBox::new_in(42, &arena));
    assert_sync(ArenaBox::new_in(42, &arena));
    let boxed_str: ArenaBox<'static, str> = ArenaBox::default();
    assert_send(boxed_str);
    let boxed_str: ArenaBox<'static, str> = ArenaBox::default();
    assert_sync(boxed_str);
}

/// A value that records its serial number in a shared log when dropped.
#[derive(Debug)]
struct DropSpy {
    serial: usize,
    payload: u8,
    drops: Rc<RefCell<Vec<usize>>>,
}

impl Drop for DropSpy {
    fn drop(&mut self) {
        self.drops.borrow_mut().push(self.serial);
    }
}

#[derive(Debug, Clone)]
enum BoxOp {
    Push(u8),
    Pop,
    Remove(u8),
    Truncate(u8),
    Clear,
}

fn box_op() -> impl Strategy<Value = BoxOp> {
    prop_oneof![
        3 => any::<u8>().prop_map(BoxOp::Push),
        1 => Just(BoxOp::Pop),
        1 => any::<u8>().prop_map(BoxOp::Remove),
        1 => any::<u8>().prop_map(BoxOp::Truncate),
        1 => Just(BoxOp::Clear),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// bumpalo `tests/all/boxed.rs::boxed_vec_operation_sequences_drop_exactly_once`.
    #[test]
    fn boxed_vec_operation_sequences_drop_exactly_once(
        ops in prop::collection::vec(box_op(), 0..if cfg!(miri) { 16 } else { 64 }),
    ) {
        let arena = Arena::new();
        let drops = Rc::new(RefCell::new(Vec::new()));
        let mut actual: ArenaVec<'_, ArenaBox<'_, DropSpy>> = ArenaVec::new_in(&arena);
        let mut expected: Vec<(usize, u8)> = Vec::new();
        let mut next_serial = 0;
        for op in ops {
            let checkpoint = drops.borrow().len();
            let mut expected_drops = Vec::new();
            match op {
                BoxOp::Push(payload) => {
                    let spy = DropSpy { serial: next_serial, payload, drops: drops.clone() };
                    actual.push(ArenaBox::new_in(spy, &arena));
                    expected.push((next_serial, payload));
                    next_serial += 1;
                }
                BoxOp::Pop => {
                    let got = actual.pop().map(|b| b.payload);
                    let want = expected.pop().map(|(serial, payload)| {
                        expected_drops.push(serial);
                        payload
                    });
                    prop_assert_eq!(got, want);
                }
                BoxOp::Remove(i) if !expected.is_empty() => {
                    let i = usize::from(i) % expected.len();
                    let got = actual.remove(i).payload;
                    let (serial, want) = expected.remove(i);
                    expected_drops.push(serial);
                    prop_assert_eq!(got, want);
                }
                BoxOp::Remove(_) => prop_assert!(actual.is_empty()),
                BoxOp::Truncate(len) => {
                    let len = usize::from(len) % 49;
                    expected_drops.extend(expected.iter().skip(len).map(|(serial, _)| *serial));
                    expected.truncate(len);
                    actual.truncate(len);
                }
                BoxOp::Clear => {
                    expected_drops.extend(expected.iter().map(|(serial, _)| *serial));
                    expected.clear();
                    actual.clear();
                }
            }
            let mut got_drops = drops.borrow()[checkpoint..].to_vec();
            got_drops.sort_unstable();
            expected_drops.sort_unstable();
            prop_assert_eq!(got_drops, expected_drops);
            let live: Vec<u8> = actual.iter().map(|b| b.payload).collect();
            let want: Vec<u8> = expected.iter().map(|(_, payload)| *payload).collect();
            prop_assert_eq!(live, want);
        }
        drop(actual);
        prop_assert_eq!(drops.borrow().len(), next_serial);
    }
}

// ----- serde/*.rs -------------------------------------------------------------------

#[cfg(feature = "serde")]
mod serde {
    use super::{Arena, ArenaBox, ArenaString, vec};

    fn json<T: ::serde::Serialize + ?Sized>(value: &T) -> String {
        serde_json::to_string(value).unwrap()
    }

    /// bumpalo `tests/all/serde/boxed.rs::test_box_serializes`.
    #[test]
    fn boxed_test_box_serializes() {
        let arena = Arena::new();
        assert_eq!(json(&ArenaBox::new_in(1, &arena)), json(&Box::new(1)));
        let words = std::vec!["hello", "world"];
        assert_eq!(json(&ArenaBox::new_in(words.clone(), &arena)), json(&Box::new(words)));
    }

    /// bumpalo `tests/all/serde/boxed.rs::test_box_serializes_complex` (a tuple stands
    /// in for the derived struct: the crate's dev build has no serde derive).
    #[test]
    fn boxed_test_box_serializes_complex() {
        let arena = Arena::new();
        let mixed = (8, String::from("a"), None::<String>, ["Second"]);
        let boxed = ArenaBox::new_in(mixed.clone(), &arena);
        assert_eq!(json(&boxed), json(&Box::new(mixed.clone())));
        let back: (i32, String, Option<String>, [String; 1]) =
            serde_json::from_str(&json(&boxed)).unwrap();
        assert_eq!((back.0, back.1, back.2), (mixed.0, mixed.1, mixed.2));
    }

    /// bumpalo `tests/all/serde/vec.rs::test_vec_serializes_str`.
    #[test]
    fn vec_test_vec_serializes_str() {
        let arena = Arena::new();
        let v = vec![in &arena; "hello", "world"];
        assert_eq!(json(&v), json(&std::vec!["hello", "world"]));
        let back: Vec<String> = serde_json::from_str(&json(&v)).unwrap();
        assert_eq!(back, ["hello", "world"]);
    }

    /// bumpalo `tests/all/serde/vec.rs::test_vec_serializes_f32`.
    #[test]
    fn vec_test_vec_serializes_f32() {
        let arena = Arena::new();
        let v = vec![in &arena; 1.5_f32, 2.25];
        assert_eq!(json(&v), json(&std::vec![1.5_f32, 2.25]));
        let back: Vec<f32> = serde_json::from_str(&json(&v)).unwrap();
        assert_eq!(back, v.as_slice());
    }

    /// bumpalo `tests/all/serde/vec.rs::test_vec_serializes_complex` (tuples, as above).
    #[test]
    fn vec_test_vec_serializes_complex() {
        let arena = Arena::new();
        let a = (8, String::from("a"), None::<String>);
        let b = (8, String::from("b"), Some(String::from("some")));
        let v = vec![in &arena; a.clone(), b.clone()];
        assert_eq!(json(&v), json(&std::vec![a.clone(), b.clone()]));
        let back: Vec<(i32, String, Option<String>)> = serde_json::from_str(&json(&v)).unwrap();
        assert_eq!(back, [a, b]);
    }

    /// bumpalo `tests/all/serde/string.rs::test_string_serializes`.
    #[test]
    fn string_test_string_serializes() {
        let arena = Arena::new();
        let s = ArenaString::from_str_in("hello world !", &arena);
        assert_eq!(json(&s), json("hello world !"));
        let back: String = serde_json::from_str(&json(&s)).unwrap();
        assert_eq!(back, "hello world !");
    }
}

// ----- alloc_fill.rs ----------------------------------------------------------------

/// bumpalo `tests/all/alloc_fill.rs::alloc_slice_fill_zero`: empty fills and zero-sized
/// values take no bytes (bumpalo checks the pointers of its downward bump; the byte
/// count says the same here) and never call the fill closure.
#[test]
fn alloc_fill_alloc_slice_fill_zero() {
    struct MyZeroSizedType;

    let arena = Arena::new();
    arena.alloc_layout(Layout::new::<u8>());
    let before = arena.stats().allocated_bytes;
    arena.alloc_slice_copy::<u64>(&[]);
    arena.alloc_slice_clone::<String>(&[]);
    arena.alloc_slice_fill_with::<String, _>(0, |_| panic!("should not happen"));
    arena.alloc_slice_fill_copy(0, 42_u64);
    arena.alloc_slice_fill_clone(0, &"hello".to_string());
    arena.alloc_slice_fill_default::<String>(0);
    arena.alloc(MyZeroSizedType);
    assert_eq!(arena.stats().allocated_bytes, before);
    let next = arena.alloc_layout(Layout::new::<u8>());
    assert_eq!(arena.stats().allocated_bytes, before + 1);
    assert!(arena.blocks().any(|b| b.addr + before == next.as_ptr() as usize));
}

/// bumpalo `tests/all/alloc_fill.rs::alloc_slice_try_fill_with_succeeds`.
#[test]
fn alloc_fill_alloc_slice_try_fill_with_succeeds() {
    let arena = Arena::new();
    let res: Result<&mut [usize], ()> = arena.alloc_slice_try_fill_with(100, Ok);
    assert_eq!(res.map(|arr| arr[50]), Ok(50));
}

/// bumpalo `tests/all/alloc_fill.rs::alloc_slice_try_fill_with_fails`.
#[test]
fn alloc_fill_alloc_slice_try_fill_with_fails() {
    let arena = Arena::new();
    let res: Result<&mut [u16], ()> =
        arena.alloc_slice_try_fill_with(1000, |n| if n == 100 { Err(()) } else { Ok(42) });
    assert_eq!(res, Err(()));
}

/// bumpalo `tests/all/alloc_fill.rs::alloc_slice_try_fill_iter_succeeds`.
#[test]
fn alloc_fill_alloc_slice_try_fill_iter_succeeds() {
    let arena = Arena::new();
    let elems = std::iter::repeat_n(42, 10).collect::<Vec<u16>>();
    let res: Result<&mut [u16], ()> = arena.alloc_slice_try_fill_iter(elems.into_iter().map(Ok));
    assert_eq!(res.map(|arr| arr[5]), Ok(42));
}

/// bumpalo `tests/all/alloc_fill.rs::alloc_slice_try_fill_iter_fails`.
#[test]
fn alloc_fill_alloc_slice_try_fill_iter_fails() {
    let arena = Arena::new();
    let elems = std::iter::repeat_n((), 10).collect::<Vec<_>>();
    let res: Result<&mut [u16], ()> = arena.alloc_slice_try_fill_iter(elems.into_iter().map(Err));
    assert_eq!(res, Err(()));
}

/// bumpalo `tests/all/alloc_fill.rs::alloc_slice_fill_with_panic_rewinds_last_allocation`.
#[test]
fn alloc_fill_alloc_slice_fill_with_panic_rewinds_last_allocation() {
    let arena = Arena::new();
    arena.alloc([1_u8; 17]);
    let before = arena.stats().allocated_bytes;
    expect_panic(|| {
        arena.alloc_slice_fill_with(8, |i| {
            assert!(i != 3, "boom");
            i
        })
    });
    assert_eq!(arena.stats().allocated_bytes, before);
}

/// bumpalo `tests/all/alloc_fill.rs::try_alloc_slice_fill_with_panic_rewinds_last_allocation`,
/// with values that have destructors (their drop node is given back too).
#[test]
fn alloc_fill_try_alloc_slice_fill_with_panic_rewinds_last_allocation() {
    let arena = Arena::new();
    arena.alloc([2_u8; 19]);
    let before = arena.stats().allocated_bytes;
    expect_panic(|| {
        arena.try_alloc_slice_fill_with(8, |i| {
            assert!(i != 4, "boom");
            i.to_string()
        })
    });
    assert_eq!(arena.stats().allocated_bytes, before);
}

/// bumpalo `tests/all/alloc_fill.rs::alloc_slice_try_fill_with_err_rewinds_last_allocation`.
#[test]
fn alloc_fill_alloc_slice_try_fill_with_err_rewinds_last_allocation() {
    let arena = Arena::new();
    arena.alloc([3_u8; 23]);
    let before = arena.stats().allocated_bytes;
    let result = arena.alloc_slice_try_fill_with(8, |i| if i == 5 { Err(()) } else { Ok(i) });
    assert!(result.is_err());
    assert_eq!(arena.stats().allocated_bytes, before);
}

/// bumpalo `tests/all/alloc_fill.rs::alloc_slice_overflow`. Difference: the panic says
/// the size overflows (bumpalo reports it as out of memory).
#[test]
fn alloc_fill_alloc_slice_overflow() {
    let arena = Arena::new();
    expect_panic(|| arena.alloc_slice_fill_default::<u64>(usize::MAX));
    assert!(arena.try_alloc_slice_fill_default::<u64>(usize::MAX).is_err());
}

// ----- alloc_with.rs, try_alloc_with.rs, alloc_try_with.rs, try_alloc_try_with.rs ---
// (Their values are large on purpose: `clippy::large_stack_arrays` is expected there.)

/// Sized to fit a test thread's stack even when not built in place.
const BIG: usize = if cfg!(miri) { 1 << 12 } else { 1 << 16 };

#[expect(dead_code, reason = "only its size and the `small` field are read")]
struct LargeStruct {
    small: usize,
    big1: [u8; BIG],
    big2: [u8; BIG],
}

impl LargeStruct {
    #[expect(clippy::large_stack_arrays, reason = "large values on purpose")]
    fn new(small: usize) -> Self {
        LargeStruct { small, big1: [2; BIG], big2: [3; BIG] }
    }
}

#[expect(dead_code, reason = "the large variant is never built")]
#[expect(clippy::large_enum_variant, reason = "bumpalo's large enum, on purpose")]
enum LargeEnum {
    Small,
    Large([u8; BIG]),
}

/// bumpalo `tests/all/alloc_with.rs::alloc_with_large_array`, `alloc_with_large_struct`,
/// `alloc_with_large_tuple`, `alloc_with_large_enum`.
#[test]
#[expect(clippy::large_stack_arrays, reason = "large values on purpose")]
fn alloc_with_alloc_with_large_values() {
    let arena = Arena::new();
    assert_eq!(arena.alloc_with(|| [4_u8; BIG])[BIG - 1], 4);
    assert_eq!(arena.alloc_with(|| LargeStruct::new(1)).small, 1);
    assert_eq!(arena.alloc_with(|| (1_u32, LargeStruct::new(2))).1.small, 2);
    assert!(matches!(arena.alloc_with(|| LargeEnum::Small), LargeEnum::Small));
}

/// bumpalo `tests/all/try_alloc_with.rs::try_alloc_with_large_array`,
/// `try_alloc_with_large_struct`, `try_alloc_with_large_tuple`,
/// `try_alloc_with_large_enum`.
#[test]
#[expect(clippy::large_stack_arrays, reason = "large values on purpose")]
fn try_alloc_with_try_alloc_with_large_values() {
    let arena = Arena::new();
    assert_eq!(arena.try_alloc_with(|| [4_u8; BIG]).unwrap()[0], 4);
    assert_eq!(arena.try_alloc_with(|| LargeStruct::new(1)).unwrap().small, 1);
    assert_eq!(arena.try_alloc_with(|| (1_u32, LargeStruct::new(2))).unwrap().1.small, 2);
    assert!(matches!(arena.try_alloc_with(|| LargeEnum::Small).unwrap(), LargeEnum::Small));
}

/// bumpalo `tests/all/alloc_try_with.rs::alloc_try_with_large_array` and the struct,
/// tuple and enum cases.
#[test]
#[expect(clippy::large_stack_arrays, reason = "large values on purpose")]
fn alloc_try_with_alloc_try_with_large_values() -> Result<(), ()> {
    let arena = Arena::new();
    assert_eq!(arena.alloc_try_with(|| Ok([4_u8; BIG]))?[BIG - 1], 4);
    assert_eq!(arena.alloc_try_with(|| Ok(LargeStruct::new(1)))?.small, 1);
    assert_eq!(arena.alloc_try_with(|| Ok((1_u32, LargeStruct::new(2))))?.1.small, 2);
    assert!(matches!(arena.alloc_try_with(|| Ok(LargeEnum::Small))?, LargeEnum::Small));
    Ok(())
}

/// bumpalo `tests/all/alloc_try_with.rs::alloc_try_with_large_array_err` and the struct,
/// tuple and enum cases; nothing stays allocated after an error.
#[test]
fn alloc_try_with_alloc_try_with_large_values_err() {
    let arena = Arena::new();
    arena.alloc(0_u8);
    let before = arena.stats().allocated_bytes;
    assert!(arena.alloc_try_with(|| Err::<[u8; BIG], _>(())).is_err());
    assert!(arena.alloc_try_with(|| Err::<LargeStruct, _>(())).is_err());
    assert!(arena.alloc_try_with(|| Err::<(u32, LargeStruct), _>(())).is_err());
    assert!(arena.alloc_try_with(|| Err::<LargeEnum, _>(())).is_err());
    assert_eq!(arena.stats().allocated_bytes, before);
}

/// bumpalo `tests/all/try_alloc_try_with.rs::try_alloc_try_with_large_array` and the
/// struct, tuple and enum cases, with their `_err` twins.
#[test]
#[expect(clippy::large_stack_arrays, reason = "large values on purpose")]
fn try_alloc_try_with_try_alloc_try_with_large_values() {
    let arena = Arena::new();
    let array = arena.try_alloc_try_with(|| Ok::<_, ()>([4_u8; BIG]));
    assert_eq!(array.map(|a| a[0]).ok(), Some(4));
    let tuple = arena.try_alloc_try_with(|| Ok::<_, ()>((1_u32, LargeStruct::new(2))));
    assert_eq!(tuple.map(|t| t.1.small).ok(), Some(2));
    let before = arena.stats().allocated_bytes;
    let err = arena.try_alloc_try_with(|| Err::<LargeStruct, _>(7));
    assert!(matches!(err, Err(AllocOrInitError::Init(7))));
    let err = arena.try_alloc_try_with(|| Err::<LargeEnum, _>("no"));
    assert!(matches!(err, Err(AllocOrInitError::Init("no"))));
    assert_eq!(arena.stats().allocated_bytes, before);
}

// ----- allocation_limit.rs ----------------------------------------------------------

/// bumpalo `tests/all/allocation_limit.rs::allocation_limit_trivial`.
#[test]
fn allocation_limit_allocation_limit_trivial() {
    let arena = Arena::with_capacity(0);
    arena.set_limit(Some(0));
    assert!(arena.try_alloc(5).is_err());
    assert!(arena.limit().unwrap() >= arena.stats().allocated_bytes);
    arena.set_limit(None);
    assert!(arena.try_alloc(5).is_ok());
}

/// bumpalo `tests/all/allocation_limit.rs::change_allocation_limit_with_live_allocations`:
/// the first value fits under a limit smaller than an arena's first block.
#[test]
fn allocation_limit_change_allocation_limit_with_live_allocations() {
    let arena = Arena::new();
    arena.set_limit(Some(512));
    arena.alloc(10);
    assert!(arena.try_alloc([0; 2048]).is_err());
    arena.set_limit(Some(16384));
    assert!(arena.try_alloc([0; 2048]).is_ok());
    assert!(arena.limit().unwrap() >= arena.stats().reserved_bytes);
}

/// bumpalo `tests/all/allocation_limit.rs::remove_allocation_limit_with_live_allocations`.
#[test]
fn allocation_limit_remove_allocation_limit_with_live_allocations() {
    let arena = Arena::new();
    arena.set_limit(Some(512));
    arena.alloc(10);
    assert!(arena.try_alloc([0; 2048]).is_err());
    assert!(arena.limit().unwrap() >= arena.stats().reserved_bytes);
    arena.set_limit(None);
    assert!(arena.try_alloc([0; 2048]).is_ok());
}

/// bumpalo `tests/all/allocation_limit.rs::reset_preserves_allocation_limits`.
#[test]
fn allocation_limit_reset_preserves_allocation_limits() {
    let mut arena = Arena::new();
    arena.set_limit(Some(512));
    arena.reset();
    assert!(arena.try_alloc([0; 2048]).is_err());
    assert!(arena.limit().unwrap() >= arena.stats().reserved_bytes);
}

/// bumpalo `tests/all/allocation_limit.rs::reset_updates_allocated_bytes`.
#[test]
fn allocation_limit_reset_updates_allocated_bytes() {
    let mut arena = Arena::new();
    arena.alloc([0; 1 << 9]);
    arena.alloc([0; 1 << 9]); // a second block
    let before = arena.stats().allocated_bytes;
    arena.reset();
    assert!(arena.stats().allocated_bytes < before);
}

/// bumpalo `tests/all/allocation_limit.rs::new_bump_allocated_bytes_is_zero`.
#[test]
fn allocation_limit_new_bump_allocated_bytes_is_zero() {
    assert_eq!(Arena::new().stats().allocated_bytes, 0);
    let pool = BlockPool::new();
    assert_eq!(pool.scope().stats().allocated_bytes, 0);
}

/// bumpalo `tests/all/allocation_limit.rs::small_allocation_limit`, for an arena and for
/// a pool's scope.
#[test]
fn allocation_limit_small_allocation_limit() {
    let arena = Arena::new();
    arena.set_limit(Some(64));
    assert!(arena.try_alloc([0; 1]).is_ok());
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.set_limit(Some(64));
    assert!(scope.try_alloc([0; 1]).is_ok());
    assert!(scope.stats().reserved_bytes <= 64);
}

// ----- capacity.rs --------------------------------------------------------------------

/// bumpalo `tests/all/capacity.rs::try_with_capacity_too_large`.
#[test]
fn capacity_try_with_capacity_too_large() {
    assert!(Arena::try_with_capacity(isize::MAX as usize + 1).is_err());
}

// ----- tests.rs -----------------------------------------------------------------------

/// bumpalo `tests/all/tests.rs::can_iterate_over_allocated_things`: every value lies in
/// one reported block, and each block is reported once, the newest first.
#[test]
fn tests_can_iterate_over_allocated_things() {
    let max = if cfg!(miri) { 1024 } else { 131_072 };
    let arena = Arena::new();
    let mut addrs = Vec::new();
    let mut block_starts = Vec::new();
    let mut last = None;
    for i in 0..max as u64 {
        let this = arena.alloc(i);
        assert_eq!(*this, i);
        let this = std::ptr::from_mut(this) as usize;
        if last.is_none_or(|last| last + 8 != this) {
            block_starts.push(this); // a new block starts with this value
        }
        addrs.push(this);
        last = Some(this);
    }
    let blocks: Vec<_> = arena.blocks().collect();
    assert_eq!(blocks.len(), block_starts.len());
    let mut seen = std::vec![false; addrs.len()];
    for (block, &start) in blocks.iter().zip(block_starts.iter().rev()) {
        assert_eq!(block.addr, start, "newest block first, each once");
        for (i, &a) in addrs.iter().enumerate() {
            if a >= block.addr && a + 8 <= block.addr + block.capacity {
                assert!(!seen[i], "value {i} in two blocks");
                seen[i] = true;
            }
        }
    }
    assert!(seen.iter().all(|s| *s));
}

/// bumpalo `tests/all/tests.rs::oom_instead_of_bump_pointer_overflow`. Difference: the
/// limit stops it first, so it panics with the limit (and the `try_` form returns it).
#[test]
fn tests_oom_instead_of_bump_pointer_overflow() {
    let arena = Arena::new();
    let p = std::ptr::from_mut(arena.alloc(0_u8)) as usize;
    arena.set_limit(Some(arena.stats().reserved_bytes));
    let Ok(layout) = Layout::from_size_align(p + 1, 1) else { return };
    assert!(arena.try_alloc_layout(layout).is_err());
    expect_panic(|| arena.alloc_layout(layout));
}

/// bumpalo `tests/all/tests.rs::force_new_chunk_fits_well`.
#[test]
fn tests_force_new_chunk_fits_well() {
    let arena = Arena::new();
    arena.alloc_layout(Layout::from_size_align(1, 1).unwrap());
    let a = arena.alloc_layout(Layout::from_size_align(100_001, 1).unwrap());
    let b = arena.alloc_layout(Layout::from_size_align(100_003, 1).unwrap());
    let a = (a.as_ptr() as usize, a.as_ptr() as usize + 100_001);
    let b = (b.as_ptr() as usize, b.as_ptr() as usize + 100_003);
    assert!(!overlap(a, b));
}

/// bumpalo `tests/all/tests.rs::alloc_with_strong_alignment`.
#[test]
fn tests_alloc_with_strong_alignment() {
    let arena = Arena::new();
    let p = arena.alloc_layout(Layout::from_size_align(4096, 64).unwrap());
    assert_eq!(p.as_ptr() as usize % 64, 0);
}

/// bumpalo `tests/all/tests.rs::alloc_slice_copy`.
#[test]
fn tests_alloc_slice_copy() {
    let arena = Arena::new();
    let src: &[u16] = &[0xFEED, 0xFACE, 0xA7, 0xCAFE];
    assert_eq!(arena.alloc_slice_copy(src), src);
}

/// bumpalo `tests/all/tests.rs::alloc_slice_clone`.
#[test]
fn tests_alloc_slice_clone() {
    let arena = Arena::new();
    let src = std::vec![std::vec![0], std::vec![1, 2], std::vec![3, 4, 5], std::vec![6, 7, 8, 9]];
    assert_eq!(arena.alloc_slice_clone(&src), src.as_slice());
}

/// bumpalo `tests/all/tests.rs::small_size_and_large_align`.
#[test]
fn tests_small_size_and_large_align() {
    let arena = Arena::new();
    let p = arena.alloc_layout(Layout::from_size_align(1, 0x1000).unwrap());
    assert_eq!(p.as_ptr() as usize % 0x1000, 0);
}

/// bumpalo `tests/all/tests.rs::with_capacity_test`: values pushed into an arena of any
/// first capacity read back in order.
#[test]
fn tests_with_capacity_test() {
    fn helper<T: Copy + std::fmt::Debug + Eq>(values: &(impl Iterator<Item = T> + Clone)) {
        for initial in [0, 1, 8, 11, 0x1000, 0x12345] {
            let arena = Arena::with_capacity(initial);
            let stored: Vec<&T> = values.clone().map(|v| &*arena.alloc(v)).collect();
            assert!(stored.into_iter().copied().eq(values.clone()));
            let first = arena.blocks().last().unwrap();
            assert!(first.capacity >= initial, "the first block holds what was asked");
        }
    }
    helper(&(0_u8..255));
    if !cfg!(miri) {
        helper(&(0_u16..10000));
        helper(&(0_u32..10000));
        helper(&(0_u64..10000));
        helper(&(0_u128..10000));
    }
}

/// bumpalo `tests/all/tests.rs::test_reset`: reset keeps one block, and bumping starts
/// over in it (at its start: arena-kit bumps upward).
#[test]
fn tests_test_reset() {
    let mut arena = Arena::new();
    for i in 0_u64..scaled(10_000) as u64 {
        arena.alloc(i);
    }
    assert!(arena.blocks().count() > 1);
    let current = arena.blocks().next().unwrap();
    arena.reset();
    let first = std::ptr::from_mut(arena.alloc(0_u64)) as usize;
    assert_eq!(first, current.addr);
    assert_eq!(arena.blocks().count(), 1);
}

/// bumpalo `tests/all/tests.rs::test_alignment`.
#[test]
fn tests_test_alignment() {
    for alignment in [2, 4, 8, 16, 32, 64] {
        let arena = Arena::with_capacity(513);
        let layout = Layout::from_size_align(alignment, alignment).unwrap();
        for _ in 0..scaled(1024) {
            assert_eq!(arena.alloc_layout(layout).as_ptr() as usize % alignment, 0);
        }
    }
}

/// bumpalo `tests/all/tests.rs::test_chunk_capacity`.
#[test]
fn tests_test_chunk_capacity() {
    let arena = Arena::with_capacity(512);
    let before = arena.block_room();
    assert!(before >= 512);
    arena.alloc(true);
    assert_eq!(arena.block_room(), before - 1);
}

/// bumpalo `tests/all/tests.rs::miri_stacked_borrows_issue_247`, through `&Scope`'s
/// `Allocator` with allocator-api2's `Box`.
#[cfg(feature = "allocator-api2")]
#[test]
fn tests_miri_stacked_borrows_issue_247() {
    use allocator_api2::boxed::Box;

    let arena = Arena::new();
    let (p, alloc) = Box::into_raw_with_allocator(Box::new_in(1_u8, &*arena));
    // SAFETY: `p` came from `into_raw_with_allocator` with this allocator, just above.
    drop(unsafe { Box::from_raw_in(p, alloc) });
    let q = Box::new_in(2_u16, &*arena);
    assert_eq!(*q, 2);
}

/// bumpalo `tests/all/tests.rs::test_debug_assert_data_le_bump_ptr_pr_313`: a zero-sized
/// layout needs no block, whatever the limit.
#[test]
fn tests_test_debug_assert_data_le_bump_ptr_pr_313() {
    let arena = Arena::new();
    arena.set_limit(Some(1));
    let p = arena.alloc_layout(Layout::from_size_align(0, 16).unwrap());
    assert_eq!(p.as_ptr() as usize % 16, 0);
    assert_eq!(arena.stats().blocks, 0);
}

// ----- allocator_api.rs ---------------------------------------------------------------

/// Needs `&Scope` as an `allocator_api2` allocator (the `allocator-api2` feature).
#[cfg(feature = "allocator-api2")]
mod allocator_api {
    use super::*;
    use allocator_api2::alloc::Allocator;

    /// bumpalo's `AllocatorDebug`: a scope as allocator, counting the calls it gets.
    struct Counting<'a, 'p> {
        scope: &'a arena_kit::Scope<'p>,
        allocs: Cell<usize>,
        grows: Cell<usize>,
        shrinks: Cell<usize>,
        deallocs: Cell<usize>,
    }

    fn bump(counter: &Cell<usize>) {
        counter.set(counter.get() + 1);
    }

    // SAFETY: every call is forwarded to `&Scope`'s allocator with the same arguments, so its
    // contract is the scope's.
    unsafe impl Allocator for &Counting<'_, '_> {
        fn allocate(
            &self,
            layout: Layout,
        ) -> Result<std::ptr::NonNull<[u8]>, allocator_api2::alloc::AllocError> {
            bump(&self.allocs);
            self.scope.allocate(layout)
        }

        unsafe fn deallocate(&self, ptr: std::ptr::NonNull<u8>, layout: Layout) {
            bump(&self.deallocs);
            // SAFETY: forwarded from the caller.
            unsafe { self.scope.deallocate(ptr, layout) };
        }

        unsafe fn grow(
            &self,
            ptr: std::ptr::NonNull<u8>,
            old: Layout,
            new: Layout,
        ) -> Result<std::ptr::NonNull<[u8]>, allocator_api2::alloc::AllocError> {
            bump(&self.grows);
            // SAFETY: forwarded from the caller.
            unsafe { self.scope.grow(ptr, old, new) }
        }

        unsafe fn shrink(
            &self,
            ptr: std::ptr::NonNull<u8>,
            old: Layout,
            new: Layout,
        ) -> Result<std::ptr::NonNull<[u8]>, allocator_api2::alloc::AllocError> {
            bump(&self.shrinks);
            // SAFETY: forwarded from the caller.
            unsafe { self.scope.shrink(ptr, old, new) }
        }
    }

    /// bumpalo `tests/all/allocator_api.rs::allocator_api_push_a_bunch_of_items`: a vector
    /// with the scope as allocator allocates once, grows, shrinks and frees through it, and
    /// keeps its elements.
    #[test]
    fn allocator_api_allocator_api_push_a_bunch_of_items() {
        let arena = Arena::new();
        let b = Counting {
            scope: &arena,
            allocs: Cell::new(0),
            grows: Cell::new(0),
            shrinks: Cell::new(0),
            deallocs: Cell::new(0),
        };
        let mut v = allocator_api2::vec::Vec::with_capacity_in(1024, &b);
        assert_eq!(b.allocs.get(), 1);
        v.extend(0..1024_u32);
        assert_eq!(b.grows.get(), 0);
        v.extend(1024..2048);
        assert_ne!(b.grows.get(), 0);
        v.truncate(1024);
        v.shrink_to_fit();
        assert_eq!(b.shrinks.get(), 1);
        assert!(v.iter().copied().eq(0..1024));
        assert_eq!(b.deallocs.get(), 0);
        drop(v);
        assert_eq!(b.deallocs.get(), 1);
    }

    /// bumpalo `tests/all/allocator_api.rs::allocator_grow_zeroed`: `grow_zeroed` of the
    /// newest allocation stays in place.
    #[test]
    fn allocator_api_allocator_grow_zeroed() {
        let arena = Arena::new();
        let alloc = &*arena;
        let first = Layout::from_size_align(4, 4).unwrap();
        let p = alloc.allocate_zeroed(first).unwrap().cast::<u8>();
        let allocated = arena.stats().allocated_bytes;
        // SAFETY: `p` holds 4 bytes, just allocated.
        unsafe { p.as_ptr().write_bytes(42, 4) };
        let second = Layout::from_size_align(8, 4).unwrap();
        // SAFETY: `p` is a live allocation of `first` from this allocator.
        let grown = unsafe { alloc.grow_zeroed(p, first, second) }.unwrap();
        assert_eq!(grown.cast::<u8>(), p, "grown in place");
        assert!(arena.stats().allocated_bytes <= allocated * 2);
        // SAFETY: `grown` holds 8 initialised bytes.
        assert_eq!(unsafe { grown.as_ref() }, [42, 42, 42, 42, 0, 0, 0, 0]);
    }

    /// A layout from two arbitrary numbers: alignment up to 64, size up to 1024.
    fn arbitrary_layout(size: usize, align_log2: u8) -> Layout {
        let align = 1 << (align_log2 % 7);
        Layout::from_size_align((size % 1025).next_multiple_of(align), align).unwrap()
    }

    proptest! {
        #![proptest_config(config())]

        /// bumpalo `tests/all/allocator_api.rs::allocator_grow_align_increase`.
        #[test]
        fn allocator_api_allocator_grow_align_increase(
            layouts in prop::collection::vec((any::<usize>(), any::<u8>()), 1..16),
        ) {
            let mut layouts: Vec<_> = layouts.into_iter().map(|(s, a)| arbitrary_layout(s, a)).collect();
            layouts.sort_by_key(|l| (l.size(), l.align()));
            let arena = Arena::new();
            let alloc = &*arena;
            let mut old = layouts[0];
            let mut p = alloc.allocate(old).unwrap();
            prop_assert_eq!(p.cast::<u8>().as_ptr() as usize % old.align(), 0);
            for new in layouts.into_iter().skip(1) {
                // SAFETY: `p` is a live allocation of `old`, and `new` is at least as large.
                p = unsafe { alloc.grow(p.cast(), old, new) }.unwrap();
                prop_assert_eq!(p.cast::<u8>().as_ptr() as usize % new.align(), 0);
                old = new;
            }
        }

        /// bumpalo `tests/all/allocator_api.rs::allocator_shrink_align_change`.
        #[test]
        fn allocator_api_allocator_shrink_align_change(
            layouts in prop::collection::vec((any::<usize>(), any::<u8>()), 1..16),
        ) {
            let mut layouts: Vec<_> = layouts.into_iter().map(|(s, a)| arbitrary_layout(s, a)).collect();
            layouts.sort_by_key(|l| std::cmp::Reverse(l.size()));
            let arena = Arena::new();
            let alloc = &*arena;
            let mut old = layouts[0];
            let mut p = alloc.allocate(old).unwrap();
            for new in layouts.into_iter().skip(1) {
                // SAFETY: `p` is a live allocation of `old`, and `new` is no larger.
                let shrunk = unsafe { alloc.shrink(p.cast(), old, new) };
                if let Ok(q) = shrunk {
                    prop_assert_eq!(q.cast::<u8>().as_ptr() as usize % new.align(), 0);
                    p = q;
                    old = new;
                } else {
                    prop_assert!(new.align() > old.align(), "only a stricter alignment may fail");
                }
            }
        }

        /// bumpalo `tests/all/allocator_api.rs::allocator_grow_or_shrink`: a run of grows,
        /// zeroed grows and shrinks keeps the bytes in front of the new size.
        #[test]
        fn allocator_api_allocator_grow_or_shrink(
            first in (any::<usize>(), any::<u8>()),
            ops in prop::collection::vec((0_u8..3, any::<usize>(), any::<u8>()), 0..24),
        ) {
            let arena = Arena::new();
            let alloc = &*arena;
            let mut layout = arbitrary_layout(first.0, first.1);
            let mut p = alloc.allocate(layout).unwrap().cast::<u8>();
            let mut expected: Vec<u8> = (0..layout.size()).map(|i| i as u8).collect();
            // SAFETY: `p` holds `layout.size()` bytes.
            unsafe { p.as_ptr().copy_from_nonoverlapping(expected.as_ptr(), expected.len()) };
            for (kind, size, align) in ops {
                let new = arbitrary_layout(size, align);
                let grows = new.size() >= layout.size();
                // `p` is a live allocation of `layout` from this allocator; grows get a layout
                // at least as large, shrinks one no larger.
                let result = match (kind, grows) {
                    // SAFETY: as above.
                    (1, true) => unsafe { alloc.grow_zeroed(p, layout, new) },
                    // SAFETY: as above.
                    (_, true) => unsafe { alloc.grow(p, layout, new) },
                    // SAFETY: as above.
                    (_, false) => unsafe { alloc.shrink(p, layout, new) },
                };
                let Ok(q) = result else {
                    prop_assert!(new.align() > layout.align());
                    continue;
                };
                prop_assert_eq!(q.cast::<u8>().as_ptr() as usize % new.align(), 0);
                p = q.cast();
                expected.resize(new.size(), 0);
                let keep = layout.size().min(new.size());
                // SAFETY: the new block holds `new.size()` bytes, the first `keep` of them
                // carried over.
                let now = unsafe { std::slice::from_raw_parts(p.as_ptr(), keep) };
                prop_assert_eq!(now, &expected[..keep]);
                if kind == 1 && grows {
                    // SAFETY: as above; `grow_zeroed` zeroed the rest.
                    let rest = unsafe { p.add(keep) };
                    // SAFETY: as above: `new.size() - keep` bytes from `rest` are in the block.
                    let tail = unsafe { std::slice::from_raw_parts(rest.as_ptr(), new.size() - keep) };
                    prop_assert!(tail.iter().all(|&b| b == 0));
                }
                for (i, b) in expected.iter_mut().enumerate().skip(keep) {
                    *b = i as u8;
                }
                // SAFETY: `p` holds `new.size()` bytes.
                unsafe { p.as_ptr().copy_from_nonoverlapping(expected.as_ptr(), expected.len()) };
                layout = new;
            }
        }
    }
}

// ----- quickchecks.rs -----------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq)]
struct BigValue {
    data: [u64; 32],
}

fn big_values() -> impl Strategy<Value = Vec<BigValue>> {
    prop::collection::vec(any::<u64>().prop_map(|x| BigValue { data: [x; 32] }), 0..64)
}

#[derive(Debug, Clone, Copy)]
enum Elems {
    OneT(u8),
    TwoT(u8, u8),
    FourT(u8, u8, u8, u8),
    OneU(u64),
    TwoU(u64, u64),
    FourU(u64, u64, u64, u64),
}

fn elems() -> impl Strategy<Value = Elems> {
    prop_oneof![
        any::<u8>().prop_map(Elems::OneT),
        any::<(u8, u8)>().prop_map(|(a, b)| Elems::TwoT(a, b)),
        any::<(u8, u8, u8, u8)>().prop_map(|(a, b, c, d)| Elems::FourT(a, b, c, d)),
        any::<u64>().prop_map(Elems::OneU),
        any::<(u64, u64)>().prop_map(|(a, b)| Elems::TwoU(a, b)),
        any::<(u64, u64, u64, u64)>().prop_map(|(a, b, c, d)| Elems::FourU(a, b, c, d)),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// bumpalo `tests/all/quickchecks.rs::can_allocate_big_values` and
    /// `big_allocations_never_overlap`.
    #[test]
    fn quickchecks_big_values_are_kept_and_never_overlap(values in big_values()) {
        let arena = Arena::new();
        let stored: Vec<&BigValue> = values.iter().map(|v| &*arena.alloc(*v)).collect();
        for (i, a) in stored.iter().enumerate() {
            prop_assert_eq!(**a, values[i]);
            for b in &stored[..i] {
                prop_assert!(!overlap(range_of(*a), range_of(*b)));
            }
        }
    }

    /// bumpalo `tests/all/quickchecks.rs::can_allocate_heterogeneous_things_and_they_dont_overlap`.
    #[test]
    fn quickchecks_can_allocate_heterogeneous_things_and_they_dont_overlap(
        things in prop::collection::vec(elems(), 0..if cfg!(miri) { 16 } else { 64 }),
    ) {
        let arena = Arena::new();
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for t in things {
            let r = match t {
                Elems::OneT(a) => range_of(arena.alloc(a)),
                Elems::TwoT(a, b) => range_of(arena.alloc([a, b])),
                Elems::FourT(a, b, c, d) => range_of(arena.alloc([a, b, c, d])),
                Elems::OneU(a) => range_of(arena.alloc(a)),
                Elems::TwoU(a, b) => range_of(arena.alloc([a, b])),
                Elems::FourU(a, b, c, d) => range_of(arena.alloc([a, b, c, d])),
            };
            prop_assert!(ranges.iter().all(|s| !overlap(r, *s)));
            ranges.push(r);
        }
    }

    /// bumpalo `tests/all/quickchecks.rs::test_alignment_chunks`: every layout comes back
    /// aligned, and the blocks hold exactly the bytes asked for when nothing pads.
    #[test]
    fn quickchecks_test_alignment_chunks(sizes in prop::collection::vec(any::<usize>(), 0..64)) {
        for alignment in [1, 2, 4, 8, 16] {
            let arena = Arena::with_capacity(513);
            let mut total = 0;
            for &size in &sizes {
                let size = (size % 10) * alignment;
                let layout = Layout::from_size_align(size, alignment).unwrap();
                prop_assert_eq!(arena.alloc_layout(layout).as_ptr() as usize % alignment, 0);
                total += size;
            }
            prop_assert!(arena.stats().allocated_bytes >= total);
        }
    }

    /// bumpalo `tests/all/quickchecks.rs::alloc_slices`.
    #[test]
    fn quickchecks_alloc_slices(allocs in prop::collection::vec((any::<u8>(), 0_usize..100), 0..32)) {
        let arena = Arena::new();
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for (value, len) in allocs {
            let s = arena.alloc_slice_fill_copy(len, value);
            prop_assert_eq!(s.len(), len);
            prop_assert!(s.iter().all(|v| *v == value));
            if len > 0 {
                let r = range_of(&*s);
                prop_assert!(ranges.iter().all(|o| !overlap(r, *o)));
                ranges.push(r);
            }
        }
    }

    /// bumpalo `tests/all/quickchecks.rs::alloc_strs`.
    #[test]
    fn quickchecks_alloc_strs(strings in prop::collection::vec(text(16), 0..32)) {
        let arena = Arena::new();
        let stored: Vec<&str> = strings.iter().map(|s| &*arena.alloc_str(s)).collect();
        for (expected, actual) in strings.iter().zip(stored) {
            prop_assert_eq!(expected.as_str(), actual);
        }
    }

    /// bumpalo `tests/all/quickchecks.rs::all_allocations_in_a_chunk` and
    /// `chunks_and_raw_chunks_are_same`: every value lies in a block `blocks` reports.
    #[test]
    fn quickchecks_all_allocations_in_a_chunk(values in big_values()) {
        let arena = Arena::new();
        let stored: Vec<&BigValue> = values.iter().map(|v| &*arena.alloc(*v)).collect();
        let blocks: Vec<_> = arena.blocks().collect();
        for value in stored {
            let (start, end) = range_of(value);
            prop_assert!(blocks.iter().any(|b| b.addr <= start && end <= b.addr + b.capacity));
        }
    }

    /// bumpalo `tests/all/quickchecks.rs::limit_is_never_exceeded`.
    #[test]
    fn quickchecks_limit_is_never_exceeded(limit in 0_usize..16 * 1024) {
        let arena = Arena::new();
        arena.set_limit(Some(limit));
        let layout = Layout::array::<u8>(limit / 16).unwrap();
        for _ in 0..32 {
            let _ = arena.try_alloc_layout(layout);
        }
        prop_assert!(arena.stats().reserved_bytes <= limit);
        let pool = BlockPool::new();
        let scope = pool.scope();
        scope.set_limit(Some(limit));
        for _ in 0..32 {
            let _ = scope.try_alloc_layout(layout);
        }
        prop_assert!(scope.stats().reserved_bytes <= limit);
    }

    /// bumpalo `tests/all/quickchecks.rs::allocated_bytes_including_metadata`: bytes held
    /// (headers included) are the sum of the blocks, above the bytes handed out.
    #[test]
    fn quickchecks_allocated_bytes_including_metadata(lens in prop::collection::vec(0_usize..512, 0..32)) {
        let arena = Arena::new();
        let mut slice_bytes = 0;
        for len in lens {
            arena.alloc_slice_fill_copy(len, 0_u8);
            slice_bytes += len;
            let stats = arena.stats();
            if slice_bytes == 0 {
                prop_assert_eq!((stats.allocated_bytes, stats.reserved_bytes), (0, 0));
            } else {
                prop_assert!(stats.allocated_bytes >= slice_bytes);
                prop_assert!(stats.reserved_bytes > stats.allocated_bytes);
                prop_assert_eq!(stats.reserved_bytes, arena.blocks().map(|b| b.size).sum::<usize>());
            }
        }
    }

    /// bumpalo `tests/all/quickchecks.rs::extending_from_slice`.
    #[test]
    fn quickchecks_extending_from_slice(
        data1 in prop::collection::vec(any::<usize>(), 0..32),
        data2 in prop::collection::vec(any::<usize>(), 0..32),
    ) {
        let arena = Arena::new();
        let mut v = ArenaVec::new_in(&arena);
        v.extend_from_slice_copy(&data1);
        prop_assert_eq!(v.as_slice(), data1.as_slice());
        v.extend_from_slice_copy(&data2);
        prop_assert_eq!(&v[..data1.len()], data1.as_slice());
        prop_assert_eq!(&v[data1.len()..], data2.as_slice());
    }

    /// bumpalo `tests/all/quickchecks.rs::extending_from_slices` and
    /// `compare_extending_from_slice_and_from_slices`.
    #[test]
    fn quickchecks_extending_from_slices(
        data in prop::collection::vec(prop::collection::vec(any::<usize>(), 0..8), 0..8),
    ) {
        let slices: Vec<&[usize]> = data.iter().map(Vec::as_slice).collect();
        let arena = Arena::new();
        let mut one_by_one = ArenaVec::new_in(&arena);
        for s in &slices {
            one_by_one.extend_from_slice_copy(s);
        }
        let mut at_once = ArenaVec::new_in(&arena);
        at_once.extend_from_slices_copy(&slices);
        let all: Vec<usize> = data.concat();
        prop_assert_eq!(at_once.as_slice(), all.as_slice());
        prop_assert_eq!(one_by_one, at_once);
    }
}
