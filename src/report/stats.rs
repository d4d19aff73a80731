//! What the report says about a set of timed rounds, and how sure it is.
//!
//! The report times every contender of a table once per round, round after round, in a
//! rotating order ([`super::rounds`]), so a slow minute on a shared machine hits every
//! row alike. Two rows are then compared round by round: the *paired ratio* of round
//! `r` is `a[r] / b[r]`, two samples taken within milliseconds of each other, and a
//! comparison is the median of those ratios with their interquartile range. A drift over
//! the run (the machine getting busier) moves both samples of a round together and
//! cancels in the ratio, which a ratio of two medians would not do.
//!
//! A [`Verdict`] says "ahead" or "behind" only when the spread of the paired ratios lies
//! wholly on one side of 1 and the median is more than [`TIE`] away from it; otherwise the
//! two are level, within the noise the spread shows.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How far from 1 a median paired ratio must be to be more than a tie, whatever its
/// spread: differences of 5 % or less are below what a shared machine reproduces from
/// one run to the next (two runs of one binary on the report's 2-vCPU VM moved a tenth
/// of the single-thread rows by more than that; BENCHMARKS.md), so the report does not
/// claim them. Instruction counts (`--instructions`) tell such small differences apart.
pub const TIE: f64 = 0.05;

/// The value at quantile `q` (0 to 1) of `sorted` (ascending, not empty), interpolated
/// linearly between the two nearest samples.
///
/// # Panics
///
/// If `sorted` is empty.
#[must_use]
#[expect(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "sample counts are small; the position is within 0..len"
)]
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    assert!(!sorted.is_empty(), "a quantile of no samples");
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    let frac = pos - lo as f64;
    sorted[lo] + (sorted[hi] - sorted[lo]) * frac
}

/// A median with its interquartile range: the middle half of the samples lies in
/// `q1..=q3`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// The median.
    pub median: f64,
    /// The first quartile.
    pub q1: f64,
    /// The third quartile.
    pub q3: f64,
}

impl Spread {
    /// The median and quartiles of `samples` (not empty; any order).
    ///
    /// # Panics
    ///
    /// If `samples` is empty or holds a NaN.
    #[must_use]
    pub fn of(samples: &[f64]) -> Spread {
        let mut sorted = samples.to_vec();
        sorted.sort_by(|a, b| a.partial_cmp(b).expect("no NaN samples"));
        Spread {
            median: quantile(&sorted, 0.5),
            q1: quantile(&sorted, 0.25),
            q3: quantile(&sorted, 0.75),
        }
    }

    /// The interquartile range as a fraction of the median (0.05 is a spread of 5 %).
    #[must_use]
    pub fn relative_width(&self) -> f64 {
        if self.median > 0.0 { (self.q3 - self.q1) / self.median } else { 0.0 }
    }
}

/// The paired ratios `a[r] / b[r]` of two rows timed in the same rounds, summarised.
///
/// # Panics
///
/// If the rows have no round, or not the same number of rounds.
#[must_use]
pub fn paired(a: &[f64], b: &[f64]) -> Spread {
    assert_eq!(a.len(), b.len(), "two rows timed in the same rounds");
    let ratios: Vec<f64> = a.iter().zip(b).map(|(x, y)| x / y).collect();
    Spread::of(&ratios)
}

/// Where one row stands against another, as far as the rounds tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Standing {
    /// Faster: every quartile of the paired ratios is below 1, the median by more than
    /// [`TIE`].
    Ahead,
    /// Neither: the spread covers 1, or the median is within [`TIE`] of it.
    Level,
    /// Slower: every quartile above 1, the median by more than [`TIE`].
    Behind,
}

impl Standing {
    /// The standing a paired ratio (ours over theirs) shows.
    #[must_use]
    pub fn of(ratio: &Spread) -> Standing {
        if ratio.q3 < 1.0 && ratio.median < 1.0 - TIE {
            Standing::Ahead
        } else if ratio.q1 > 1.0 && ratio.median > 1.0 + TIE {
            Standing::Behind
        } else {
            Standing::Level
        }
    }
}

impl fmt::Display for Standing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Standing::Ahead => "ahead",
            Standing::Level => "level",
            Standing::Behind => "behind",
        })
    }
}

/// arena-kit's best row of a table against the best row of the others (the hand-written
/// limit aside): the paired ratio of the two and what it shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// arena-kit's fastest row (by median time).
    pub ours: String,
    /// The fastest other row.
    pub peer: String,
    /// Ours over the peer's, round by round.
    pub ratio: Spread,
    /// What the ratio shows.
    pub standing: Standing,
}

impl Verdict {
    /// Compares row `ours` (its per-round times) with row `peer`'s.
    #[must_use]
    pub fn new(ours: (&str, &[f64]), peer: (&str, &[f64])) -> Verdict {
        let ratio = paired(ours.1, peer.1);
        Verdict {
            ours: ours.0.to_owned(),
            peer: peer.0.to_owned(),
            ratio,
            standing: Standing::of(&ratio),
        }
    }

    /// The verdict in words: "ahead of bumpalo `Bump` (0.83x, 0.80-0.86)", "behind slab
    /// `Slab` by 1.21x (1.18-1.25)", "level with slotmap `SlotMap` (within noise:
    /// 0.97-1.06x)".
    #[must_use]
    pub fn words(&self) -> String {
        let Spread { median, q1, q3 } = self.ratio;
        match self.standing {
            Standing::Ahead => format!("ahead of {} ({median:.2}x, {q1:.2}-{q3:.2})", self.peer),
            Standing::Behind => {
                format!("behind {} by {median:.2}x ({q1:.2}-{q3:.2})", self.peer)
            }
            Standing::Level => {
                format!("level with {} (within noise: {q1:.2}-{q3:.2}x)", self.peer)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_between_samples() {
        let s = [1.0, 2.0, 3.0, 4.0];
        assert!((quantile(&s, 0.5) - 2.5).abs() < 1e-12);
        assert!((quantile(&s, 0.25) - 1.75).abs() < 1e-12);
        assert!((quantile(&s, 0.0) - 1.0).abs() < 1e-12);
        assert!((quantile(&s, 1.0) - 4.0).abs() < 1e-12);
        assert!((quantile(&[7.0], 0.75) - 7.0).abs() < 1e-12);
        let spread = Spread::of(&[3.0, 1.0, 2.0]);
        assert_eq!((spread.median, spread.q1, spread.q3), (2.0, 1.5, 2.5));
    }

    /// Rounds of a synthetic machine: a base time per row, times a noise that both rows of
    /// a round share (the machine's load that minute) and a small noise of their own.
    fn rounds(base: f64, shared: &[f64], own: &[f64]) -> Vec<f64> {
        shared.iter().zip(own).map(|(s, o)| base * s * o).collect()
    }

    /// A deterministic noise sequence in `1 - amplitude ..= 1 + amplitude`.
    fn noise(seed: u64, n: usize, amplitude: f64) -> Vec<f64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                #[expect(clippy::cast_precision_loss, reason = "a unit fraction")]
                let unit = (x >> 11) as f64 / (1_u64 << 53) as f64;
                1.0 + amplitude * (2.0 * unit - 1.0)
            })
            .collect()
    }

    #[test]
    fn a_tie_under_heavy_shared_noise_is_level() {
        // The machine's load swings times by 40 % from round to round; both rows are the
        // same code, with 2 % noise of their own.
        let shared = noise(1, 21, 0.4);
        let a = rounds(10.0, &shared, &noise(2, 21, 0.02));
        let b = rounds(10.0, &shared, &noise(3, 21, 0.02));
        let v = Verdict::new(("ours", &a), ("peer", &b));
        assert_eq!(v.standing, Standing::Level, "{}", v.words());
        assert!(v.words().starts_with("level with peer (within noise: "), "{}", v.words());
    }

    #[test]
    fn a_clear_win_under_heavy_shared_noise_is_ahead() {
        let shared = noise(4, 21, 0.4);
        let ours = rounds(8.0, &shared, &noise(5, 21, 0.02));
        let peer = rounds(10.0, &shared, &noise(6, 21, 0.02));
        let v = Verdict::new(("ours", &ours), ("peer", &peer));
        assert_eq!(v.standing, Standing::Ahead, "{}", v.words());
        assert!((v.ratio.median - 0.8).abs() < 0.03, "{}", v.words());
        let v = Verdict::new(("ours", &peer), ("peer", &ours));
        assert_eq!(v.standing, Standing::Behind, "{}", v.words());
        assert!(v.words().starts_with("behind peer by 1.2"), "{}", v.words());
    }

    #[test]
    fn a_drift_across_rounds_cancels_in_the_paired_ratio() {
        // The machine slows down steadily to 3x over the run. Per row the spread of times
        // is huge, but each round's two samples drift together: the ratio stays 1.25.
        let drift: Vec<f64> = (0..15).map(|r| 1.0 + f64::from(r) * 2.0 / 14.0).collect();
        let own = vec![1.0; 15];
        let ours = rounds(12.5, &drift, &own);
        let peer = rounds(10.0, &drift, &own);
        assert!(Spread::of(&ours).relative_width() > 0.4, "each row alone looks noisy");
        let v = Verdict::new(("ours", &ours), ("peer", &peer));
        assert_eq!(v.standing, Standing::Behind);
        assert!((v.ratio.median - 1.25).abs() < 1e-9 && v.ratio.q3 - v.ratio.q1 < 1e-9);
    }

    #[test]
    fn a_small_steady_difference_is_level() {
        // 4 % faster every round: real, but below what another run would reproduce.
        let own = vec![1.0; 9];
        let ours = rounds(9.6, &own, &own);
        let peer = rounds(10.0, &own, &own);
        let v = Verdict::new(("ours", &ours), ("peer", &peer));
        assert_eq!(v.standing, Standing::Level, "{}", v.words());
    }
}
