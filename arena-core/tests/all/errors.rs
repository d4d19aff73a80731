use core::alloc::Layout;

use arena_kit::{AllocError, BlockPool, LimitKind};

fn limited(pool: &BlockPool) -> arena_kit::Scope<'_> {
    let scope = pool.scope();
    scope.set_limit(Some(0));
    scope
}

#[test]
fn every_fallible_method_hands_its_input_back() {
    let pool = BlockPool::new();
    let scope = limited(&pool);
    assert_eq!(scope.try_alloc(String::from("v")).unwrap_err().into_value(), "v");
    assert_eq!(scope.try_alloc_copy(3_u8).unwrap_err().into_value(), 3);
    assert_eq!((scope.try_alloc_with(|| 4).unwrap_err().into_value())(), 4);
    let mut f = scope.try_alloc_slice_fill_with(2, |i| i + 1).unwrap_err().into_value();
    assert_eq!(f(1), 2);
    let mut it = scope.try_alloc_from_iter(vec![String::from("x")]).unwrap_err().into_value();
    assert_eq!(it.next().as_deref(), Some("x"), "the iterator was not consumed");
    assert!(scope.try_alloc_slice_copy(&[1, 2]).is_err());
    assert!(scope.try_alloc_slice_clone(&[1, 2]).is_err());
    assert!(scope.try_alloc_slice_fill_copy(2, 0_u8).is_err());
    assert!(scope.try_alloc_str("s").is_err());
    assert!(scope.try_alloc_layout(Layout::new::<u64>()).is_err());
    assert!(scope.try_on_exit(|| ()).is_err());
    assert_eq!(pool.stats().system_allocations, 0);
}

#[test]
fn zero_sized_requests_succeed_even_at_a_zero_limit() {
    let pool = BlockPool::new();
    let scope = limited(&pool);
    assert!(scope.try_alloc(()).is_ok());
    assert!(scope.try_alloc_slice_copy::<u32>(&[]).is_ok());
}

#[test]
fn the_scope_limit_counts_whole_blocks() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    scope.set_limit(Some(pool.block_size()));
    assert_eq!(scope.limit(), Some(pool.block_size()));
    scope.alloc_slice_fill_copy(pool.block_capacity(), 0_u8);
    let err = scope.try_alloc(1_u8).unwrap_err();
    assert_eq!(
        err.error(),
        AllocError::LimitReached {
            kind: LimitKind::Scope,
            limit: pool.block_size(),
            held: pool.block_size(),
            // Under a limit the scope would take a block just big enough for the value
            // (its header and one byte): that is the block it could not have.
            requested: pool.block_size() - pool.block_capacity() + 1,
        }
    );
    scope.set_limit(None);
    assert_eq!(*scope.alloc(1_u8), 1);
}

#[test]
fn sizes_that_overflow_are_reported_as_such() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    assert_eq!(
        scope.try_alloc_slice_fill_copy(usize::MAX / 2, 0_u32).unwrap_err(),
        AllocError::SizeOverflow
    );
    let err = scope.try_alloc_slice_fill_with(usize::MAX / 8, |_| String::new()).unwrap_err();
    assert_eq!(err.error(), AllocError::SizeOverflow);
}

#[test]
fn layouts_too_large_for_a_block_header_are_reported() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let huge = Layout::from_size_align(isize::MAX as usize - 10, 8).unwrap();
    assert!(matches!(scope.try_alloc_layout(huge), Err(AllocError::LayoutTooLarge { .. })));
}

#[test]
fn a_refusing_system_allocator_is_out_of_memory() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    // Far more than any machine has, yet a valid layout: malloc returns null.
    let layout = Layout::from_size_align(isize::MAX as usize / 2, 8).unwrap();
    if cfg!(miri) {
        return; // Miri reports an impossible allocation as an error instead of null.
    }
    let err = scope.try_alloc_layout(layout).unwrap_err();
    assert!(matches!(err, AllocError::OutOfMemory { .. }), "{err:?}");
    assert!(err.oom_layout().is_some());
    assert_eq!(pool.stats().live_blocks, 0);
}

#[test]
#[should_panic(expected = "arena-kit: scope allocation limit reached: 0 of 0 bytes held")]
fn the_panicking_form_names_the_limit() {
    let pool = BlockPool::new();
    limited(&pool).alloc(1_u8);
}

#[test]
#[should_panic(expected = "allocation size overflows usize")]
fn the_panicking_slice_form_names_the_overflow() {
    let pool = BlockPool::new();
    pool.scope().alloc_slice_fill_copy(usize::MAX, 0_u16);
}

#[test]
fn errors_display_and_debug_without_needing_the_value_to() {
    struct Opaque(#[expect(dead_code, reason = "only its size matters")] u64);
    let pool = BlockPool::new();
    let scope = limited(&pool);
    let err = scope.try_alloc(Opaque(0)).err().unwrap();
    assert!(format!("{err:?}").contains("Opaque"));
    assert!(err.to_string().starts_with("scope allocation limit reached"));
    let source = std::error::Error::source(&err).unwrap();
    assert_eq!(source.to_string(), err.to_string());
    let (error, Opaque(_)) = err.into_parts();
    assert!(matches!(error, AllocError::LimitReached { kind: LimitKind::Scope, .. }));
    for e in [
        AllocError::SizeOverflow,
        AllocError::LayoutTooLarge { size: 1, align: 2 },
        AllocError::OutOfMemory { size: 3, align: 4 },
    ] {
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn a_limit_set_on_a_fresh_scope_holds_even_on_a_warm_pool() {
    let pool = BlockPool::new();
    pool.scope().alloc(1_u8); // warms the pool: the next scope starts with a block
    let scope = pool.scope();
    assert_eq!(scope.stats().blocks, 1);
    scope.set_limit(Some(0));
    assert_eq!(scope.stats().blocks, 0, "the untouched block went back");
    assert!(scope.try_alloc(1_u8).is_err());
    assert_eq!(pool.stats().cached_blocks, 1);
}

#[test]
fn a_limit_never_takes_back_a_block_in_use() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let x = scope.alloc(5_u8);
    scope.set_limit(Some(0));
    assert_eq!((*x, scope.stats().blocks), (5, 1));
    assert_eq!(*scope.alloc(6_u8), 6, "the held block still serves");
}
