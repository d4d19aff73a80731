//! The versions of the peer crates the report runs, taken from `Cargo.lock` when the
//! report is built (`build.rs` writes them), so the printed and saved versions are always
//! the ones measured.

include!(concat!(env!("OUT_DIR"), "/peer_versions.rs"));

/// One line naming every peer and its version: `peers: bumpalo 3.19.0, slab 0.4.12, ...`.
///
/// # Examples
///
/// ```
/// let line = arena_kit_report::report::versions::line();
/// assert!(line.starts_with("peers: ") && line.contains("bumpalo "));
/// ```
#[must_use]
pub fn line() -> String {
    let peers: Vec<String> =
        PEER_VERSIONS.iter().map(|(name, version)| format!("{name} {version}")).collect();
    format!("peers: {}", peers.join(", "))
}
