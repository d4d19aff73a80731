//! The seed workloads of `docs/workloads.md`, one module each, every contender a plain
//! function `fn(n) -> u64` that runs the workload at size `n` and returns a checksum of
//! what it built. Equal checksums across contenders show that none is faster by doing
//! less; the tests check them and the benches time them.
//!
//! [`ALL`] is the one list both consumers read: the report runs each [`Workload`] at its
//! size (scaled as its [`SizeKind`] allows), and each criterion bench target times the
//! workloads whose [`Bench`] names it, the same contender functions, one group each.

pub mod binary_trees;
pub mod binary_trees_par;
pub mod derived;
pub mod fixed_churn;
pub mod lookups;
pub mod many_small;
pub mod mi_alloc;
pub mod scope_churn;
pub mod size_classes;
pub mod static_free_list;
pub mod static_pools;
pub mod string_growth;
pub mod threads;
pub mod two_pools;

/// One seed workload: what it is, its sizes, and everyone who runs it.
#[derive(Debug, Clone, Copy)]
pub struct Workload {
    /// `W1` ... `W9`, with a suffix for a second table of the same workload (`W4-get`).
    pub id: &'static str,
    /// One line saying what is measured.
    pub title: &'static str,
    /// The seed document and the figures it reports, for the report's header line.
    pub seed: &'static str,
    /// The seed's size (`n` passed to each contender).
    pub size: usize,
    /// The size in `--quick` mode: the same shape, fewer repetitions.
    pub quick_size: usize,
    /// Whether `n` counts operations or is a tree depth: how the report's `--scale`
    /// applies to it.
    pub size_kind: SizeKind,
    /// What one operation is ("round", "value", "node", ...), for "ns per ...".
    pub per: &'static str,
    /// Operations in a run of size `n`.
    pub ops: fn(usize) -> u64,
    /// The contenders, arena-kit first, the hand-written limit (if any) last.
    pub contenders: &'static [Contender],
    /// What some contenders hold once done (W6's capacities and bytes), if the workload
    /// is about memory as well as time.
    pub memory: &'static [Probe],
    /// Where and how the criterion benches time it.
    pub bench: Bench,
}

/// What a workload's size `n` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeKind {
    /// An element count (rounds, values, operations, bytes, ...): the work grows with it
    /// linearly.
    Count,
    /// A tree depth (W7, W7-par): the work doubles with each step.
    Depth,
}

impl SizeKind {
    /// `size` divided by the report's `--scale`: a count shrinks (to at least 1); a depth
    /// stays, since dividing it would not divide the work.
    #[must_use]
    pub fn scaled(self, size: usize, scale: usize) -> usize {
        match self {
            SizeKind::Count => (size / scale.max(1)).max(1),
            SizeKind::Depth => size,
        }
    }
}

/// A criterion bench target: `benches/<name>.rs`, run by `cargo bench --bench <name>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchFile {
    /// `benches/scope.rs`: the scopes, arenas and strings (W1, W2, W6, W7, W7-par).
    Scope,
    /// `benches/pool.rs`: the pools (W3, W4, W5, W9).
    Pool,
    /// `benches/derive.rs`: the `#[derive(ArenaAlloc)]` pools (W8).
    Derive,
}

impl BenchFile {
    /// Every bench target.
    pub const ALL: [BenchFile; 3] = [BenchFile::Scope, BenchFile::Pool, BenchFile::Derive];

    /// The target's name, as in `Cargo.toml` and `cargo bench --bench <name>`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            BenchFile::Scope => "scope",
            BenchFile::Pool => "pool",
            BenchFile::Derive => "derive",
        }
    }
}

/// How a workload is timed under criterion: one benchmark group per workload, one
/// benchmark per contender (`<group>/<contender name>`), each running the contender's
/// [`run`](Contender::run) at the workload's [`size`](Workload::size), with the
/// throughput set to the workload's [`ops`](Workload::ops) at that size.
#[derive(Debug, Clone, Copy)]
pub struct Bench {
    /// The bench target that runs it.
    pub file: BenchFile,
    /// The criterion group name, the first part of each benchmark id.
    pub group: &'static str,
    /// Criterion samples per contender (criterion's default is 100; runs of several
    /// milliseconds take fewer, so a group ends in seconds).
    pub samples: usize,
}

/// The workloads `file` benches, in [`ALL`]'s order.
pub fn in_bench(file: BenchFile) -> impl Iterator<Item = &'static Workload> {
    ALL.iter().filter(move |w| w.bench.file == file)
}

fn same(n: usize) -> u64 {
    n as u64
}

/// Every workload the report and the benches run, in the order of docs/workloads.md.
pub const ALL: &[Workload] = &[
    Workload {
        id: "W1",
        title: "make an allocator, allocate one u32, destroy it",
        seed: "000, comparison 1: ScopeAlloc+BlockPool 8.4 ms, new/delete 18.2 ms, APR 24 ms, AutoFreeAlloc 28 ms",
        size: scope_churn::N,
        quick_size: scope_churn::N / 4,
        size_kind: SizeKind::Count,
        per: "round",
        ops: same,
        contenders: scope_churn::CONTENDERS,
        memory: &[],
        bench: Bench { file: BenchFile::Scope, group: "W1 scope churn", samples: 100 },
    },
    Workload {
        id: "W1-2t",
        title: "W1 split in two jobs, on one thread, then on two (scopes on a shared block pool)",
        seed: "000 and 002: ScopeAlloc's BlockPool, locked: does a second thread add throughput?",
        size: threads::W1_N,
        quick_size: threads::W1_N / 10,
        size_kind: SizeKind::Count,
        per: "round",
        ops: same,
        contenders: threads::W1_CONTENDERS,
        memory: &[],
        bench: Bench { file: BenchFile::Scope, group: "W1 on one and two threads", samples: 100 },
    },
    Workload {
        id: "W2",
        title: "one allocator, many u32s, then destroyed",
        seed: "000, comparison 2: AutoFreeAlloc 0.16 ms, ScopeAlloc 0.43 ms, APR 0.56 ms, new/delete 20 ms",
        size: many_small::N,
        quick_size: many_small::N / 4,
        size_kind: SizeKind::Count,
        per: "value",
        ops: same,
        contenders: many_small::CONTENDERS,
        memory: &[],
        bench: Bench { file: BenchFile::Scope, group: "W2 many small", samples: 100 },
    },
    Workload {
        id: "W3",
        title: "free and allocate 1..=1024 random bytes in a random slot of 20 000",
        seed: "002, variable size: boost::pool / ACE ~1.6x faster than new/delete",
        size: size_classes::N,
        quick_size: size_classes::N / 10,
        size_kind: SizeKind::Count,
        per: "operation",
        ops: same,
        contenders: size_classes::CONTENDERS_20K,
        memory: &[],
        bench: Bench {
            file: BenchFile::Pool,
            group: "W3 variable-size churn, 20 000 live",
            samples: 20,
        },
    },
    Workload {
        id: "W3-50k",
        title: "the same with 50 000 live slots",
        seed: "002, variable size, the larger pool",
        size: size_classes::N,
        quick_size: size_classes::N / 10,
        size_kind: SizeKind::Count,
        per: "operation",
        ops: same,
        contenders: size_classes::CONTENDERS_50K,
        memory: &[],
        bench: Bench {
            file: BenchFile::Pool,
            group: "W3 variable-size churn, 50 000 live",
            samples: 20,
        },
    },
    Workload {
        id: "W3-2t",
        title: "W3 split in two jobs (20 000 live slots each), on one thread, then on two",
        seed: "002, the locked pools: does a second thread add throughput?",
        size: threads::N,
        quick_size: threads::N / 10,
        size_kind: SizeKind::Count,
        per: "operation",
        ops: same,
        contenders: threads::W3_CONTENDERS,
        memory: &[],
        bench: Bench { file: BenchFile::Pool, group: "W3 on one and two threads", samples: 20 },
    },
    Workload {
        id: "W4",
        title: "free and construct a 64-byte object in a random slot of 20 000",
        seed: "002, fixed size: pools ~300 ms, new/delete ~2 700 ms for 10 M",
        size: fixed_churn::N,
        quick_size: fixed_churn::N / 10,
        size_kind: SizeKind::Count,
        per: "operation",
        ops: same,
        contenders: fixed_churn::CONTENDERS,
        memory: &[],
        bench: Bench { file: BenchFile::Pool, group: "W4 fixed-size churn", samples: 20 },
    },
    Workload {
        id: "W4-get",
        title: "read a random value of 20 000 through its handle",
        seed: "002 (handle access, arena-kit's addition)",
        size: fixed_churn::N,
        quick_size: fixed_churn::N / 10,
        size_kind: SizeKind::Count,
        per: "read",
        ops: same,
        contenders: fixed_churn::GET_CONTENDERS,
        memory: &[],
        bench: Bench { file: BenchFile::Pool, group: "W4 handle access", samples: 20 },
    },
    Workload {
        id: "W4-2t",
        title: "W4 split in two jobs (20 000 live slots each), on one thread, then on two",
        seed: "002, the locked pools: does a second thread add throughput?",
        size: threads::N,
        quick_size: threads::N / 10,
        size_kind: SizeKind::Count,
        per: "operation",
        ops: same,
        contenders: threads::W4_CONTENDERS,
        memory: &[],
        bench: Bench { file: BenchFile::Pool, group: "W4 on one and two threads", samples: 20 },
    },
    Workload {
        id: "W5",
        title: "take an 8-byte and a 13-byte object from two pools and work on them",
        seed: "003: its arena 39 ms, malloc 107 ms",
        size: two_pools::N,
        quick_size: two_pools::N / 4,
        size_kind: SizeKind::Count,
        per: "iteration",
        ops: same,
        contenders: two_pools::CONTENDERS,
        memory: &[],
        bench: Bench { file: BenchFile::Pool, group: "W5 two pools", samples: 20 },
    },
    Workload {
        id: "W6",
        title: "append one byte 100 000 times to a growable string",
        seed: "001: quadratic growth 22 s -> 0.11 s once capacities filled whole pages",
        size: string_growth::N_SMALL,
        quick_size: string_growth::N_SMALL / 4,
        size_kind: SizeKind::Count,
        per: "byte",
        ops: same,
        contenders: string_growth::CONTENDERS,
        memory: string_growth::MEMORY,
        bench: Bench { file: BenchFile::Scope, group: "W6 string growth 100k", samples: 100 },
    },
    Workload {
        id: "W6-1M",
        title: "the same, 1 000 000 times",
        seed: "001, the larger string",
        size: string_growth::N_LARGE,
        quick_size: string_growth::N_LARGE / 10,
        size_kind: SizeKind::Count,
        per: "byte",
        ops: same,
        contenders: string_growth::CONTENDERS,
        memory: string_growth::MEMORY,
        bench: Bench { file: BenchFile::Scope, group: "W6 string growth 1M", samples: 100 },
    },
    Workload {
        id: "W7",
        title: "binary trees: one long-lived tree, many short-lived ones per depth",
        seed: "the Benchmarks Game's binary-trees",
        size: binary_trees::DEPTH,
        quick_size: binary_trees::DEPTH - 4,
        size_kind: SizeKind::Depth,
        per: "node",
        ops: binary_trees::expected,
        contenders: binary_trees::CONTENDERS,
        memory: &[],
        bench: Bench { file: BenchFile::Scope, group: "W7 binary trees", samples: 10 },
    },
    Workload {
        id: "W7-par",
        title: "binary trees with each depth's short-lived trees on all cores (rayon)",
        seed: "the Benchmarks Game's binary-trees, as its fastest Rust entries run it",
        size: binary_trees::DEPTH,
        quick_size: binary_trees::DEPTH - 4,
        size_kind: SizeKind::Depth,
        per: "node",
        ops: binary_trees::expected,
        contenders: binary_trees_par::CONTENDERS,
        memory: &[],
        bench: Bench { file: BenchFile::Scope, group: "W7 binary trees on all cores", samples: 10 },
    },
    Workload {
        id: "W8",
        title: "derive: remove, insert and move a 7-float particle in a random slot of 20 000",
        seed: "arena-kit's own: W4's shape on a #[derive(ArenaAlloc)] struct",
        size: derived::N,
        quick_size: derived::N / 10,
        size_kind: SizeKind::Count,
        per: "operation",
        ops: same,
        contenders: derived::CONTENDERS,
        memory: &[],
        bench: Bench { file: BenchFile::Derive, group: "W8 derive churn", samples: 20 },
    },
    Workload {
        id: "W8-scan",
        title: "derive: count heavy particles among 100 000 (one field of 7)",
        seed: "arena-kit's own: struct-of-arrays column vs Vec<struct>",
        size: derived::SCAN_VISITS,
        quick_size: derived::SCAN_VISITS / 10,
        size_kind: SizeKind::Count,
        per: "particle",
        ops: same,
        contenders: derived::SCAN_CONTENDERS,
        memory: &[],
        bench: Bench {
            file: BenchFile::Derive,
            group: "W8 one-field scan of 100 000",
            samples: 20,
        },
    },
    Workload {
        id: "W8-step",
        title: "derive: positions += velocities over 100 000 particles (two fields of 7)",
        seed: "arena-kit's own: two struct-of-arrays columns borrowed at once vs Vec<struct>",
        size: derived::STEP_VISITS,
        quick_size: derived::STEP_VISITS / 10,
        size_kind: SizeKind::Count,
        per: "particle",
        ops: same,
        contenders: derived::STEP_CONTENDERS,
        memory: &[],
        bench: Bench { file: BenchFile::Derive, group: "W8 position step of 100 000", samples: 10 },
    },
    Workload {
        id: "W8-retain",
        title: "derive: despawn a tenth of 100 000 particles per frame (retain), spawn as many",
        seed: "arena-kit's own: a particle system's despawn, dense struct-of-arrays rows with keys",
        size: derived::RETAIN_VISITS,
        quick_size: derived::RETAIN_VISITS / 10,
        size_kind: SizeKind::Count,
        per: "particle",
        ops: same,
        contenders: derived::RETAIN_CONTENDERS,
        memory: &[],
        bench: Bench {
            file: BenchFile::Derive,
            group: "W8 retain a tenth of 100 000",
            samples: 10,
        },
    },
    Workload {
        id: "W9",
        title: "random reads of 100 000 live values through keys, handles and a side table",
        seed: "slotmap's use case: checked keys and side tables against slotmap, slab and a Vec",
        size: lookups::N,
        quick_size: lookups::N / 10,
        size_kind: SizeKind::Count,
        per: "read",
        ops: same,
        contenders: lookups::CONTENDERS,
        memory: &[],
        bench: Bench { file: BenchFile::Pool, group: "W9 lookups", samples: 20 },
    },
];

/// One way of running a workload.
#[derive(Debug, Clone, Copy)]
pub struct Contender {
    /// Short name shown in tables: crate and type, e.g. `"bumpalo Bump::reset"`.
    pub name: &'static str,
    /// Runs the workload at size `n`; returns its checksum.
    pub run: fn(usize) -> u64,
}

/// What a collection holds once a workload is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Held {
    /// Elements (bytes, for strings) it can hold without growing.
    pub capacity: usize,
    /// Bytes its allocator holds for it (blocks or chunks, headers included).
    pub bytes: usize,
}

/// Measures what one contender holds after a run of size `n`.
#[derive(Debug, Clone, Copy)]
pub struct Probe {
    /// The contender's name, as in its [`Contender`] row.
    pub name: &'static str,
    /// Runs the workload at size `n` and reports what it holds at the end.
    pub held: fn(usize) -> Held,
}

/// The checksum every contender must reach for `n` allocations of the values `0..n`.
#[must_use]
pub fn expected_sum(n: usize) -> u64 {
    let n = n as u64;
    n * n.saturating_sub(1) / 2
}

/// The values `0..n` a workload allocates, as `u32` (the seeds allocate `int`s).
///
/// # Panics
///
/// If `n` does not fit in a `u32`: no workload is that large.
#[must_use]
pub fn values(n: usize) -> std::ops::Range<u32> {
    0..u32::try_from(n).expect("workload sizes fit in u32")
}

/// Runs `n` rounds of `round(i)` for `i` in [`values(n)`](values), summing what each
/// round read back: the shape of W1, one allocator per round.
///
/// Never inlined into its caller (each contender still gets its own copy, with its
/// closure inlined): whether the compiler inlined it depended on code elsewhere in the
/// binary, and when it did, the contender's allocator state stayed on the caller's
/// stack and was reloaded every round. Two builds differing only in another table's
/// code counted `Scope::scoped` at 24 and 28 instructions a round.
#[inline(never)]
pub fn sum_rounds(n: usize, mut round: impl FnMut(u32) -> u32) -> u64 {
    values(n).map(|i| u64::from(round(std::hint::black_box(i)))).sum()
}

/// Allocates the values `0..n` with `alloc`, reading each back: the shape of W2, one
/// allocator for all of them.
pub fn sum_allocs<'a>(n: usize, mut alloc: impl FnMut(u32) -> &'a mut u32) -> u64 {
    values(n).map(|i| u64::from(*std::hint::black_box(alloc(std::hint::black_box(i))))).sum()
}
