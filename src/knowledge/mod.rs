//! Learned knowledge: the files the engine learns from self-play and ships in
//! the binary, their formats, and the one start-up check of the shipped ones.
//!
//! - [`mlw`]: the `.mlw` weights file of the learned evaluation (header,
//!   version, rules, layout signature, checksum), read by `crate::eval::learned`.
//! - [`mpc`]: the `.mpc` Multi-ProbCut regressions fitted with those weights,
//!   read by `crate::search::probcut`.
//! - [`layout`]: the patterns and where each weight lies in a weights file
//!   (what its layout signature names).
//!
//! Each rule set with weights of its own ships one file of each: Othello's,
//! which historical Reversi shares ([`Variant::weights_variant`]), and
//! Anti-Reversi's. They are embedded at build time ([`embedded_weights`],
//! [`embedded_regressions`]); a damaged or mismatched one stops the engine at
//! start-up ([`check_embedded`]) instead of in a search.
//!
//! This module stands on the board alone: the evaluation, the search and the
//! tools that fit the files import it, never the other way round.

pub mod layout;
pub mod mlw;
pub mod mpc;

use crate::rules::Variant;

/// The Othello weights the engine ships (see the README for how they were made).
pub const OTHELLO_WEIGHTS: &[u8] = include_bytes!("../../weights/othello.mlw");

/// The Anti-Reversi weights the engine ships, fitted to Anti-Reversi self-play
/// (see the README).
pub const ANTI_WEIGHTS: &[u8] = include_bytes!("../../weights/anti.mlw");

/// The Othello regressions the engine ships, fitted with the embedded weights
/// (see the README for how).
pub const OTHELLO_REGRESSIONS: &str = include_str!("../../weights/othello.mpc");

/// The Anti-Reversi regressions the engine ships, fitted with the embedded
/// Anti-Reversi weights (see the README for how).
pub const ANTI_REGRESSIONS: &str = include_str!("../../weights/anti.mpc");

// The learned files are chosen by rule set here, beside the files, rather than
// in `crate::rules`, which knows the rules and nothing learned.
impl Variant {
    /// The rule set whose learned files this one uses: its own, except
    /// historical Reversi, which shares Othello's weights and regressions.
    pub const fn weights_variant(self) -> Variant {
        match self {
            Variant::Othello | Variant::Reversi => Variant::Othello,
            Variant::Anti => Variant::Anti,
        }
    }
}

/// FNV-1a, 64 bits: the checksum of both file formats, and how a regression
/// file names the weights it was fitted with.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The embedded weights file of `rules` (for historical Reversi, Othello's),
/// the one its regressions belong to.
pub fn embedded_weights(rules: Variant) -> &'static [u8] {
    match rules.weights_variant() {
        Variant::Anti => ANTI_WEIGHTS,
        _ => OTHELLO_WEIGHTS,
    }
}

/// The embedded regression file of `rules` (for historical Reversi,
/// Othello's), as shipped (unparsed).
pub fn embedded_regressions(rules: Variant) -> &'static str {
    match rules.weights_variant() {
        Variant::Anti => ANTI_REGRESSIONS,
        _ => OTHELLO_REGRESSIONS,
    }
}

/// The rule sets that ship learned files of their own.
pub const WEIGHTS_VARIANTS: [Variant; 2] = [Variant::Othello, Variant::Anti];

/// Learned files given at run time (`--eval-file`, `--regressions-file`) in
/// place of the embedded ones of their rules, so that an experiment never has
/// to touch the shipped files (Edax's `-eval-file`).
#[derive(Clone, Debug, Default)]
struct RunTimeFiles {
    weights: Vec<(Variant, &'static [u8])>,
    regressions: Vec<(Variant, &'static str)>,
}

impl RunTimeFiles {
    /// The weights file of `rules` (its weights variant): the run-time one if
    /// given, else the embedded one.
    fn weights_of(&self, rules: Variant) -> &'static [u8] {
        self.weights
            .iter()
            .find(|(r, _)| *r == rules)
            .map_or_else(|| embedded_weights(rules), |&(_, bytes)| bytes)
    }
}

/// The files [`use_files`] chose: set once, at start-up, before the first
/// evaluation; unset, every rule set uses its embedded files.
static RUN_TIME_FILES: std::sync::OnceLock<RunTimeFiles> = std::sync::OnceLock::new();

/// The weights file in use for `rules`: a run-time file of its rules if one was
/// given, else the embedded one.
pub fn weights(rules: Variant) -> &'static [u8] {
    let rules = rules.weights_variant();
    RUN_TIME_FILES
        .get()
        .map_or_else(|| embedded_weights(rules), |f| f.weights_of(rules))
}

/// The regression file in use for `rules`: a run-time file of its rules if one
/// was given, else the embedded one.
pub fn regressions(rules: Variant) -> &'static str {
    let rules = rules.weights_variant();
    RUN_TIME_FILES
        .get()
        .and_then(|f| f.regressions.iter().find(|(r, _)| *r == rules))
        .map_or_else(|| embedded_regressions(rules), |&(_, text)| text)
}

/// Uses a weights file (its bytes) and a regression file (its text) instead of
/// the embedded files of their rules, for the rest of the process. A weights
/// file is for the rules its header names; a regression file for the rules whose
/// weights in use it was fitted with (so give the weights first, or together).
/// Call once, at start-up, before anything evaluates: the evaluation expands
/// the weights in use when it first runs. The contents are kept for the life of
/// the process (leaked, as the embedded files are static). Errors say what is
/// wrong; nothing is used then.
pub fn use_files(weights: Option<Vec<u8>>, regressions: Option<String>) -> Result<(), String> {
    let mut files = RunTimeFiles::default();
    if let Some(bytes) = weights {
        let rules = mlw::parse(&bytes).map_err(|e| e.to_string())?.rules;
        files
            .weights
            .push((rules.weights_variant(), Box::leak(bytes.into_boxed_slice())));
    }
    if let Some(text) = regressions {
        let Some(rules) = WEIGHTS_VARIANTS
            .into_iter()
            .find(|&r| mpc::parse_for(&text, files.weights_of(r)).is_ok())
        else {
            let e = mpc::parse_for(&text, files.weights_of(Variant::Othello)).unwrap_err();
            return Err(format!("{e} (not those of any rule set in use)"));
        };
        files
            .regressions
            .push((rules, Box::leak(text.into_boxed_str())));
    }
    RUN_TIME_FILES
        .set(files)
        .map_err(|_| "the learned files were chosen already".to_string())
}

/// The start-up check: every weights file in use ([`weights`]) parses for this
/// build's layout and for its rules (header, layout, rules, checksum; not
/// expanded) and, with `regressions`, every regression file in use parses and
/// was fitted with the weights in use of its rules. The error is the first
/// problem found, as `weights file: …` or `<rules> regression file: …`.
pub fn check_embedded(regressions: bool) -> Result<(), String> {
    for rules in WEIGHTS_VARIANTS {
        mlw::parse_for(self::weights(rules), rules).map_err(|e| e.to_string())?;
    }
    if regressions {
        for rules in WEIGHTS_VARIANTS {
            mpc::parse_for(self::regressions(rules), self::weights(rules))
                .map_err(|e| format!("{} {e}", rules.name()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_files_pass_the_start_up_check() {
        assert_eq!(check_embedded(false), Ok(()));
        assert_eq!(check_embedded(true), Ok(()));
    }

    #[test]
    fn the_embedded_files_are_valid_and_for_their_rules() {
        for (bytes, rules) in [
            (OTHELLO_WEIGHTS, Variant::Othello),
            (ANTI_WEIGHTS, Variant::Anti),
        ] {
            let f = mlw::parse_for(bytes, rules).expect("the embedded weights parse");
            assert_eq!(f.rules, rules);
            assert!(!f.note.is_empty());
            assert!(f.anchors.iter().flatten().any(|&w| w != 0));
        }
        assert!(mlw::parse_for(OTHELLO_WEIGHTS, Variant::Anti).is_err());
        let e = mlw::parse_for(ANTI_WEIGHTS, Variant::Othello).unwrap_err();
        assert!(e.0.contains("fitted for anti"), "{e}");
        assert_ne!(OTHELLO_WEIGHTS, ANTI_WEIGHTS);
    }

    #[test]
    fn historical_reversi_uses_othellos_files() {
        assert_eq!(Variant::Reversi.weights_variant(), Variant::Othello);
        assert_eq!(embedded_weights(Variant::Reversi), OTHELLO_WEIGHTS);
        assert_eq!(embedded_regressions(Variant::Reversi), OTHELLO_REGRESSIONS);
        assert!(mlw::parse_for(OTHELLO_WEIGHTS, Variant::Reversi).is_ok());
    }
}
