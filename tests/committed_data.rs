//! The training data committed in `data/` reads back whole: every game, every
//! position, of the rules and label kinds the README says it has.

use mollett::eval::wfile::RulesTag;
use mollett::learn::pack::for_each_line;
use mollett::learn::sample::LabelKind;
use std::collections::HashSet;
use std::path::Path;

#[test]
fn round_14_reads_back_as_80000_othello_games() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/othello-r14.mpk.gz");
    let mut games = HashSet::new();
    let (mut positions, mut exact, mut search) = (0u64, 0u64, 0u64);
    for_each_line(&path, |l| {
        assert_eq!(l.rules, RulesTag::Othello);
        assert!(l.sample.label.abs() <= 64, "{}", l.sample.label);
        games.insert(l.sample.game);
        positions += 1;
        match l.sample.kind {
            LabelKind::Exact => exact += 1,
            LabelKind::Search => search += 1,
            LabelKind::Game => panic!("a game-result label in a search-labelled round"),
        }
        Ok(())
    })
    .expect("the committed data reads");
    assert_eq!(positions, 4_791_757);
    assert_eq!(games.len(), 80_000);
    assert_eq!(games.iter().max(), Some(&79_999));
    // Exact solves from 16 empties on: 17 of a game's positions at most.
    assert!(exact > 0 && exact <= 17 * 80_000, "{exact} exact");
    assert!(search > exact, "{exact} exact, {search} search");
}
