//! Where each weight of a learned-evaluation weights file lies: the anchor
//! phases, the count tables' sizes, the two [`Form`]s a file can tie its weights
//! in, and the [`Layout`] of one anchor's parameters (its signature names it in
//! the file).

use super::pattern::{self, Canon, PATTERNS};
use super::weights::DISC_FREE_EMPTIES;
use std::sync::OnceLock;

/// Empties between two anchor phases: 4 gives 16 anchors over 0..=60 (finer
/// phases have too few positions each to fit the largest patterns).
pub const ANCHOR_STEP: u32 = 4;
/// Anchor phases: empties 0, 4, ..., 60.
pub const ANCHORS: usize = 16;
/// Mobility counts told apart (more moves count as this many minus one; 33 is
/// the most legal moves known in a real position).
pub const MOBILITY_BUCKETS: usize = 36;
/// Potential-mobility counts told apart (more count as this many minus one).
pub const POTENTIAL_BUCKETS: usize = 48;

/// How a weights file ties its weights, named in its layout signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// Blind to whose move it is: a pattern configuration and its colour swap
    /// have opposite weights, and the mover's and the opponent's counts read one
    /// table, added and subtracted; so swapping the discs' colours with the same
    /// side to move negates the score (`eval(b.pass()) == -eval(b)`).
    ColourTied,
    /// The side to move is part of the position: a configuration and its colour
    /// swap, and the mover's and the opponent's mobility and potential mobility,
    /// have weights of their own (as NTest's and Edax's tables do), so the
    /// evaluation can price having the move. Swapping the colours *and* the side
    /// to move (the colour-swapped position) still gives the same score for the
    /// side to move, i.e. the negated score for Black.
    SideToMove,
}

impl Form {
    /// Both forms, in the order their signatures are tried.
    pub const ALL: [Form; 2] = [Form::ColourTied, Form::SideToMove];

    /// Whether weights of this form can be the prior of a fit in `fit`: the
    /// same form as they are, or colour-tied weights [`untie`](super::learned::untie)d (side-to-move
    /// weights have no colour-tied equivalent).
    pub fn can_start(self, fit: Form) -> bool {
        self == fit || self == Form::ColourTied
    }

    /// The name `mollett train --form` takes.
    pub fn name(self) -> &'static str {
        match self {
            Form::ColourTied => "colour-tied",
            Form::SideToMove => "side-to-move",
        }
    }

    /// The form named `s`.
    pub fn parse(s: &str) -> Result<Form, String> {
        Form::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("unknown form '{s}' (expected colour-tied or side-to-move)"))
    }
}

/// Where each part of an anchor's weights lies in its parameter vector.
#[derive(Debug)]
pub struct Layout {
    /// The form the layout is of.
    pub form: Form,
    /// Per pattern: its base squares as a bitboard.
    pub masks: Vec<u64>,
    /// Per pattern: the symmetries of its views.
    pub views: Vec<Vec<u8>>,
    /// Per pattern: its canonical parameters.
    pub canons: Vec<Canon>,
    /// Per pattern: the offset of its first parameter.
    pub offsets: Vec<usize>,
    /// The offsets of the mover's and the opponent's mobility tables (the same
    /// table in the colour-tied form).
    pub mobility: [usize; 2],
    /// The offsets of the mover's and the opponent's potential-mobility tables.
    pub potential: [usize; 2],
    /// The offset of the disc weight.
    pub disc: usize,
    /// Parameters per anchor.
    pub len: usize,
}

impl Layout {
    /// The layout of [`PATTERNS`] in `form` (computed once per form).
    pub fn of(form: Form) -> &'static Layout {
        static LAYOUTS: [OnceLock<Layout>; 2] = [OnceLock::new(), OnceLock::new()];
        LAYOUTS[form as usize].get_or_init(|| {
            let tied = form == Form::ColourTied;
            let canons: Vec<Canon> = PATTERNS.iter().map(|d| pattern::canon(d, tied)).collect();
            let mut offsets = Vec::new();
            let mut len = 0;
            for c in &canons {
                offsets.push(len);
                len += c.params;
            }
            let tables = |len: &mut usize, size: usize| {
                let mover = *len;
                *len += size;
                let opponent = if tied { mover } else { *len };
                if !tied {
                    *len += size;
                }
                [mover, opponent]
            };
            let mobility = tables(&mut len, MOBILITY_BUCKETS);
            let potential = tables(&mut len, POTENTIAL_BUCKETS);
            let disc = len;
            Layout {
                form,
                masks: PATTERNS.iter().map(pattern::mask_of).collect(),
                views: PATTERNS
                    .iter()
                    .map(|d| pattern::views(pattern::mask_of(d)))
                    .collect(),
                canons,
                offsets,
                mobility,
                potential,
                disc,
                len: disc + 1,
            }
        })
    }

    /// The sign of the opponent's count entries: −1 where its table is the
    /// mover's, subtracted (colour-tied), +1 where it is a table of its own.
    pub fn opponent_sign(&self) -> f32 {
        match self.form {
            Form::ColourTied => -1.0,
            Form::SideToMove => 1.0,
        }
    }

    /// The weight of configuration `c` of pattern `i`, given each parameter's
    /// weight `w(j)` (`j` counted within the anchor): its parameter's, signed.
    #[inline]
    pub fn config_weight(&self, i: usize, c: usize, w: impl Fn(usize) -> i16) -> i16 {
        match self.canons[i].param(c) {
            None => 0,
            Some((j, sign)) => {
                let v = w(self.offsets[i] + j);
                if sign > 0.0 { v } else { -v }
            }
        }
    }

    /// The weight of count `m` of `who` (0 the mover, 1 the opponent) in the
    /// count tables at `offsets` ([`Layout::mobility`] or [`Layout::potential`]),
    /// given each parameter's weight `w(j)`, signed as the evaluation adds it.
    #[inline]
    pub fn count_weight(
        &self,
        offsets: [usize; 2],
        who: usize,
        m: usize,
        w: impl Fn(usize) -> i16,
    ) -> i16 {
        let v = w(offsets[who] + m);
        if who == 1 && self.opponent_sign() < 0.0 {
            -v
        } else {
            v
        }
    }

    /// A name for the layout of `form`, written in and checked against a weights
    /// file: the patterns' squares, the anchors, the table sizes and the form
    /// (the colour-tied form's name is the one files had before forms existed).
    pub fn signature(form: Form) -> String {
        let pats: Vec<String> = PATTERNS
            .iter()
            .map(|d| {
                let sq: Vec<String> = d.squares.iter().map(u8::to_string).collect();
                format!("{}:{}", d.name, sq.join(","))
            })
            .collect();
        format!(
            "patterns {}; anchors {ANCHORS} step {ANCHOR_STEP}; mobility {MOBILITY_BUCKETS}; \
             potential {POTENTIAL_BUCKETS}; disc-free from {DISC_FREE_EMPTIES}{}",
            pats.join(" "),
            match form {
                Form::ColourTied => "",
                Form::SideToMove => "; side to move",
            }
        )
    }
}

/// The anchor at or below `empties` and the weight (0..=[`ANCHOR_STEP`]) of the
/// anchor above it.
#[inline(always)]
pub fn anchor_of(empties: u32) -> (usize, u32) {
    let e = empties.min(((ANCHORS - 1) as u32) * ANCHOR_STEP);
    ((e / ANCHOR_STEP) as usize, e % ANCHOR_STEP)
}

/// Whether an anchor has a disc weight (it is zero from [`DISC_FREE_EMPTIES`] on).
pub const fn anchor_counts_discs(anchor: usize) -> bool {
    (anchor as u32) * ANCHOR_STEP < DISC_FREE_EMPTIES
}
