//! `arena_new!`: the kit's `STD_NEW(alloc, Type)` (seed 000).

/// Allocates a value in a scope, like seed 000's `STD_NEW(alloc, Type)`.
///
/// - `arena_new!(scope, T)` default-constructs a `T` in the scope.
/// - `arena_new!(scope, T { field: value, .. })` (or any expression) moves it in.
///
/// Both return `&mut T` borrowed from the scope and register the destructor, exactly as
/// [`Scope::alloc`](crate::Scope::alloc) does (the value is built in place with
/// [`Scope::alloc_with`](crate::Scope::alloc_with)).
///
/// # Panics
///
/// As [`Scope::alloc`](crate::Scope::alloc).
///
/// # Examples
///
/// ```
/// use arena_core::{arena_new, BlockPool};
///
/// #[derive(Default, Debug, PartialEq)]
/// struct Point { x: i32, y: i32 }
///
/// let pool = BlockPool::new();
/// let scope = pool.scope();
/// let origin = arena_new!(scope, Point);
/// let p = arena_new!(scope, Point { x: 1, y: 2 });
/// assert_eq!(*origin, Point::default());
/// assert_eq!(p.y, 2);
/// ```
#[macro_export]
macro_rules! arena_new {
    ($scope:expr, $ty:ident) => {
        $scope.alloc_with(<$ty as ::core::default::Default>::default)
    };
    ($scope:expr, $value:expr) => {
        $scope.alloc_with(|| $value)
    };
}
