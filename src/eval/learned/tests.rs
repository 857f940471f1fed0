//! Tests of the learned evaluation: pattern views, tables, symmetry and the
//! embedded weights.

use super::*;
use crate::board::bitboard::symmetry;
use crate::board::movegen::Portable;
use crate::eval::weights::DISC_FREE_EMPTIES;
use crate::knowledge::layout::anchor_counts_discs;
use crate::rng::Rng;
use crate::test_positions::random_positions;

/// Random anchor weights of `form` (disc weights only where they count).
fn random_anchors(seed: u64, set: PatternSet, form: Form) -> Vec<Vec<i16>> {
    let layout = Layout::of(set, form);
    let mut rng = Rng::new(seed);
    (0..ANCHORS)
        .map(|k| {
            let mut a: Vec<i16> = (0..layout.len)
                .map(|_| rng.below(2001) as i16 - 1000)
                .collect();
            if !anchor_counts_discs(k) {
                a[layout.disc] = 0;
            }
            a
        })
        .collect()
}

/// Tables from random colour-tied anchor weights of `set`.
fn random_tables(seed: u64, set: PatternSet) -> Tables {
    let anchors = random_anchors(seed, set, Form::ColourTied);
    Tables::expand(&anchors, set, Form::ColourTied)
}

#[test]
fn any_weights_give_a_symmetric_and_antisymmetric_evaluation() {
    for set in PatternSet::ALL {
        let t = random_tables(5, set);
        let eval = |b: &Board| t.evaluate_with(Portable, pattern::pext_portable, b);
        for b in random_positions(30) {
            let v = eval(&b);
            assert_eq!(eval(&b.pass()), -v, "{b:?}");
            for s in 1..8 {
                let m = Board::new(symmetry(b.player, s), symmetry(b.opponent, s));
                assert_eq!(eval(&m), v, "symmetry {s} of {b:?}");
            }
        }
    }
}

#[test]
fn side_to_move_weights_are_symmetric_and_see_whose_move_it_is() {
    for set in PatternSet::ALL {
        let anchors = random_anchors(7, set, Form::SideToMove);
        let t = Tables::expand(&anchors, set, Form::SideToMove);
        let eval = |b: &Board| t.evaluate_with(Portable, pattern::pext_portable, b);
        let mut differs = 0;
        for b in random_positions(30) {
            let v = eval(&b);
            assert!(v.abs() <= EVAL_MAX);
            differs += usize::from(eval(&b.pass()) != -v);
            for s in 1..8 {
                let m = Board::new(symmetry(b.player, s), symmetry(b.opponent, s));
                assert_eq!(eval(&m), v, "symmetry {s} of {b:?}");
            }
        }
        assert!(differs > 1000, "{differs} positions priced the move");
    }
}

#[test]
fn untied_weights_evaluate_exactly_as_the_tied_ones() {
    for set in PatternSet::ALL {
        let tied = random_anchors(8, set, Form::ColourTied);
        let (a, b) = (
            Tables::expand(&tied, set, Form::ColourTied),
            Tables::expand(&untie(set, &tied), set, Form::SideToMove),
        );
        for p in random_positions(30) {
            assert_eq!(
                a.evaluate_with(Portable, pattern::pext_portable, &p),
                b.evaluate_with(Portable, pattern::pext_portable, &p),
                "{p:?}"
            );
        }
    }
}

#[test]
fn classic_weights_carried_over_evaluate_as_before() {
    // Extended weights whose three added patterns weigh nothing evaluate as the
    // classic weights they copy, in either form.
    for form in Form::ALL {
        let classic = random_anchors(9, PatternSet::Classic, form);
        let extended = carry_over(PatternSet::Classic, PatternSet::Extended, form, &classic)
            .expect("the extended set holds the classic patterns");
        let (a, b) = (
            Tables::expand(&classic, PatternSet::Classic, form),
            Tables::expand(&extended, PatternSet::Extended, form),
        );
        for p in random_positions(30) {
            assert_eq!(
                a.evaluate_with(Portable, pattern::pext_portable, &p),
                b.evaluate_with(Portable, pattern::pext_portable, &p),
                "{p:?}"
            );
        }
    }
    let extended = random_anchors(9, PatternSet::Extended, Form::SideToMove);
    let back = carry_over(
        PatternSet::Extended,
        PatternSet::Classic,
        Form::SideToMove,
        &extended,
    );
    assert!(back.is_none(), "dropping patterns is no carry-over");
}

#[cfg(target_arch = "x86_64")]
#[test]
fn the_fast_copy_agrees_with_the_portable_one() {
    if !crate::board::movegen::has_fast_kernel() {
        return;
    }
    for set in PatternSet::ALL {
        let t = random_tables(6, set);
        for b in random_positions(20) {
            let slow = t.evaluate_with(Portable, pattern::pext_portable, &b);
            // SAFETY: the CPU has the features, checked above.
            assert_eq!(unsafe { evaluate_fast(&t, &b) }, slow);
        }
    }
}

#[test]
fn views_read_every_instance_once() {
    // Each view of a set reads a distinct square set, and together they read
    // each square of each pattern's orbit.
    for (set, count) in [(PatternSet::Classic, 46), (PatternSet::Extended, 58)] {
        let layout = Layout::of(set, Form::ColourTied);
        let mut instances = Vec::new();
        for (mask, views) in layout.masks.iter().zip(&layout.views) {
            for &s in views {
                let inst = crate::knowledge::layout::instance(*mask, s);
                assert_eq!(inst.count_ones(), mask.count_ones());
                assert!(!instances.contains(&inst));
                instances.push(inst);
            }
        }
        assert_eq!(instances.len(), count);
        assert_eq!(layout.view_count(), count);
    }
    assert_eq!(images(0x8040_2010_0804_0201)[4], 0x8040_2010_0804_0201);
    for s in 0..8 {
        assert_eq!(
            images(0x1234_5678_9abc_def0)[s],
            symmetry(0x1234_5678_9abc_def0, s as u8)
        );
    }
}

#[test]
fn interpolation_rounds_symmetrically() {
    for (a, b) in [(7, 2), (-3, 10), (1, 0), (0, 0), (32767, 32767)] {
        for r in 0..ANCHOR_STEP {
            assert_eq!(blend(-a, -b, r), -blend(a, b, r));
        }
        assert_eq!(blend(a, b, 0), a as i16);
    }
    assert_eq!(anchor_of(60), (15, 0));
    assert_eq!(anchor_of(17), (4, 1));
    assert!(anchor_counts_discs(4) && !anchor_counts_discs(5));
}

#[test]
fn the_shipped_weights_count_no_discs_with_20_or_more_empties() {
    for (t, sign) in [(embedded(), 1), (embedded_anti(), -1)] {
        for e in 0..t.phases.len() {
            let ph = t.phase(e);
            if e >= DISC_FREE_EMPTIES as usize {
                assert_eq!(ph.disc, 0, "{e} empties");
            }
        }
        // Near the end a disc is worth about a disc: for the mover in
        // Othello, against it in Anti-Reversi.
        assert!(
            sign * i32::from(t.phase(10).disc) > 0,
            "discs count near the end"
        );
        assert!(
            t.phase(30).mobility[0][20] > t.phase(30).mobility[0][2],
            "mobility pays"
        );
    }
}

#[test]
fn the_wipeout_guard_marks_a_side_short_of_discs_in_othello_only() {
    let mut rng = Rng::new(17);
    let (mut guarded, mut tried, mut bonused) = (0, 0, 0);
    for b in random_positions(30) {
        // Keep 1..=8 of the mover's discs: positions near a wipe-out.
        let keep = 1 + rng.below(8) as u32;
        let mut player = 0u64;
        let mut rest = b.player;
        while rest != 0 && player.count_ones() < keep {
            player |= rest & rest.wrapping_neg();
            rest &= rest - 1;
        }
        for p in [b, Board::new(player, b.opponent)] {
            tried += 1;
            let short = |x: u64| 6u32.saturating_sub(x.count_ones()) as i32;
            let guard = if p.empties() > 50 {
                0
            } else {
                300 * (short(p.opponent) - short(p.player))
            };
            assert_eq!(wipeout_guard(&p), guard, "{p:?}");
            guarded += usize::from(guard != 0);
            let tables = embedded().evaluate_with(Portable, pattern::pext_portable, &p);
            let v = evaluate_learned(&p);
            let bonus = match p.empties() {
                e if e % 2 == 0 => 0,
                e if e > 16 => 400,
                _ => 200,
            };
            assert_eq!(odd_empties_bonus(&p), bonus, "{p:?}");
            assert_eq!(odd_empties_bonus(&p.pass()), bonus, "{p:?}");
            bonused += usize::from(bonus != 0);
            assert_eq!(
                v,
                (tables + guard + bonus).clamp(-EVAL_MAX, EVAL_MAX),
                "{p:?}"
            );
            // The guard is antisymmetric; the tables are too only if colour-tied.
            assert_eq!(wipeout_guard(&p.pass()), -guard, "{p:?}");
            if embedded().layout.form == Form::ColourTied {
                assert_eq!(evaluate_learned(&p.pass()), -v, "{p:?}");
            }
            for s in 1..8 {
                let m = Board::new(symmetry(p.player, s), symmetry(p.opponent, s));
                assert_eq!(evaluate_learned(&m), v, "symmetry {s} of {p:?}");
            }
            // Anti-Reversi is won by losing every disc: no guard there, and
            // its own parity terms.
            let anti = embedded_anti().evaluate_with(Portable, pattern::pext_portable, &p);
            let parity = match (p.empties() % 2, p.empties() > 14) {
                (0, true) => 300,
                (0, false) => 150,
                (_, true) => -100,
                (_, false) => -50,
            };
            assert_eq!(anti_parity_bonus(&p), parity, "{p:?}");
            assert_eq!(anti_parity_bonus(&p.pass()), parity, "{p:?}");
            assert_eq!(
                evaluate_learned_anti(&p),
                (anti + parity).clamp(-EVAL_MAX, EVAL_MAX),
                "{p:?}"
            );
        }
    }
    assert!(
        guarded * 4 > tried,
        "{guarded} of {tried} positions guarded"
    );
    assert!(
        bonused * 8 > tried,
        "{bonused} of {tried} with the odd-empties bonus"
    );
}

#[test]
fn the_learned_anti_evaluation_is_symmetric_and_its_own() {
    use crate::rules::Anti;
    use crate::search::RuleSearch;
    let mut differs = 0;
    for b in random_positions(30) {
        let v = evaluate_learned_anti(&b);
        assert_eq!(Anti::evaluate(crate::eval::EvalKind::Learned, &b), v);
        if embedded_anti().layout.form == Form::ColourTied {
            // The tables are antisymmetric; the parity terms are the mover's.
            let bonus = anti_parity_bonus(&b);
            assert_eq!(evaluate_learned_anti(&b.pass()) - bonus, bonus - v, "{b:?}");
        }
        assert!(v.abs() <= EVAL_MAX);
        let portable = embedded_anti().evaluate_with(Portable, pattern::pext_portable, &b);
        assert_eq!(
            (portable + anti_parity_bonus(&b)).clamp(-EVAL_MAX, EVAL_MAX),
            v
        );
        for s in 1..8 {
            let m = Board::new(symmetry(b.player, s), symmetry(b.opponent, s));
            assert_eq!(evaluate_learned_anti(&m), v, "symmetry {s} of {b:?}");
        }
        differs += usize::from(v != evaluate_learned(&b));
    }
    assert!(
        differs > 1000,
        "its own weights: {differs} positions differ"
    );
}
