//! A document tree as typed-arena and rctree users write it: nodes that point at their
//! parent, children and siblings through `Cell<Option<&'a Node<'a>>>`, all in one scope,
//! built by a small parser of an HTML-like text and then walked, searched, edited and
//! printed.
//!
//! The nodes hold references to each other, so no node may have a destructor that could
//! see a neighbour already gone: `Scope::alloc_dropless` takes them (a type with drop
//! glue is a compile error there), and their text (names, attribute values, text nodes)
//! is copied into the same scope with `alloc_str`, which needs no destructor either.
//! The whole tree is freed at once when the scope ends.
//!
//! `cargo run --example dom`; `cargo test --example dom`.

use std::cell::Cell;
use std::fmt::Write as _;

use arena_kit::{BlockPool, Scope};

/// What a node is: an element with its attributes, or a run of text.
enum Kind<'a> {
    Element { name: &'a str, attributes: &'a [(&'a str, &'a str)] },
    Text(&'a str),
}

/// A node of the tree: its kind and its four links, each a `Cell` so that a node can be
/// linked in after it was allocated (the tree is built through shared references).
struct Node<'a> {
    kind: Kind<'a>,
    parent: Cell<Option<&'a Node<'a>>>,
    first_child: Cell<Option<&'a Node<'a>>>,
    last_child: Cell<Option<&'a Node<'a>>>,
    next_sibling: Cell<Option<&'a Node<'a>>>,
}

impl<'a> Node<'a> {
    /// A new node, linked to nothing, in `scope`.
    fn new(scope: &'a Scope<'_>, kind: Kind<'a>) -> &'a Node<'a> {
        scope.alloc_dropless(Node {
            kind,
            parent: Cell::new(None),
            first_child: Cell::new(None),
            last_child: Cell::new(None),
            next_sibling: Cell::new(None),
        })
    }

    /// Appends `child` (a node with no parent) after this node's last child.
    fn append(&'a self, child: &'a Node<'a>) {
        assert!(child.parent.get().is_none(), "a node has one parent");
        child.parent.set(Some(self));
        match self.last_child.replace(Some(child)) {
            Some(last) => last.next_sibling.set(Some(child)),
            None => self.first_child.set(Some(child)),
        }
    }

    /// Unlinks this node (and its subtree) from its parent.
    fn detach(&'a self) {
        let Some(parent) = self.parent.take() else { return };
        let next = self.next_sibling.take();
        let mut previous: Option<&'a Node<'a>> = None;
        let mut at = parent.first_child.get();
        while let Some(node) = at {
            if std::ptr::eq(node, self) {
                break;
            }
            previous = Some(node);
            at = node.next_sibling.get();
        }
        match previous {
            Some(previous) => previous.next_sibling.set(next),
            None => parent.first_child.set(next),
        }
        if next.is_none() {
            parent.last_child.set(previous);
        }
    }

    /// The children, first to last.
    fn children(&'a self) -> impl Iterator<Item = &'a Node<'a>> {
        std::iter::successors(self.first_child.get(), |node| node.next_sibling.get())
    }

    /// The value of attribute `name`, on an element.
    fn attribute(&self, name: &str) -> Option<&'a str> {
        match self.kind {
            Kind::Element { attributes, .. } => {
                attributes.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
            }
            Kind::Text(_) => None,
        }
    }

    /// The first node of this subtree (depth first, itself included) with `id`.
    fn find(&'a self, id: &str) -> Option<&'a Node<'a>> {
        if self.attribute("id") == Some(id) {
            return Some(self);
        }
        self.children().find_map(|child| child.find(id))
    }

    /// The text of this subtree, concatenated.
    fn text(&'a self, out: &mut String) {
        match self.kind {
            Kind::Text(text) => out.push_str(text),
            Kind::Element { .. } => self.children().for_each(|child| child.text(out)),
        }
    }

    /// The subtree as markup again.
    fn render(&'a self, out: &mut String) {
        match self.kind {
            Kind::Text(text) => out.push_str(text),
            Kind::Element { name, attributes } => {
                out.push('<');
                out.push_str(name);
                for (n, v) in attributes {
                    let _ = write!(out, " {n}=\"{v}\"");
                }
                out.push('>');
                self.children().for_each(|child| child.render(out));
                let _ = write!(out, "</{name}>");
            }
        }
    }
}

/// Parses markup of elements (`<name a="v">...</name>`) and text into a tree under a
/// root element named `#document`. Returns the root, or where the markup is broken.
fn parse<'a>(scope: &'a Scope<'_>, mut input: &str) -> Result<&'a Node<'a>, String> {
    let root = Node::new(scope, Kind::Element { name: "#document", attributes: &[] });
    let mut open = vec![root];
    while !input.is_empty() {
        let parent = *open.last().ok_or("unbalanced markup")?;
        if let Some(rest) = input.strip_prefix("</") {
            let end = rest.find('>').ok_or("unclosed end tag")?;
            let name = &rest[..end];
            let closes = open.pop().is_some_and(
                |node| matches!(node.kind, Kind::Element { name: n, .. } if n == name),
            );
            if !closes {
                return Err(format!("unexpected </{name}>"));
            }
            input = &rest[end + 1..];
        } else if let Some(rest) = input.strip_prefix('<') {
            let end = rest.find('>').ok_or("unclosed tag")?;
            let mut words = rest[..end].split_whitespace();
            let name = scope.alloc_str(words.next().ok_or("a tag without a name")?);
            let attributes: Vec<(&'a str, &'a str)> = words
                .map(|word| {
                    let (n, v) = word.split_once('=').ok_or("an attribute without a value")?;
                    let v = v.trim_matches('"');
                    Ok((&*scope.alloc_str(n), &*scope.alloc_str(v)))
                })
                .collect::<Result<_, &str>>()?;
            let attributes = &*scope.alloc_slice_copy(&attributes);
            let element = Node::new(scope, Kind::Element { name, attributes });
            parent.append(element);
            open.push(element);
            input = &rest[end + 1..];
        } else {
            let end = input.find('<').unwrap_or(input.len());
            let text = Node::new(scope, Kind::Text(scope.alloc_str(&input[..end])));
            parent.append(text);
            input = &input[end..];
        }
    }
    match open.as_slice() {
        [root] => Ok(root),
        _ => Err("an element is not closed".to_owned()),
    }
}

const PAGE: &str = concat!(
    r#"<html><body><h1 id="title">Pools</h1>"#,
    r#"<p id="intro">Arenas <b>free</b> everything at once.</p>"#,
    r#"<ul id="list"><li>scopes</li><li>pools</li><li>keys</li></ul></body></html>"#
);

fn main() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let document = parse(&scope, PAGE).expect("the page parses");
    let mut text = String::new();
    document.find("intro").expect("an intro").text(&mut text);
    println!("intro: {text}");
    let list = document.find("list").expect("a list");
    list.children().nth(1).expect("a second item").detach();
    let mut out = String::new();
    list.render(&mut out);
    println!("{out}: {} bytes of scope", scope.stats().allocated_bytes);
}

#[test]
fn the_page_round_trips_through_the_tree() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let document = parse(&scope, PAGE).unwrap();
    let mut out = String::new();
    document.first_child.get().unwrap().render(&mut out);
    assert_eq!(out, PAGE);
    let mut text = String::new();
    document.find("intro").unwrap().text(&mut text);
    assert_eq!(text, "Arenas free everything at once.");
}

#[test]
fn links_go_both_ways_and_detaching_relinks_the_siblings() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    let document = parse(&scope, PAGE).unwrap();
    let list = document.find("list").unwrap();
    let items: Vec<_> = list.children().collect();
    assert_eq!(items.len(), 3);
    assert!(items.iter().all(|item| std::ptr::eq(item.parent.get().unwrap(), list)));
    // Detach the middle, then the last, then add a new one.
    items[1].detach();
    items[2].detach();
    assert!(items[1].parent.get().is_none() && items[2].next_sibling.get().is_none());
    let new = Node::new(&scope, Kind::Element { name: "li", attributes: &[] });
    new.append(Node::new(&scope, Kind::Text("arenas")));
    list.append(new);
    let mut out = String::new();
    list.render(&mut out);
    assert_eq!(out, r#"<ul id="list"><li>scopes</li><li>arenas</li></ul>"#);
    // The detached subtree is still a tree of its own.
    let mut text = String::new();
    items[1].text(&mut text);
    assert_eq!(text, "pools");
}

#[test]
fn broken_markup_is_an_error() {
    let pool = BlockPool::new();
    let scope = pool.scope();
    for bad in ["<p>open", "<p></q>", "</p>", "<p", "<p a>x</p>"] {
        assert!(parse(&scope, bad).is_err(), "{bad}");
    }
}
