//! `ArenaVec` against `Vec` and `ArenaString` against `String`, several at once in one
//! scope, interleaved with plain allocations of the scope and of child scopes (checked
//! byte for byte: a buffer growing at the tip must never run over them), under limits
//! (a failed `try_` hands its value back and changes nothing).
#![no_main]

use core::alloc::Layout;

use arbitrary::Arbitrary;
use arena_kit::{ArenaString, ArenaVec, BlockPool, Scope};
use arena_kit_fuzz::{Tracked, assert_disjoint, check, fill, start};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Input {
    block: Option<u16>,
    ops: Vec<Op>,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Push {
        vec: bool,
        len: u8,
    },
    TryPush {
        vec: bool,
        len: u8,
    },
    Pop(bool),
    Insert {
        vec: bool,
        at: u8,
    },
    Remove {
        vec: bool,
        at: u8,
    },
    SwapRemove {
        vec: bool,
        at: u8,
    },
    Truncate {
        vec: bool,
        len: u8,
    },
    Retain {
        vec: bool,
        mask: u64,
    },
    Clear(bool),
    Reserve {
        vec: bool,
        n: u16,
    },
    TryReserve {
        vec: bool,
        n: u16,
    },
    Extend {
        vec: bool,
        n: u8,
    },
    /// On the byte vector.
    ExtendFromSlice(u16),
    Resize(u16, u8),
    PushStr {
        string: bool,
        len: u16,
    },
    TryPushStr {
        string: bool,
        len: u16,
    },
    PushChar {
        string: bool,
        c: char,
    },
    TryPushChar {
        string: bool,
        c: char,
    },
    PopChar(bool),
    TruncateStr {
        string: bool,
        len: u16,
    },
    ClearStr(bool),
    ReserveStr {
        string: bool,
        n: u16,
    },
    /// A plain allocation of the scope, after the buffers.
    Alloc {
        size: u16,
        align_log: u8,
    },
    /// A child scope with allocations of its own while the buffers grow.
    Child {
        size: u16,
        pushes: u8,
    },
    SetLimit(Option<u16>),
}

struct Vecs<'s> {
    tracked: [ArenaVec<'s, Tracked>; 2],
    tracked_model: [Vec<u64>; 2],
    bytes: ArenaVec<'s, u8>,
    bytes_model: Vec<u8>,
    strings: [ArenaString<'s>; 2],
    strings_model: [String; 2],
    /// Plain allocations: address, length, seed.
    allocs: Vec<(usize, usize, u64)>,
    next_id: u64,
    limited: bool,
}

impl Vecs<'_> {
    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    fn check(&self) {
        let mut ranges = Vec::new();
        for (v, m) in self.tracked.iter().zip(&self.tracked_model) {
            let ids: Vec<u64> = v.iter().map(Tracked::id).collect();
            assert_eq!(&ids, m);
            assert!(v.capacity() >= v.len());
            ranges.push((v.as_slice().as_ptr().addr(), v.capacity() * size_of::<Tracked>()));
        }
        assert_eq!(self.bytes.as_slice(), &self.bytes_model[..]);
        ranges.push((self.bytes.as_slice().as_ptr().addr(), self.bytes.capacity()));
        for (s, m) in self.strings.iter().zip(&self.strings_model) {
            assert_eq!(s.as_str(), m.as_str());
            assert!(s.capacity() >= s.len());
            ranges.push((s.as_str().as_ptr().addr(), s.capacity()));
        }
        for &(addr, len, seed) in &self.allocs {
            // SAFETY: a live allocation of the scope, `len` bytes.
            unsafe { check(addr as *const u8, len, seed, "allocation") };
            ranges.push((addr, len));
        }
        assert_disjoint(&mut ranges, "buffers and allocations overlap");
        let live: usize = self.tracked_model.iter().map(Vec::len).sum();
        assert_eq!(Tracked::live(), live, "an element dropped early, twice or leaked");
    }

    fn refused<T>(&self, what: &str, r: Result<(), T>) -> bool {
        assert!(r.is_ok() || self.limited, "{what} failed with no limit set");
        r.is_err()
    }
}

fn text(len: u16, seed: u64) -> String {
    const PIECES: [&str; 5] = ["a", "é", "€", "𝄞", "xyz"];
    (0..usize::from(len) % 300).map(|i| PIECES[(seed as usize + i) % PIECES.len()]).collect()
}

fn step(v: &mut Vecs<'_>, scope: &Scope<'_>, op: Op) {
    match op {
        Op::Push { vec, len } if !v.limited => {
            let id = v.id();
            v.tracked[usize::from(vec)].push(Tracked::new(id, len));
            v.tracked_model[usize::from(vec)].push(id);
        }
        Op::Push { .. } => {}
        Op::TryPush { vec, len } => {
            let id = v.id();
            match v.tracked[usize::from(vec)].try_push(Tracked::new(id, len)) {
                Ok(()) => v.tracked_model[usize::from(vec)].push(id),
                Err(e) => {
                    assert!(v.limited, "try_push failed with no limit set");
                    assert_eq!(e.into_value().id(), id, "the value is handed back");
                }
            }
        }
        Op::Pop(vec) => {
            let i = usize::from(vec);
            assert_eq!(v.tracked[i].pop().map(|t| t.id()), v.tracked_model[i].pop());
        }
        Op::Insert { vec, at } if !v.limited => {
            let i = usize::from(vec);
            let at = usize::from(at) % (v.tracked_model[i].len() + 1);
            let id = v.id();
            v.tracked[i].insert(at, Tracked::new(id, 3));
            v.tracked_model[i].insert(at, id);
        }
        Op::Insert { .. } => {}
        Op::Remove { vec, at } => {
            let i = usize::from(vec);
            if !v.tracked_model[i].is_empty() {
                let at = usize::from(at) % v.tracked_model[i].len();
                assert_eq!(v.tracked[i].remove(at).id(), v.tracked_model[i].remove(at));
            }
        }
        Op::SwapRemove { vec, at } => {
            let i = usize::from(vec);
            if !v.tracked_model[i].is_empty() {
                let at = usize::from(at) % v.tracked_model[i].len();
                assert_eq!(v.tracked[i].swap_remove(at).id(), v.tracked_model[i].swap_remove(at));
            }
        }
        Op::Truncate { vec, len } => {
            let i = usize::from(vec);
            v.tracked[i].truncate(usize::from(len));
            v.tracked_model[i].truncate(usize::from(len));
        }
        Op::Retain { vec, mask } => {
            let i = usize::from(vec);
            let keep = |id: u64| mask & (1 << (id % 64)) != 0;
            let mut seen = Vec::new();
            v.tracked[i].retain(|t| {
                seen.push(t.id());
                keep(t.id())
            });
            assert_eq!(seen, v.tracked_model[i], "retain visits every element once, in order");
            v.tracked_model[i].retain(|&id| keep(id));
        }
        Op::Clear(vec) => {
            v.tracked[usize::from(vec)].clear();
            v.tracked_model[usize::from(vec)].clear();
        }
        Op::Reserve { vec, n } if !v.limited => {
            let t = &mut v.tracked[usize::from(vec)];
            t.reserve(usize::from(n));
            assert!(t.capacity() >= t.len() + usize::from(n));
        }
        Op::Reserve { .. } => {}
        Op::TryReserve { vec, n } => {
            let t = &mut v.tracked[usize::from(vec)];
            let before = t.capacity();
            let r = t.try_reserve(usize::from(n));
            let ok = r.is_ok();
            let cap = t.capacity();
            let len = t.len();
            if !v.refused("try_reserve", r) {
                assert!(ok && cap >= len + usize::from(n));
            } else {
                assert_eq!(cap, before, "a failed reserve changes nothing");
            }
        }
        Op::Extend { vec, n } if !v.limited => {
            let i = usize::from(vec);
            let first = v.next_id + 1;
            v.next_id += u64::from(n);
            v.tracked[i].extend((first..=v.next_id).map(|id| Tracked::new(id, 1)));
            v.tracked_model[i].extend(first..=v.next_id);
        }
        Op::Extend { .. } => {}
        Op::ExtendFromSlice(n) if !v.limited => {
            let seed = v.id();
            let items: Vec<u8> =
                (0..usize::from(n) % 5000).map(|i| arena_kit_fuzz::pattern(seed, i)).collect();
            v.bytes.extend_from_slice(&items);
            v.bytes_model.extend_from_slice(&items);
        }
        Op::Resize(n, b) if !v.limited => {
            let n = usize::from(n) % 20_000;
            v.bytes.resize(n, b);
            v.bytes_model.resize(n, b);
        }
        Op::ExtendFromSlice(_) | Op::Resize(..) => {}
        Op::PushStr { string, len } if !v.limited => {
            let s = text(len, v.next_id);
            v.strings[usize::from(string)].push_str(&s);
            v.strings_model[usize::from(string)].push_str(&s);
        }
        Op::PushStr { .. } => {}
        Op::TryPushStr { string, len } => {
            let s = text(len, v.next_id);
            let i = usize::from(string);
            let r = v.strings[i].try_push_str(&s);
            if !v.refused("try_push_str", r) {
                v.strings_model[i].push_str(&s);
            }
        }
        Op::PushChar { string, c } if !v.limited => {
            v.strings[usize::from(string)].push(c);
            v.strings_model[usize::from(string)].push(c);
        }
        Op::PushChar { .. } => {}
        Op::TryPushChar { string, c } => {
            let i = usize::from(string);
            match v.strings[i].try_push(c) {
                Ok(()) => v.strings_model[i].push(c),
                Err(e) => {
                    assert!(v.limited);
                    assert_eq!(e.into_value(), c);
                }
            }
        }
        Op::PopChar(string) => {
            let i = usize::from(string);
            assert_eq!(v.strings[i].pop(), v.strings_model[i].pop());
        }
        Op::TruncateStr { string, len } => {
            let i = usize::from(string);
            let len = usize::from(len);
            if v.strings_model[i].is_char_boundary(len.min(v.strings_model[i].len())) {
                v.strings[i].truncate(len);
                v.strings_model[i].truncate(len);
            }
        }
        Op::ClearStr(string) => {
            v.strings[usize::from(string)].clear();
            v.strings_model[usize::from(string)].clear();
        }
        Op::ReserveStr { string, n } if !v.limited => {
            let s = &mut v.strings[usize::from(string)];
            s.reserve(usize::from(n));
            assert!(s.capacity() >= s.len() + usize::from(n));
        }
        Op::ReserveStr { .. } => {}
        Op::Alloc { size, align_log } => {
            let layout =
                Layout::from_size_align(usize::from(size) % 5000, 1 << (align_log % 8)).unwrap();
            match scope.try_alloc_layout(layout) {
                Ok(p) => {
                    let seed = v.id();
                    // SAFETY: a fresh allocation of `layout.size()` bytes.
                    unsafe { fill(p.as_ptr(), layout.size(), seed) };
                    v.allocs.push((p.as_ptr().addr(), layout.size(), seed));
                }
                Err(e) => assert!(v.limited, "{e:?}"),
            }
        }
        Op::Child { size, pushes } => {
            let child = scope.scope();
            let size = usize::from(size) % 3000;
            let seed = v.id();
            let mine = child.alloc_slice_fill_copy(size, 0_u8);
            // SAFETY: the child's fresh slice.
            unsafe { fill(mine.as_mut_ptr(), size, seed) };
            for _ in 0..pushes % 64 {
                let id = v.id();
                if v.tracked[0].try_push(Tracked::new(id, 0)).is_ok() {
                    v.tracked_model[0].push(id);
                }
                let _ = v.bytes.try_reserve(1).map(|()| {
                    v.bytes.push(id as u8);
                    v.bytes_model.push(id as u8);
                });
            }
            // SAFETY: the child's slice, still live.
            unsafe { check(mine.as_ptr(), size, seed, "a child's allocation") };
        }
        Op::SetLimit(limit) => {
            let limit = limit.map(|l| usize::from(l) * 8);
            scope.set_limit(limit);
            v.limited = limit.is_some();
        }
    }
}

fuzz_target!(|input: Input| {
    start();
    let pool = match input.block {
        None => BlockPool::new(),
        Some(b) => BlockPool::with_block_size(usize::from(b)),
    };
    let scope = pool.scope();
    {
        let mut v = Vecs {
            tracked: [ArenaVec::new_in(&scope), ArenaVec::with_capacity_in(3, &scope)],
            tracked_model: [Vec::new(), Vec::new()],
            bytes: ArenaVec::new_in(&scope),
            bytes_model: Vec::new(),
            strings: [ArenaString::new_in(&scope), ArenaString::from_str_in("é", &scope)],
            strings_model: [String::new(), String::from("é")],
            allocs: Vec::new(),
            next_id: 0,
            limited: false,
        };
        for op in input.ops {
            step(&mut v, &scope, op);
            v.check();
        }
        if !v.limited {
            // `into_slice` keeps the bytes for the scope's life.
            let model = v.bytes_model.clone();
            let kept = v.bytes.into_slice();
            assert_eq!(kept, &model[..]);
        }
    }
    assert_eq!(Tracked::live(), 0, "dropping the vectors drops every element once");
    drop(scope);
    assert_eq!(pool.stats().live_blocks, 0, "buffer blocks are given back");
});
