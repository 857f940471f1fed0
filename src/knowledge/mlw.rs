//! The `.mlw` weights file of the learned evaluation: versioned, checksummed,
//! embedded in the binary at build time ([`super::embedded_weights`]).
//!
//! Layout (integers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `MOLLWTS\n` |
//! | 4 | format version ([`VERSION`]) |
//! | 4 | rules ([`Variant::weights_variant`]): 0 Othello (and historical Reversi), 1 Anti-Reversi |
//! | 8 | FNV-1a 64 of the layout signature ([`Layout::signature`]), which names the [`PatternSet`] and the [`Form`] |
//! | 4 | anchors `A` |
//! | 4 | parameters per anchor `P` |
//! | 4 | length `N` of the note |
//! | N | the note: UTF-8, how the weights were made (command, data, seed) |
//! | 2·A·P | the weights, anchor by anchor, `i16` centi-discs |
//! | 8 | FNV-1a 64 ([`fnv1a`]) of every byte before it |
//!
//! A file that is short, long, of another version or layout, or whose checksum
//! fails is refused with a [`WeightsError`]: never read as zeros.

use super::fnv1a;
use super::layout::{ANCHORS, Form, Layout, PatternSet, anchor_counts_discs};
use crate::rules::Variant;
use std::fmt;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"MOLLWTS\n";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;

/// A parsed weights file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsFile {
    /// The rules it was fitted for: [`Variant::Othello`] (which historical
    /// Reversi shares) or [`Variant::Anti`].
    pub rules: Variant,
    /// The patterns the weights are for.
    pub patterns: PatternSet,
    /// How the weights are tied (which layout they are in).
    pub form: Form,
    /// How it was made.
    pub note: String,
    /// Per anchor, the parameters in the layout's order (centi-discs).
    pub anchors: Vec<Vec<i16>>,
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "weights file: {}", self.0)
    }
}

impl std::error::Error for WeightsError {}

/// The bytes of `file`.
pub fn write(file: &WeightsFile) -> Vec<u8> {
    let layout = Layout::of(file.patterns, file.form);
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let rules: u32 = match file.rules.weights_variant() {
        Variant::Anti => 1,
        _ => 0,
    };
    out.extend_from_slice(&rules.to_le_bytes());
    out.extend_from_slice(
        &fnv1a(Layout::signature(file.patterns, file.form).as_bytes()).to_le_bytes(),
    );
    out.extend_from_slice(&(file.anchors.len() as u32).to_le_bytes());
    out.extend_from_slice(&(layout.len as u32).to_le_bytes());
    out.extend_from_slice(&(file.note.len() as u32).to_le_bytes());
    out.extend_from_slice(file.note.as_bytes());
    for a in &file.anchors {
        assert_eq!(a.len(), layout.len, "an anchor of the layout's length");
        for w in a {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads a weights file for this build's layout, fitted for `rules` (for
/// historical Reversi, Othello's): a file of other rules is refused like a
/// damaged one.
pub fn parse_for(bytes: &[u8], rules: Variant) -> Result<WeightsFile, WeightsError> {
    let rules = rules.weights_variant();
    let file = parse(bytes)?;
    if file.rules != rules {
        return Err(WeightsError(format!(
            "fitted for {}, where {} weights are needed",
            file.rules.name(),
            rules.name()
        )));
    }
    Ok(file)
}

/// Reads a weights file for this build's layout.
pub fn parse(bytes: &[u8]) -> Result<WeightsFile, WeightsError> {
    let err = |m: String| Err(WeightsError(m));
    if bytes.len() < 44 || &bytes[..8] != MAGIC {
        return err("not a Mollett weights file (bad magic or too short)".into());
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
    if fnv1a(body) != stored {
        return err("checksum mismatch: the file is damaged".into());
    }
    let u32_at = |i: usize| u32::from_le_bytes(body[i..i + 4].try_into().expect("4 bytes"));
    let version = u32_at(8);
    if version != VERSION {
        return err(format!(
            "format version {version}, this build reads {VERSION}"
        ));
    }
    let rules = match u32_at(12) {
        0 => Variant::Othello,
        1 => Variant::Anti,
        r => return err(format!("unknown rules tag {r}")),
    };
    let sig = u64::from_le_bytes(body[16..24].try_into().expect("8 bytes"));
    let Some((patterns, form)) = PatternSet::ALL
        .into_iter()
        .flat_map(|p| Form::ALL.map(|f| (p, f)))
        .find(|&(p, f)| sig == fnv1a(Layout::signature(p, f).as_bytes()))
    else {
        return err("made for another pattern set or table layout than this build's".into());
    };
    let (anchors, params, note_len) = (
        u32_at(24) as usize,
        u32_at(28) as usize,
        u32_at(32) as usize,
    );
    let layout = Layout::of(patterns, form);
    if anchors != ANCHORS || params != layout.len {
        return err(format!(
            "{anchors} anchors of {params} weights, this build has {ANCHORS} of {}",
            layout.len
        ));
    }
    let weights_at = 36 + note_len;
    if body.len() != weights_at + 2 * anchors * params {
        return err(format!(
            "{} bytes, the header says {}",
            bytes.len(),
            weights_at + 2 * anchors * params + 8
        ));
    }
    let note = String::from_utf8(body[36..weights_at].to_vec())
        .map_err(|_| WeightsError("the note is not UTF-8".into()))?;
    let anchors: Vec<Vec<i16>> = body[weights_at..]
        .chunks_exact(2 * params)
        .map(|a| {
            a.chunks_exact(2)
                .map(|w| i16::from_le_bytes([w[0], w[1]]))
                .collect()
        })
        .collect();
    if let Some(k) = (0..ANCHORS).find(|&k| !anchor_counts_discs(k) && anchors[k][layout.disc] != 0)
    {
        return err(format!(
            "anchor {k} weighs the disc difference, which counts for nothing there"
        ));
    }
    Ok(WeightsFile {
        rules,
        patterns,
        form,
        note,
        anchors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> WeightsFile {
        sample_of(PatternSet::Classic, Form::ColourTied)
    }

    fn sample_of(patterns: PatternSet, form: Form) -> WeightsFile {
        let layout = Layout::of(patterns, form);
        let len = layout.len;
        WeightsFile {
            rules: Variant::Othello,
            patterns,
            form,
            note: "test".into(),
            anchors: (0..ANCHORS)
                .map(|a| {
                    let mut w: Vec<i16> = (0..len)
                        .map(|j| ((a * 31 + j * 7) % 200) as i16 - 100)
                        .collect();
                    if !anchor_counts_discs(a) {
                        w[layout.disc] = 0;
                    }
                    w
                })
                .collect(),
        }
    }

    #[test]
    fn a_file_round_trips_in_either_form_and_every_set() {
        for patterns in PatternSet::ALL {
            for form in Form::ALL {
                let f = sample_of(patterns, form);
                assert_eq!(parse(&write(&f)), Ok(f));
            }
            assert_ne!(
                Layout::of(patterns, Form::ColourTied).len,
                Layout::of(patterns, Form::SideToMove).len
            );
        }
    }

    #[test]
    fn damage_and_mismatches_are_refused() {
        let bytes = write(&sample());
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        assert!(parse(&flipped).unwrap_err().0.contains("checksum"));
        assert!(parse(&bytes[..bytes.len() - 2]).is_err());
        assert!(parse(b"MOLLWTS\n").is_err());
        assert!(parse(&[0u8; 64]).is_err());
        // Another layout: a changed signature with a recomputed checksum.
        let mut other = bytes[..bytes.len() - 8].to_vec();
        other[16] ^= 1;
        let sum = fnv1a(&other);
        other.extend_from_slice(&sum.to_le_bytes());
        assert!(parse(&other).unwrap_err().0.contains("pattern set"));
        // A disc weight where discs count for nothing.
        let mut f = sample();
        f.anchors[ANCHORS - 1][Layout::of(f.patterns, f.form).disc] = 5;
        assert!(parse(&write(&f)).unwrap_err().0.contains("disc"));
    }
}
