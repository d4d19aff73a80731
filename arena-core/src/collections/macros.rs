//! `vec![in &scope; ..]` and `format!(in &scope, ..)`: bumpalo's collection macros,
//! building an [`ArenaVec`](crate::ArenaVec) or an [`ArenaString`](crate::ArenaString).
//!
//! Both are exported at the crate root under std's names, as bumpalo's are. The `in`
//! form is what selects the scope; without it they expand to `alloc`'s own `vec!` and
//! `format!`, so importing them by name (`use arena_kit::vec;`) leaves std-style calls
//! working. A glob import (`use arena_kit::*;`) is another matter: rustc will not let a
//! glob-imported macro shadow std's, and rejects every bare `vec!`/`format!` call as
//! ambiguous (E0659). Call them by path (`arena_kit::vec!`) or import them by name.

/// An [`ArenaVec`](crate::ArenaVec) of the listed elements, in a scope (bumpalo's
/// `bumpalo::vec!`).
///
/// - `vec![in &scope]`: an empty vector;
/// - `vec![in &scope; a, b, c]`: those elements (a trailing comma is allowed);
/// - `vec![in &scope; elem; n]`: `n` clones of `elem`;
/// - without `in ...;`, std's `vec!`, so `use arena_kit::vec;` keeps std-style calls
///   working.
///
/// # Panics
///
/// If the scope cannot provide the room (a limit).
///
/// # Examples
///
/// ```
/// let pool = arena_kit::BlockPool::new();
/// let scope = pool.scope();
/// let v = arena_kit::vec![in &scope; 1, 2, 3,];
/// let zeros = arena_kit::vec![in &scope; 0_u8; 4];
/// let empty: arena_kit::ArenaVec<'_, i32> = arena_kit::vec![in &scope];
/// assert_eq!((v.as_slice(), zeros.as_slice(), empty.len()), (&[1, 2, 3][..], &[0; 4][..], 0));
///
/// use arena_kit::vec; // imported by name: std-style calls still build a `Vec`
/// let std_vec: Vec<i32> = vec![4, 5];
/// assert_eq!(std_vec.len(), 2);
/// ```
///
/// A glob import makes a bare `vec!` ambiguous with std's (error E0659):
///
/// ```compile_fail,E0659
/// use arena_kit::*;
/// let v: Vec<i32> = vec![1, 2];
/// ```
#[macro_export]
macro_rules! vec {
    (in $scope:expr $(;)?) => {
        $crate::ArenaVec::new_in($scope)
    };
    (in $scope:expr; $elem:expr; $n:expr) => {{
        let elem = $elem;
        let n = $n;
        let mut v = $crate::ArenaVec::with_capacity_in(n, $scope);
        v.resize(n, elem);
        v
    }};
    (in $scope:expr; $($x:expr),+ $(,)?) => {
        $crate::ArenaVec::from_iter_in([$($x),+], $scope)
    };
    ($($std:tt)*) => {
        $crate::__private::vec![$($std)*]
    };
}

/// An [`ArenaString`](crate::ArenaString) of formatted text, in a scope (bumpalo's
/// `bumpalo::format!`): `format!(in &scope, "{} {}", a, b)`. Without `in ...,`, std's
/// `format!`.
///
/// # Panics
///
/// If the scope cannot provide the room (a limit), or a `Display` implementation fails.
///
/// # Examples
///
/// ```
/// let pool = arena_kit::BlockPool::new();
/// let scope = pool.scope();
/// let name = "arena";
/// let s = arena_kit::format!(in &scope, "{name}-{}", 7,);
/// assert_eq!(s, "arena-7");
/// let heap: String = arena_kit::format!("{name}"); // std's
/// assert_eq!(heap, "arena");
/// ```
#[macro_export]
macro_rules! format {
    (in $scope:expr, $($arg:tt)*) => {
        $crate::ArenaString::from_fmt_in(::core::format_args!($($arg)*), $scope)
    };
    ($($std:tt)*) => {
        $crate::__private::format!($($std)*)
    };
}
