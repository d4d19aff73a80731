//! [`ArenaString`]: a growable UTF-8 string in a scope, an [`ArenaVec<u8>`] underneath,
//! so it grows by the same policy: in place at the tip, then in a page-filled block of
//! its own that `realloc` resizes (seed 001's page-rounded string growth; W6).

use core::fmt;
use core::ops::{Deref, DerefMut};
use core::ptr::NonNull;

use crate::collections::ArenaBox;
use crate::collections::vec::ArenaVec;
use crate::error::{AllocError, TryAllocError, fail};
use crate::scope::Scope;

/// A growable string whose bytes live in a [`Scope`] (or an [`Arena`](crate::Arena)).
///
/// # Panics
///
/// The growing methods panic when a limit is reached or the size overflows; the `try_`
/// methods return the error instead.
///
/// # Examples
///
/// ```
/// use arena_kit::{ArenaString, BlockPool};
/// use core::fmt::Write;
///
/// let pool = BlockPool::new();
/// let scope = pool.scope();
/// let mut s = ArenaString::new_in(&scope);
/// s.push_str("hello");
/// s.push(',');
/// write!(s, " {}", "world").unwrap();
/// assert_eq!(s.as_str(), "hello, world");
/// let kept: &str = s.into_str(); // lives as long as the scope
/// assert_eq!(kept.len(), 12);
/// ```
pub struct ArenaString<'s> {
    bytes: ArenaVec<'s, u8>,
}

impl<'s> ArenaString<'s> {
    /// An empty string in `scope`; allocates nothing until the first push.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let s = arena_kit::ArenaString::new_in(&arena);
    /// assert!(s.is_empty());
    /// ```
    #[must_use]
    pub fn new_in<'p>(scope: &'s Scope<'p>) -> Self
    where
        'p: 's,
    {
        ArenaString { bytes: ArenaVec::new_in(scope) }
    }

    /// An empty string in `scope` with room for at least `capacity` bytes.
    ///
    /// # Panics
    ///
    /// If the scope cannot provide the room.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let s = arena_kit::ArenaString::with_capacity_in(64, &arena);
    /// assert!(s.is_empty() && s.capacity() >= 64);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn with_capacity_in<'p>(capacity: usize, scope: &'s Scope<'p>) -> Self
    where
        'p: 's,
    {
        ArenaString { bytes: ArenaVec::with_capacity_in(capacity, scope) }
    }

    /// The text `args` formats to, in `scope`: what
    /// [`arena_kit::format!`](crate::format!) expands to.
    ///
    /// # Panics
    ///
    /// If the string cannot grow (a limit), or a `Display` implementation fails.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let s = arena_kit::ArenaString::from_fmt_in(format_args!("{}-{}", 1, 2), &arena);
    /// assert_eq!(s, "1-2");
    /// ```
    #[must_use]
    #[track_caller]
    pub fn from_fmt_in<'p>(args: fmt::Arguments<'_>, scope: &'s Scope<'p>) -> Self
    where
        'p: 's,
    {
        /// Keeps the reason the string could not grow.
        struct Writer<'a, 's> {
            string: &'a mut ArenaString<'s>,
            error: Option<AllocError>,
        }
        impl fmt::Write for Writer<'_, '_> {
            fn write_str(&mut self, part: &str) -> fmt::Result {
                self.string.try_push_str(part).map_err(|e| {
                    self.error = Some(e);
                    fmt::Error
                })
            }
        }

        let mut string = Self::new_in(scope);
        let mut writer = Writer { string: &mut string, error: None };
        if fmt::write(&mut writer, args).is_err() {
            match writer.error {
                Some(e) => fail(e),
                None => panic!("a formatting trait implementation returned an error"),
            }
        }
        string
    }

    /// A copy of `s` in `scope`.
    ///
    /// # Panics
    ///
    /// If the scope cannot provide the room.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let s = arena_kit::ArenaString::from_str_in("abc", &arena);
    /// assert_eq!(s, "abc");
    /// ```
    #[must_use]
    #[track_caller]
    pub fn from_str_in<'p>(s: &str, scope: &'s Scope<'p>) -> Self
    where
        'p: 's,
    {
        let mut string = Self::new_in(scope);
        string.push_str(s);
        string
    }

    /// Appends `s`.
    ///
    /// # Panics
    ///
    /// If the string must grow and cannot (see [`try_push_str`](Self::try_push_str)).
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut s = arena_kit::ArenaString::new_in(&arena);
    /// s.push_str("ab");
    /// s.push_str("cd");
    /// assert_eq!(s, "abcd");
    /// ```
    #[track_caller]
    pub fn push_str(&mut self, s: &str) {
        self.bytes.extend_from_slice_copy(s.as_bytes());
    }

    /// Appends `s`, or says why the string could not grow (it is unchanged then).
    ///
    /// # Errors
    ///
    /// A limit, size overflow or out of memory.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// scope.set_limit(Some(0));
    /// let mut s = arena_kit::ArenaString::new_in(&scope);
    /// assert!(s.try_push_str("no room").is_err());
    /// assert!(s.is_empty());
    /// ```
    pub fn try_push_str(&mut self, s: &str) -> Result<(), AllocError> {
        self.bytes.try_reserve(s.len())?;
        self.bytes.extend_from_slice_copy(s.as_bytes());
        Ok(())
    }

    /// Appends one character.
    ///
    /// # Panics
    ///
    /// If the string must grow and cannot (see [`try_push`](Self::try_push)).
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut s = arena_kit::ArenaString::new_in(&arena);
    /// s.push('é');
    /// assert_eq!(s.len(), 2);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&mut self, c: char) {
        if c.is_ascii() {
            // `c` is below 128, so it is one byte.
            self.bytes.push(c as u8);
        } else {
            self.push_str(c.encode_utf8(&mut [0; 4]));
        }
    }

    /// Appends one character, or hands it back with the reason the string could not grow.
    ///
    /// # Errors
    ///
    /// A limit, size overflow or out of memory.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// scope.set_limit(Some(0));
    /// let mut s = arena_kit::ArenaString::new_in(&scope);
    /// assert_eq!(s.try_push('x').unwrap_err().into_value(), 'x');
    /// ```
    pub fn try_push(&mut self, c: char) -> Result<(), TryAllocError<char>> {
        self.try_push_str(c.encode_utf8(&mut [0; 4])).map_err(|e| TryAllocError::new(e, c))
    }

    /// Bytes the string can hold without growing.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let s = arena_kit::ArenaString::from_str_in("abc", &arena);
    /// assert!(s.capacity() >= 3);
    /// ```
    #[must_use]
    #[inline]
    pub fn capacity(&self) -> usize {
        self.bytes.capacity()
    }

    /// Makes room for at least `additional` more bytes.
    ///
    /// # Panics
    ///
    /// If the scope cannot provide the room.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut s = arena_kit::ArenaString::new_in(&arena);
    /// s.reserve(100);
    /// assert!(s.capacity() >= 100);
    /// ```
    #[track_caller]
    pub fn reserve(&mut self, additional: usize) {
        self.bytes.reserve(additional);
    }

    /// Gives back the capacity past the length where the scope can take it back (see
    /// [`ArenaVec::shrink_to_fit`]).
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut s = arena_kit::ArenaString::with_capacity_in(100, &arena);
    /// s.push_str("abc");
    /// s.shrink_to_fit(); // the newest allocation: shrinks in place
    /// assert_eq!(s.capacity(), 3);
    /// ```
    pub fn shrink_to_fit(&mut self) {
        self.bytes.shrink_to_fit();
    }

    /// Keeps only the characters for which `keep` returns `true`, in order. If `keep`
    /// panics, the characters it has not judged yet are kept: the string stays valid
    /// UTF-8 whatever happens (bumpalo issue 261's case).
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut s = arena_kit::ArenaString::from_str_in("a_b_ç", &arena);
    /// s.retain(|c| c != '_');
    /// assert_eq!(s, "abç");
    /// ```
    pub fn retain<F: FnMut(char) -> bool>(&mut self, mut keep: F) {
        /// Moves the bytes not judged yet down over the removed ones and cuts the rest,
        /// also when `keep` panics half-way.
        struct Compact<'v, 's> {
            bytes: &'v mut ArenaVec<'s, u8>,
            /// Start of the bytes not judged yet (a character boundary).
            read: usize,
            /// End of the characters kept so far.
            write: usize,
        }
        impl Drop for Compact<'_, '_> {
            fn drop(&mut self) {
                let len = self.bytes.len();
                if self.write < self.read {
                    self.bytes.copy_within(self.read..len, self.write);
                }
                self.bytes.truncate(len - (self.read - self.write));
            }
        }

        let mut g = Compact { bytes: &mut self.bytes, read: 0, write: 0 };
        while g.read < g.bytes.len() {
            let at = g.read;
            let c = first_char(&g.bytes[at..]);
            let width = c.len_utf8();
            if keep(c) {
                if g.write < at {
                    g.bytes.copy_within(at..at + width, g.write);
                }
                g.write += width;
            }
            // Judged only now: if `keep` panicked, `c` is still in the part kept whole.
            g.read += width;
        }
    }

    /// Inserts `c` at byte index `index`.
    ///
    /// # Panics
    ///
    /// If `index` is past the end or not on a character boundary, or the string cannot
    /// grow.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut s = arena_kit::ArenaString::from_str_in("ac", &arena);
    /// s.insert(1, 'b');
    /// assert_eq!(s, "abc");
    /// ```
    #[track_caller]
    pub fn insert(&mut self, index: usize, c: char) {
        self.insert_str(index, c.encode_utf8(&mut [0; 4]));
    }

    /// Inserts `s` at byte index `index`.
    ///
    /// # Panics
    ///
    /// If `index` is past the end or not on a character boundary, or the string cannot
    /// grow.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut s = arena_kit::ArenaString::from_str_in("héllo", &arena);
    /// s.insert_str(3, "--");
    /// assert_eq!(s, "hé--llo");
    /// ```
    #[track_caller]
    pub fn insert_str(&mut self, index: usize, s: &str) {
        assert!(self.is_char_boundary(index), "insert: {index} is not a char boundary");
        self.bytes.extend_from_slice_copy(s.as_bytes());
        // Whole characters move: the tail and `s` trade places.
        self.bytes[index..].rotate_right(s.len());
    }

    /// Removes and returns the character at byte index `index`.
    ///
    /// # Panics
    ///
    /// If `index` is not on a character boundary or is at (or past) the end.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut s = arena_kit::ArenaString::from_str_in("añb", &arena);
    /// assert_eq!(s.remove(1), 'ñ');
    /// assert_eq!(s, "ab");
    /// ```
    #[track_caller]
    pub fn remove(&mut self, index: usize) -> char {
        let Some(c) = self[index..].chars().next() else {
            panic!("cannot remove a char from the end of a string")
        };
        self.bytes.drain(index..index + c.len_utf8());
        c
    }

    /// Removes and returns the last character.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut s = arena_kit::ArenaString::from_str_in("añ", &arena);
    /// assert_eq!(s.pop(), Some('ñ'));
    /// assert_eq!(s, "a");
    /// ```
    pub fn pop(&mut self) -> Option<char> {
        let c = self.as_str().chars().next_back()?;
        self.bytes.truncate(self.bytes.len() - c.len_utf8());
        Some(c)
    }

    /// Shortens the string to `new_len` bytes (no effect if it is already shorter).
    ///
    /// # Panics
    ///
    /// If `new_len` is not on a character boundary.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut s = arena_kit::ArenaString::from_str_in("hello", &arena);
    /// s.truncate(2);
    /// assert_eq!(s, "he");
    /// ```
    #[track_caller]
    pub fn truncate(&mut self, new_len: usize) {
        if new_len < self.len() {
            assert!(self.is_char_boundary(new_len), "truncate: {new_len} is not a char boundary");
            self.bytes.truncate(new_len);
        }
    }

    /// Empties the string; the capacity stays.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut s = arena_kit::ArenaString::from_str_in("abc", &arena);
    /// s.clear();
    /// assert!(s.is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.bytes.clear();
    }

    /// The string as `&str`.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let s = arena_kit::ArenaString::from_str_in("abc", &arena);
    /// assert_eq!(s.as_str(), "abc");
    /// ```
    #[must_use]
    #[inline]
    pub fn as_str(&self) -> &str {
        // SAFETY: the bytes are UTF-8: they only ever come from a `&str` or
        // `char::encode_utf8`, whole characters at a time, and `&mut str` cannot break it.
        unsafe { core::str::from_utf8_unchecked(self.bytes.as_slice()) }
    }

    /// The string as `&mut str`.
    ///
    /// # Examples
    ///
    /// ```
    /// let arena = arena_kit::Arena::new();
    /// let mut s = arena_kit::ArenaString::from_str_in("abc", &arena);
    /// s.as_mut_str().make_ascii_uppercase();
    /// assert_eq!(s, "ABC");
    /// ```
    #[must_use]
    #[inline]
    pub fn as_mut_str(&mut self) -> &mut str {
        // SAFETY: UTF-8 as in `as_str`; safe `str` methods keep it UTF-8.
        unsafe { core::str::from_utf8_unchecked_mut(self.bytes.as_mut_slice()) }
    }

    /// Turns the string into a `&mut str` that lives as long as the scope.
    ///
    /// # Examples
    ///
    /// ```
    /// let pool = arena_kit::BlockPool::new();
    /// let scope = pool.scope();
    /// let s = arena_kit::ArenaString::from_str_in("kept", &scope).into_str();
    /// assert_eq!(s, "kept");
    /// ```
    #[must_use]
    pub fn into_str(self) -> &'s mut str {
        // SAFETY: UTF-8 as in `as_str`.
        unsafe { core::str::from_utf8_unchecked_mut(self.bytes.into_slice()) }
    }

    /// Turns the string into an owning box (bumpalo's `into_boxed_str`), giving back
    /// the capacity past the length where it can.
    ///
    /// # Examples
    ///
    /// ```
    /// use arena_kit::{ArenaBox, ArenaString};
    ///
    /// let arena = arena_kit::Arena::new();
    /// let b: ArenaBox<'_, str> = ArenaString::from_str_in("boxed", &arena).into_boxed_str();
    /// assert_eq!(&*b, "boxed");
    /// ```
    #[must_use]
    pub fn into_boxed_str(self) -> ArenaBox<'s, str> {
        let bytes = ArenaBox::into_raw(self.bytes.into_boxed_slice());
        // SAFETY: UTF-8 as in `as_str`; `str` has the layout of `[u8]`.
        let text = unsafe { NonNull::new_unchecked(bytes.as_ptr() as *mut str) };
        // SAFETY: X1 of `collections/boxed.rs`: the bytes were given up by their box just above;
        // they stay allocated for `'s` and nobody else reaches them.
        unsafe { ArenaBox::from_raw(text) }
    }
}

/// The first character of `bytes`, which start on a character boundary of UTF-8 text.
fn first_char(bytes: &[u8]) -> char {
    let width = match bytes[0] {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    match core::str::from_utf8(&bytes[..width]) {
        Ok(s) => s.chars().next().unwrap_or_else(|| unreachable!("a width of one char or more")),
        Err(_) => unreachable!("an ArenaString holds UTF-8"),
    }
}

impl Deref for ArenaString<'_> {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl DerefMut for ArenaString<'_> {
    #[inline]
    fn deref_mut(&mut self) -> &mut str {
        self.as_mut_str()
    }
}

impl Extend<char> for ArenaString<'_> {
    #[track_caller]
    fn extend<I: IntoIterator<Item = char>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.reserve(iter.size_hint().0);
        for c in iter {
            self.push(c);
        }
    }
}

impl<'a> Extend<&'a char> for ArenaString<'_> {
    #[track_caller]
    fn extend<I: IntoIterator<Item = &'a char>>(&mut self, iter: I) {
        self.extend(iter.into_iter().copied());
    }
}

impl<'a> Extend<&'a str> for ArenaString<'_> {
    #[track_caller]
    fn extend<I: IntoIterator<Item = &'a str>>(&mut self, iter: I) {
        for s in iter {
            self.push_str(s);
        }
    }
}

impl fmt::Write for ArenaString<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.try_push_str(s).map_err(|_| fmt::Error)
    }
}

impl fmt::Display for ArenaString<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for ArenaString<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for ArenaString<'_> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ArenaString<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq for ArenaString<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for ArenaString<'_> {}
