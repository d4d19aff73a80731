//! A compiler's interner, as rustc builds one: every identifier is stored once and named
//! by a small `Symbol`, and every type is stored once and named by a reference, so that
//! two types are equal exactly when their references are (a pointer compare, no walk).
//!
//! Both live in one `Arena` for the whole compilation. Identifiers are copied in with
//! `alloc_str`; types are hash-consed: `TyKind` values point at other types and at
//! slices of types in the same arena, have no drop glue, and go in with
//! `alloc_dropless` (rustc's `DroplessArena`). The tables that find an existing entry
//! (`HashMap`, `HashSet`) hold references into the arena, so they borrow it and cannot
//! outlive it.
//!
//! `cargo run --example interner`; `cargo test --example interner`.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fmt;

use arena_kit::Arena;

/// An interned identifier: an index into the interner's strings.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Symbol(u32);

/// A type, interned: equal types are the same reference.
type Ty<'a> = &'a TyKind<'a>;

/// What a type is made of; its parts are interned types too.
#[derive(PartialEq, Eq, Hash, Debug)]
enum TyKind<'a> {
    Int,
    Bool,
    Named(Symbol),
    Ref(Ty<'a>),
    Fn { params: &'a [Ty<'a>], ret: Ty<'a> },
}

/// The compilation's interner: identifiers and types, each stored once in `arena`.
struct Interner<'a> {
    arena: &'a Arena<'static>,
    symbols: RefCell<HashMap<&'a str, Symbol>>,
    strings: RefCell<Vec<&'a str>>,
    types: RefCell<HashSet<Ty<'a>>>,
}

impl<'a> Interner<'a> {
    fn new(arena: &'a Arena<'static>) -> Self {
        Interner {
            arena,
            symbols: RefCell::default(),
            strings: RefCell::default(),
            types: RefCell::default(),
        }
    }

    /// The symbol of `name`, storing it the first time.
    fn intern(&self, name: &str) -> Symbol {
        if let Some(&symbol) = self.symbols.borrow().get(name) {
            return symbol;
        }
        let stored: &'a str = self.arena.alloc_str(name);
        let mut strings = self.strings.borrow_mut();
        let symbol = Symbol(u32::try_from(strings.len()).expect("fewer than 2^32 names"));
        strings.push(stored);
        self.symbols.borrow_mut().insert(stored, symbol);
        symbol
    }

    /// The text of `symbol`.
    fn name(&self, symbol: Symbol) -> &'a str {
        self.strings.borrow()[symbol.0 as usize]
    }

    /// The interned type equal to `kind`, storing it the first time.
    fn ty(&self, kind: TyKind<'a>) -> Ty<'a> {
        if let Some(&ty) = self.types.borrow().get(&kind) {
            return ty;
        }
        let ty: Ty<'a> = self.arena.alloc_dropless(kind);
        self.types.borrow_mut().insert(ty);
        ty
    }

    /// A function type: its parameter list is copied into the arena.
    fn fn_ty(&self, params: &[Ty<'a>], ret: Ty<'a>) -> Ty<'a> {
        let params: &'a [Ty<'a>] = self.arena.alloc_slice_copy(params);
        self.ty(TyKind::Fn { params, ret })
    }

    /// A type written as text: `int`, `bool`, a name, `&T`, `fn(A, B) -> R`.
    ///
    /// # Panics
    ///
    /// If `text` is not a type (this is an example, not a compiler).
    fn parse(&self, text: &str) -> Ty<'a> {
        let mut rest = text;
        let ty = self.parse_from(&mut rest);
        assert!(rest.trim().is_empty(), "text after the type: {rest:?}");
        ty
    }

    /// The type at the start of `rest`, which then holds what follows it.
    fn parse_from(&self, rest: &mut &str) -> Ty<'a> {
        *rest = rest.trim_start();
        if let Some(inner) = rest.strip_prefix('&') {
            *rest = inner;
            return self.ty(TyKind::Ref(self.parse_from(rest)));
        }
        if let Some(inner) = rest.strip_prefix("fn(") {
            *rest = inner;
            let mut params = Vec::new();
            loop {
                *rest = rest.trim_start();
                if let Some(after) = rest.strip_prefix(')') {
                    *rest = after;
                    break;
                }
                params.push(self.parse_from(rest));
                *rest = rest.trim_start();
                *rest = rest.strip_prefix(',').unwrap_or(rest);
            }
            *rest = rest.trim_start().strip_prefix("->").expect("fn(...) -> R");
            let returns = self.parse_from(rest);
            return self.fn_ty(&params, returns);
        }
        let end = rest.find(|c: char| !c.is_alphanumeric() && c != '_').unwrap_or(rest.len());
        let (name, after) = rest.split_at(end);
        *rest = after;
        match name {
            "" => panic!("a type expected at {rest:?}"),
            "int" => self.ty(TyKind::Int),
            "bool" => self.ty(TyKind::Bool),
            name => self.ty(TyKind::Named(self.intern(name))),
        }
    }

    /// `ty` as text, the way `parse` reads it.
    fn show<'s>(&'s self, ty: Ty<'a>) -> Shown<'s, 'a> {
        Shown { interner: self, ty }
    }
}

/// A type to print, with the interner that knows its names.
struct Shown<'s, 'a> {
    interner: &'s Interner<'a>,
    ty: Ty<'a>,
}

impl fmt::Display for Shown<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |ty| Shown { interner: self.interner, ty };
        match self.ty {
            TyKind::Int => f.write_str("int"),
            TyKind::Bool => f.write_str("bool"),
            TyKind::Named(symbol) => f.write_str(self.interner.name(*symbol)),
            TyKind::Ref(inner) => write!(f, "&{}", show(inner)),
            TyKind::Fn { params, ret } => {
                f.write_str("fn(")?;
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", show(p))?;
                }
                write!(f, ") -> {}", show(ret))
            }
        }
    }
}

fn main() {
    let arena = Arena::new();
    let interner = Interner::new(&arena);
    let signatures = ["fn(int, &Point) -> bool", "fn(&Point) -> int", "fn(int, &Point) -> bool"];
    let types: Vec<_> = signatures.iter().map(|s| interner.parse(s)).collect();
    for ty in &types {
        println!("{}", interner.show(ty));
    }
    println!(
        "first and last equal: {}; {} types, {} names, {} bytes of arena",
        std::ptr::eq(types[0], types[2]),
        interner.types.borrow().len(),
        interner.strings.borrow().len(),
        arena.stats().allocated_bytes,
    );
}

#[test]
fn a_name_is_stored_once() {
    let arena = Arena::new();
    let interner = Interner::new(&arena);
    let (a, b, a2) = (interner.intern("main"), interner.intern("point"), interner.intern("main"));
    assert_eq!(a, a2);
    assert_ne!(a, b);
    assert_eq!((interner.name(a), interner.name(b)), ("main", "point"));
    assert!(std::ptr::eq(interner.name(a), interner.name(a2)));
}

#[test]
fn equal_types_are_one_reference_and_print_back() {
    let arena = Arena::new();
    let interner = Interner::new(&arena);
    let text = "fn(int, &&Point, fn() -> bool) -> &int";
    let (t1, t2) = (interner.parse(text), interner.parse(text));
    assert!(std::ptr::eq(t1, t2));
    assert_eq!(interner.show(t1).to_string(), text);
    // Each distinct type is stored once: int, Point, &Point, &&Point, bool, fn() -> bool,
    // &int and the whole function.
    assert_eq!(interner.types.borrow().len(), 8);
    let TyKind::Fn { params, .. } = t1 else { panic!("a function") };
    assert!(std::ptr::eq(params[0], interner.parse("int")));
    assert!(!std::ptr::eq(interner.parse("&int"), interner.parse("&&int")));
}
