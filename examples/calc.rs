//! A calculator's front end: tokens and an expression tree built in one scope through a
//! single-lifetime, `Copy` view (`ScopeView<'s>`), then evaluated and printed. The parser
//! is a plain struct holding the view, as a bumpalo user would hold `&'a Bump`. A batch
//! of lines shares one scope, each line in a nested scope that rewinds after it
//! (`Scope::scoped`).
//!
//! `cargo run --example calc -- "1 + 2 * (3 - 4)"`; `cargo test --example calc`.

use arena_kit::{BlockPool, Scope, scope::ScopeView};

/// An expression node: `Copy`, pointing at its children in the same scope.
#[derive(Clone, Copy, Debug)]
enum Expr<'s> {
    Num(f64),
    Var(&'s str),
    Neg(&'s Expr<'s>),
    Bin(Op, &'s Expr<'s>, &'s Expr<'s>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Token<'s> {
    Num(f64),
    Ident(&'s str),
    Sym(char),
}

/// Splits `src` into tokens, identifiers copied into the scope.
fn lex<'s>(arena: ScopeView<'s>, src: &str) -> Result<&'s [Token<'s>], String> {
    let mut tokens = Vec::new();
    let mut chars = src.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c.is_ascii_digit() || c == '.' {
            let mut end = i;
            while let Some(&(j, d)) = chars.peek() {
                if d.is_ascii_digit() || d == '.' {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let n =
                src[i..end].parse().map_err(|e| format!("bad number {:?}: {e}", &src[i..end]))?;
            tokens.push(Token::Num(n));
        } else if c.is_alphabetic() {
            let mut end = i;
            while let Some(&(j, d)) = chars.peek() {
                if d.is_alphanumeric() {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            tokens.push(Token::Ident(arena.alloc_str(&src[i..end])));
        } else if "+-*/()".contains(c) {
            tokens.push(Token::Sym(c));
            chars.next();
        } else {
            return Err(format!("unexpected {c:?} at {i}"));
        }
    }
    Ok(arena.alloc_slice_copy(&tokens))
}

/// A recursive-descent parser over the tokens; every node goes into the scope.
struct Parser<'s> {
    arena: ScopeView<'s>,
    tokens: &'s [Token<'s>],
    at: usize,
}

impl<'s> Parser<'s> {
    fn peek(&self) -> Option<Token<'s>> {
        self.tokens.get(self.at).copied()
    }

    fn eat(&mut self, sym: char) -> bool {
        let hit = self.peek() == Some(Token::Sym(sym));
        self.at += usize::from(hit);
        hit
    }

    fn expr(&mut self) -> Result<&'s Expr<'s>, String> {
        let mut left = self.term()?;
        loop {
            let op = if self.eat('+') {
                Op::Add
            } else if self.eat('-') {
                Op::Sub
            } else {
                return Ok(left);
            };
            let right = self.term()?;
            left = self.arena.alloc(Expr::Bin(op, left, right));
        }
    }

    fn term(&mut self) -> Result<&'s Expr<'s>, String> {
        let mut left = self.unary()?;
        loop {
            let op = if self.eat('*') {
                Op::Mul
            } else if self.eat('/') {
                Op::Div
            } else {
                return Ok(left);
            };
            let right = self.unary()?;
            left = self.arena.alloc(Expr::Bin(op, left, right));
        }
    }

    fn unary(&mut self) -> Result<&'s Expr<'s>, String> {
        if self.eat('-') {
            let inner = self.unary()?;
            return Ok(self.arena.alloc(Expr::Neg(inner)));
        }
        if self.eat('(') {
            let inner = self.expr()?;
            return if self.eat(')') { Ok(inner) } else { Err("missing `)`".into()) };
        }
        let token = self.peek().ok_or("unexpected end")?;
        self.at += 1;
        match token {
            Token::Num(n) => Ok(self.arena.alloc(Expr::Num(n))),
            Token::Ident(name) => Ok(self.arena.alloc(Expr::Var(name))),
            Token::Sym(c) => Err(format!("unexpected {c:?}")),
        }
    }
}

fn eval(e: &Expr<'_>, vars: &[(&str, f64)]) -> Result<f64, String> {
    Ok(match *e {
        Expr::Num(n) => n,
        Expr::Var(name) => vars
            .iter()
            .find(|(v, _)| *v == name)
            .map(|&(_, x)| x)
            .ok_or(format!("unknown {name}"))?,
        Expr::Neg(inner) => -eval(inner, vars)?,
        Expr::Bin(op, a, b) => {
            let (a, b) = (eval(a, vars)?, eval(b, vars)?);
            match op {
                Op::Add => a + b,
                Op::Sub => a - b,
                Op::Mul => a * b,
                Op::Div => a / b,
            }
        }
    })
}

fn show(e: &Expr<'_>) -> String {
    match *e {
        Expr::Num(n) => n.to_string(),
        Expr::Var(name) => name.to_owned(),
        Expr::Neg(inner) => format!("(-{})", show(inner)),
        Expr::Bin(op, a, b) => {
            let sym = match op {
                Op::Add => '+',
                Op::Sub => '-',
                Op::Mul => '*',
                Op::Div => '/',
            };
            format!("({} {sym} {})", show(a), show(b))
        }
    }
}

/// Parses and evaluates `src` in a fresh scope of `pool`; returns the tree's printout and
/// the value.
fn calc(pool: &BlockPool, src: &str, vars: &[(&str, f64)]) -> Result<(String, f64), String> {
    calc_in(&pool.scope(), src, vars) // everything lives in the scope, freed at once
}

/// A batch of lines on one long-lived scope: each line is parsed in a rewinding nested
/// scope (`Scope::scoped`), so its tokens and tree are gone, and their bytes free for the
/// next line, as soon as its result is out. Only the results (owned `String`s) leave.
fn calc_lines(
    scope: &mut Scope<'_>,
    lines: &[&str],
    vars: &[(&str, f64)],
) -> Vec<Result<(String, f64), String>> {
    lines.iter().map(|line| scope.scoped(|s| calc_in(s, line, vars))).collect()
}

/// Parses and evaluates `src` with every token and node in `scope`.
fn calc_in(scope: &Scope<'_>, src: &str, vars: &[(&str, f64)]) -> Result<(String, f64), String> {
    let arena = scope.view();
    let tokens = lex(arena, src)?;
    let mut parser = Parser { arena, tokens, at: 0 };
    let tree = parser.expr()?;
    if parser.at != tokens.len() {
        return Err(format!("trailing input after {}", show(tree)));
    }
    Ok((show(tree), eval(tree, vars)?))
}

fn main() {
    let pool = BlockPool::new();
    let src = std::env::args().nth(1).unwrap_or_else(|| "1 + 2 * (3 - x) / -4".to_owned());
    match calc(&pool, &src, &[("x", 5.0)]) {
        Ok((tree, value)) => println!("{tree} = {value}"),
        Err(e) => eprintln!("error: {e}"),
    }
    // A batch on one scope, each line in a nested scope that rewinds after it.
    let mut scope = pool.scope();
    for result in calc_lines(&mut scope, &["x * x", "x * (2 +"], &[("x", 5.0)]) {
        match result {
            Ok((tree, value)) => println!("{tree} = {value}"),
            Err(e) => println!("error: {e}"),
        }
    }
}

#[test]
fn parses_and_evaluates_with_precedence_and_variables() {
    let pool = BlockPool::new();
    let (tree, value) = calc(&pool, "1 + 2 * (3 - x) / -4", &[("x", 5.0)]).unwrap();
    assert_eq!(tree, "(1 + ((2 * (3 - x)) / (-4)))");
    assert!((value - 2.0).abs() < 1e-12);
    assert!(calc(&pool, "1 +", &[]).is_err());
    assert!(calc(&pool, "(1", &[]).is_err());
    assert!(calc(&pool, "y", &[]).unwrap_err().contains("unknown y"));
    // A thousand expressions reuse the pool's block: one system allocation in all.
    for i in 0..1000 {
        calc(&pool, &format!("{i} * 2"), &[]).unwrap();
    }
    assert_eq!(pool.stats().system_allocations, 1);
}

#[test]
fn a_batch_of_lines_reuses_one_scope_line_after_line() {
    let pool = BlockPool::new();
    let mut scope = pool.scope();
    let results = calc_lines(&mut scope, &["1 + 2", "x * x", "(1", "2 * (3 + 4)"], &[("x", 3.0)]);
    assert_eq!(results[0], Ok(("(1 + 2)".to_owned(), 3.0)));
    assert_eq!(results[1], Ok(("(x * x)".to_owned(), 9.0)));
    assert!(results[2].is_err());
    assert_eq!(results[3], Ok(("(2 * (3 + 4))".to_owned(), 14.0)));
    // Each line's tokens and tree were given back when its result came out.
    assert_eq!(scope.stats().allocated_bytes, 0);
    assert_eq!(scope.stats().blocks, 1);
}
