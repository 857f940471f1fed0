//! The shipped Othello weights and their regressions are made again, bit for
//! bit, from the training data committed in `data/` by the commands the files
//! themselves record (their notes; `scripts/refit-weights.sh` runs the same
//! commands). The fast test checks that those commands read only committed
//! data; the full refit (about 10 minutes on 2 cores) is ignored by default:
//! `cargo test --release --test reproduce_weights -- --ignored`.

use mollett::eval::wfile::{self, RulesTag};
use mollett::search::probcut::{self, ProbCutFile};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root: the commands run from it.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The recorded command's words after `mollett`, checked to be `subcommand`.
fn recorded(note: &str, subcommand: &str) -> Vec<String> {
    let words: Vec<String> = note.split_whitespace().map(str::to_string).collect();
    assert_eq!(words.first().map(String::as_str), Some("mollett"), "{note}");
    assert_eq!(words.get(1).map(String::as_str), Some(subcommand), "{note}");
    words[1..].to_vec()
}

/// The value after `flag` in `words`, replaced by `value`.
fn replace_flag(words: &mut [String], flag: &str, value: &Path) {
    let at = words
        .iter()
        .position(|w| w == flag)
        .unwrap_or_else(|| panic!("{flag} in {words:?}"));
    words[at + 1] = value.display().to_string();
}

/// The data files a recorded command reads (its words before the first flag).
fn data_files(words: &[String]) -> Vec<PathBuf> {
    words[1..]
        .iter()
        .take_while(|w| !w.starts_with("--"))
        .map(PathBuf::from)
        .collect()
}

fn shipped_weights() -> wfile::WeightsFile {
    wfile::parse_for(wfile::EMBEDDED, RulesTag::Othello).expect("the shipped weights parse")
}

fn shipped_regressions() -> ProbCutFile {
    ProbCutFile::parse(probcut::EMBEDDED).expect("the shipped regressions parse")
}

/// Runs `mollett` with `words` from the repository's root, which must succeed.
fn run(words: &[String]) {
    let out = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(words)
        .current_dir(root())
        .output()
        .expect("mollett runs");
    assert!(
        out.status.success(),
        "{words:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_recorded_commands_read_only_committed_data() {
    let weights = recorded(&shipped_weights().note, "train");
    let regressions = recorded(&shipped_regressions().note, "probcut");
    for words in [&weights, &regressions] {
        let files = data_files(words);
        assert!(!files.is_empty(), "{words:?}");
        for f in files {
            assert!(
                f.starts_with("data"),
                "{} is not committed data",
                f.display()
            );
            assert!(root().join(&f).is_file(), "{} is missing", f.display());
        }
    }
    // The regressions are fitted to the same data as the weights.
    assert_eq!(data_files(&weights), data_files(&regressions));
}

#[test]
#[ignore = "refits the shipped weights and regressions: about 10 minutes on 2 cores"]
fn the_recorded_commands_make_the_shipped_files_again() {
    let dir = std::env::temp_dir().join(format!("mollett-refit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    let shipped = shipped_weights();
    let mut words = recorded(&shipped.note, "train");
    let fitted = dir.join("othello.mlw");
    replace_flag(&mut words, "--out", &fitted);
    run(&words);
    let again = wfile::parse_for(&std::fs::read(&fitted).unwrap(), RulesTag::Othello).unwrap();
    assert_eq!(again.form, shipped.form);
    assert!(
        again.anchors == shipped.anchors,
        "the refitted tables differ"
    );

    // The regressions search with the weights built in: the shipped ones,
    // which the refit above has just shown to be the recorded command's.
    let shipped = shipped_regressions();
    let mut words = recorded(&shipped.note, "probcut");
    let (scores, out) = (dir.join("scores.txt"), dir.join("othello.mpc"));
    replace_flag(&mut words, "--scores", &scores);
    replace_flag(&mut words, "--out", &out);
    run(&words);
    let again = ProbCutFile::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(again.weights, shipped.weights);
    assert_eq!(again.pairs, shipped.pairs);
    assert_eq!(again.extend, shipped.extend);
    std::fs::remove_dir_all(&dir).unwrap();
}
