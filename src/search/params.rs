//! Every tunable of the search, named, each with the reason for its value.

use super::probcut::Selectivity;

/// At this many empties or fewer the endgame null-window search tries moves in
/// parity order without sorting them (in Othello and Anti-Reversi the
/// hand-unrolled last four empties take these nodes). On FFO 20–35, 6 searched
/// 16% fewer nodes than 7 (Edax's value) at no cost in speed; with the
/// stability cut-off from 4 empties and the bands below (FFO 40–49, one thread,
/// 2026-12-07, [`SOLVER_PARITY_BONUS`] at 0), 4 took 593 M nodes where 5 took
/// 652 M, in the same time: a fastest-first choice among five empties leaves
/// the cheapest cut.
pub const SHALLOW_EMPTIES: u32 = 4;

/// The endgame solver probes and stores the table from this many empties up;
/// below, a probe (a likely cache miss) costs more than the subtree it saves:
/// on FFO 20–35, starting at 7 cut nodes by 6% but ran slower. Once five
/// empties were sorted fastest-first, 7 took FFO 40–49 to 593 M nodes against
/// 608 M at 8, in no more time (parity bonus at 0, as below).
pub const ENDGAME_TT_MIN_EMPTIES: u32 = 7;

/// From this many empties up, endgame moves are sorted fastest-first (fewest
/// replies for the opponent), which costs one move generation per child.
pub const FASTEST_FIRST_MIN_EMPTIES: u32 = SHALLOW_EMPTIES + 1;

/// From this many empties up, the solver tries the stability cut-off, before
/// the last four empties' own solver: near the end most discs are stable, and
/// one count of them spares a whole subtree. FFO 40–49, one thread, parity
/// bonus at 0: 593 M nodes from 4 against 741 M from 6 (the earlier value),
/// in less time.
pub const STABILITY_MIN_EMPTIES: u32 = 4;

/// The stability cut-off is tried only when `alpha` is at least this high: the
/// opponent needs `(64 - alpha) / 2` stable discs for a cut, which is unlikely
/// with many empties and a low `alpha`, and counting them is not free. FFO
/// 40–49, one thread, cut-off from 4 empties: `2 * empties - 12` took 594 M
/// nodes in 61.9 s, `- 4` 604 M in 63.2 s, `- 0` 678 M, `- 20` 594 M in 68.2 s
/// (the count costs more than it cuts).
pub const fn stability_threshold(empties: u32) -> i32 {
    2 * empties as i32 - 12
}

/// Nodes between two looks at the shared stop flag: about 0.1 ms of search, far
/// below the 10 ms a stop must take, and rare enough to cost nothing.
pub const STOP_CHECK_INTERVAL: u64 = 4096;

/// Midgame nodes this deep or deeper use the table; shallower ones are too
/// cheap to repay a probe.
pub const MIDGAME_TT_MIN_DEPTH: u32 = 2;

/// The largest contempt, in centi-discs (one disc): a draw is then worth at most
/// a one-disc win and at least a one-disc loss. Final margins are even, so a
/// solved draw still ranks strictly between a two-disc loss and a two-disc win:
/// contempt can tip the choice between a draw and an uncertain midgame line, but
/// never between two solved results. NBoard sends ±100.
pub const MAX_CONTEMPT: i32 = 100;

/// Ordering weight of each reply left to the opponent (corner replies count twice):
/// fastest-first, the strongest single ordering signal in Othello.
pub const ORDER_MOBILITY_WEIGHT: i32 = 16;

/// From this remaining depth up, the midgame orders the moves after the table's
/// by the evaluation of the position after each (less
/// [`MIDGAME_EVAL_ORDER_REPLY_WEIGHT`] per reply) instead of fastest-first: one
/// evaluation per move is cheap next to a subtree this deep. One thread, shipped
/// weights, default table (2026-12-07), nodes of `mollett accuracy
/// benches/data/accuracy-28.obf --level 21` (fastest-first everywhere: 72.4 M)
/// with the evaluation from depth 3: 73.0 M, 4: 69.2 M, 5: 67.0 M, 6: 64.2 M, 7:
/// 65.4 M, 8: 65.9 M; `mollett bench --level 21` 41.4 M against 36.7 M from 6.
/// A 1- or 2-ply search below each move instead (no table), from depth 6 to 10
/// up, cost more than it saved (bench level 21: 42.0 M to 64.9 M).
pub const MIDGAME_EVAL_ORDER_MIN_DEPTH: u32 = 6;

/// Where the midgame orders by the evaluation, a move's key loses this many
/// centi-discs per reply it leaves the opponent (one disc): fastest-first as
/// a tie-break. The accuracy-28 nodes above, from depth 6: 65.6 M at 0, 64.1 M
/// at 50, 64.2 M at 100, 65.2 M at 200; from depth 4 the same order.
pub const MIDGAME_EVAL_ORDER_REPLY_WEIGHT: i32 = 100;

/// Ordering bonus for taking a corner.
pub const ORDER_CORNER_BONUS: i32 = 24;

/// The exact solver's fastest-first ordering (below the evaluation's range of
/// empties) weighs replies by [`ORDER_MOBILITY_WEIGHT`] as the midgame does, but
/// a corner by only this much, half a reply: a tie-break between moves leaving
/// as many replies. It is the value the solver was measured with (the FFO
/// figures in the commit history); the midgame's [`ORDER_CORNER_BONUS`] was
/// tuned apart, for its own ordering.
pub const SOLVER_CORNER_BONUS: i32 = 8;

/// The exact solver's fastest-first ordering: bonus for a move into a region
/// with an odd number of empties (quadrant parity, as in the shallow nodes), a
/// quarter of a reply: the last tie-break. FFO 40–49, one thread (2026-12-07):
/// 576 M nodes at 4, 593 M at 0.
pub const SOLVER_PARITY_BONUS: i32 = 4;

/// Ordering malus for an X-square next to an empty corner: it usually gives the
/// corner away.
pub const ORDER_X_SQUARE_PENALTY: i32 = 32;

/// Under a clock, the soft limit (after which no iteration starts) is scaled by
/// how settled the best move is (`search::time_plan`). A best move that has held
/// for several iterations is rarely overturned by one more: such a move takes
/// this share of the planned time, and the time saved goes to later moves.
pub const SETTLED_SOFT_FACTOR: f64 = 0.6;

/// Each (decayed) best-move change adds this much to the soft limit's factor: a
/// change in the last iteration gives at least 1.3 times the planned time.
pub const BEST_MOVE_CHANGE_WEIGHT: f64 = 0.7;

/// Each iteration keeps this share of the earlier best-move changes: a change
/// counts fully in the next iteration, half in the one after, and so on.
pub const BEST_MOVE_CHANGE_DECAY: f64 = 0.5;

/// The soft limit is never stretched beyond this factor (reached when the best
/// move changes at every iteration); the hard limit caps it in any case.
pub const MAX_SOFT_FACTOR: f64 = 2.0;

/// Iterations up to this depth search the full window: their scores swing too
/// much for an aspiration window to pay.
pub const FULL_WINDOW_DEPTH: u32 = 2;

/// Half-width of the aspiration window around the last iteration's score, in
/// centi-discs (doubled on every failure): two discs, about one iteration's swing.
pub const ASPIRATION_WINDOW: i32 = 200;

/// How many times longer the next iteration is expected to take than the last
/// (the effective branching factor of the midgame search, measured at 2–4): an
/// iteration is not started when this estimate would pass the hard deadline.
pub const ITERATION_GROWTH: f64 = 3.0;

/// From this many empties up, the exact solver orders moves by the learned
/// evaluation of the position after them (less [`EVAL_ORDER_REPLY_WEIGHT`] per
/// reply) instead of fastest-first alone. Measured on FFO 40–49, one thread,
/// with the round-10 weights and a 2-ply search from 18: 1,496 M nodes from 13,
/// 1,356 M from 15, 1,326 M from 17; the hand-written evaluation from 15 (as
/// before): 1,529 M. With fastest-first from 5 empties and the shipped
/// weights (2026-12-07, before the stability change): 900 M from 16, 820 M
/// from 14 or 13, 812 M from 12, 857 M from 10; with everything else as now
/// but the parity bonus at 0, 593 M from 12 against 667 M from 16.
pub const EVAL_ORDER_MIN_EMPTIES: u32 = 12;

/// From this many empties up, the exact solver orders moves by a small search
/// ([`SEARCH_ORDER_DEPTH`] plies over the learned evaluation) below each move:
/// the subtrees there are large enough to repay it. FFO 40–49, one thread
/// (learned evaluation from one empty below): 1,262 M nodes from 16 or 17,
/// 1,326 M from 18, 1,424 M from 20.
pub const SEARCH_ORDER_MIN_EMPTIES: u32 = 17;

/// In the exact solver's evaluation and search bands, a move's key loses this
/// many centi-discs per reply it leaves the opponent: fastest-first on top of
/// the evaluation, which already weighs mobility but not for ordering a
/// proof, where the fewest replies make the smallest subtree. FFO 40–49, one
/// thread: 1,262 M nodes at 0, 1,164 M at 50, 1,175 M at 100, 1,141 M at 200,
/// 1,217 M at 400; fforum-20-39 186 M at 200 against 198 M for the
/// hand-written evaluation alone.
pub const EVAL_ORDER_REPLY_WEIGHT: i32 = 200;

/// Depth of the ordering search above [`SEARCH_ORDER_MIN_EMPTIES`]. FFO 40–49,
/// one thread (with the bands above): 1,141 M nodes at 2, 1,177 M at 3; 4 from
/// 20, 22 or 24 empties up (2 below): 1,115 M, 1,120 M, 1,167 M, too little
/// for a second band.
pub const SEARCH_ORDER_DEPTH: u32 = 2;

/// From this many empties up, the exact solver probes the table for every child
/// before searching (enhanced transposition cut-off): one probe per move is cheap
/// next to a subtree this large. It cut nodes by 6–7% on FFO 20–42 at 12. On
/// FFO 40–49 (2026-12-07, parity bonus at 0): 593 M nodes from 9 against
/// 602 M from 11.
pub const ETC_MIN_EMPTIES: u32 = 9;

/// With several threads, positions this deep or deeper in the exact solver are
/// claimed while searched, and a thread defers a move another thread is on.
pub const ABDADA_MIN_EMPTIES: u32 = 12;

/// With several threads, midgame nodes with this much depth left or more claim
/// the moves they search, and a thread defers a later move another thread is on
/// (ABDADA); shallower subtrees are cheaper than the claim.
pub const MIDGAME_ABDADA_MIN_DEPTH: u32 = 4;

/// Under a clock, a midgame search that leaves time over tries an exact solve
/// when it likely fits in what is left of the soft limit: the estimate is
/// [`TIMED_SOLVE_BASE_SECONDS`] at 20 empties, times [`TIMED_SOLVE_GROWTH`] per
/// extra empty, a generous fit to this machine's solves (FFO 20–39: about 0.03 s
/// at 20 empties, 1.4 s on average at 24–26; FFO 40–49: 21 s on average at
/// 24–26, one thread), so that a solve that cannot finish is seldom started. A
/// solve cut short by the hard limit costs the time but not the move: the
/// midgame answer stands.
pub const TIMED_SOLVE_BASE_SECONDS: f64 = 0.05;

/// See [`TIMED_SOLVE_BASE_SECONDS`]: each empty square multiplies a solve's
/// cost by about this much (the effective branching factor of the solver).
pub const TIMED_SOLVE_GROWTH: f64 = 2.5;

/// Under a clock, a position outside the level's solve window is solved only
/// when the solve is cheap next to the level's own search: it gets this share
/// of the time the level's midgame search took (at least
/// [`EXTRA_SOLVE_MIN_SECONDS`], at most what is left of the soft limit), is not
/// started when the estimate says it cannot fit, and is cut short if it
/// overruns, the midgame answer standing. So a level answers in about its own
/// time, at most twice it: with the old rule (any solve that the estimate fitted
/// in the clock), NBoard at depth 4 with a 5:00 clock solved 26 empties for
/// 54–69 s, four times the estimate.
pub const EXTRA_SOLVE_SHARE: f64 = 1.0;

/// The least time a solve beyond the level's window may take (see
/// [`EXTRA_SOLVE_SHARE`]): 10 ms, below what a person notices, which solves
/// about 14–16 empties, however fast the level's own search was.
pub const EXTRA_SOLVE_MIN_SECONDS: f64 = 0.01;

/// Never try a timed solve above this many empties, whatever the clock says.
pub const TIMED_SOLVE_MAX_EMPTIES: u32 = 30;

/// A lone legal move under a clock is played at once; when at most this many
/// empties follow it, its exact score is solved first (about a millisecond).
pub const LONE_MOVE_SOLVE_EMPTIES: u32 = 12;

// ---------------------------------------------------------------------------
// The exact solver's move ordering per rule set.

/// How the exact solver orders moves under one rule set
/// ([`RuleSearch::SOLVER_ORDER`](super::RuleSearch::SOLVER_ORDER)): the
/// fastest-first key of a move is `-ORDER_MOBILITY_WEIGHT` per reply left to
/// the opponent (a corner reply counting `1 + corner_reply_extra` replies),
/// plus `corner_bonus` for taking a corner, less `disc_weight` per disc the
/// mover owns after the move, plus [`SOLVER_PARITY_BONUS`] in a region of the
/// preferred parity (`odd_first`). Near the end the parity alone orders the
/// moves.
#[derive(Clone, Copy, Debug)]
pub struct SolverOrder {
    /// Extra weight of a corner among the opponent's replies, in replies.
    pub corner_reply_extra: i32,
    /// Bonus for a move into a corner.
    pub corner_bonus: i32,
    /// Malus per disc the mover owns after the move.
    pub disc_weight: i32,
    /// From this many empties up, a move's key is the evaluation
    /// (`RuleSearch::order_value`) of the position after it ([`NEVER`]: no such band).
    pub eval_min_empties: u32,
    /// From this many empties up, a move's key is a small search
    /// ([`SEARCH_ORDER_DEPTH`] plies) over that evaluation.
    pub search_min_empties: u32,
    /// In those two bands, centi-discs off a move's key per reply it leaves.
    pub eval_reply_weight: i32,
    /// Moves into quadrants with an odd number of empties first (else those
    /// with an even number): the side that plays last in a region keeps the
    /// discs that move flips.
    pub odd_first: bool,
}

/// An empties count no position has: a band of [`SolverOrder`] that never starts.
pub const NEVER: u32 = u32::MAX;

/// Othello's (and historical Reversi's) solver ordering: a corner reply
/// counts twice, taking a corner is a tie-break, the learned evaluation with
/// a fastest-first term orders the deep nodes.
pub const OTHELLO_SOLVER_ORDER: SolverOrder = SolverOrder {
    corner_reply_extra: 1,
    corner_bonus: SOLVER_CORNER_BONUS,
    disc_weight: 0,
    eval_min_empties: EVAL_ORDER_MIN_EMPTIES,
    search_min_empties: SEARCH_ORDER_MIN_EMPTIES,
    eval_reply_weight: EVAL_ORDER_REPLY_WEIGHT,
    odd_first: true,
};

/// Anti-Reversi's solver ordering, where owning discs (corners above all) is
/// what loses: corner replies count as any reply, taking a corner costs a
/// reply, each disc the move leaves the mover a quarter reply; the learned
/// evaluation orders the deep nodes, from more empties than in Othello.
/// Measured on `fforum-20-39` #1–12, one thread: 1,431 M nodes with Othello's
/// ordering, 210 M with this one (Othello's rules: 66 M).
/// Each change counted: corner replies at 1 extra, 0, -1 gave 370, 276, 204 M
/// on six of them; the corner bonus at +8, -8 ... -32 gave 204 against
/// 149–150 M; the disc malus 0, 2–5, 8 gave 107, 80, 90 M (together with the
/// evaluation off). The hand-written Anti-Reversi evaluation ordered worse
/// than fastest-first alone (409 M against 317 M nodes on #18). The learned
/// one (with Anti-Reversi's selective passes; #1–12 / #13–18 / #19 / #20, in
/// M nodes; fastest-first alone: 148.0 / 216.5 / 1,192.6 / 23,479): as a key
/// from 15 empties and a 2-ply search from 18, 163.6 / 227.8 / 1,011.2 on the
/// first three; the search alone from 22, 20, 18 or 16 empties, 1,109.4,
/// 1,031.0, 927.6 and 879.4 on #19, but from 18 it took #20 to 33,421 (from
/// 22: 31,576): more in all (34,714 against 25,036), so the band stayed off
/// with those (round-3) weights. Even quadrants first, as the last move in a
/// region is a liability here: 124.7 M nodes against 129.9 M on #1–12,
/// 203.7 M against 211.4 M on #13–18 (odd first, as in Othello). With the
/// round-5 weights (depth-10 labels) the bands pay: the evaluation from 18
/// empties and a 2-ply search from 22, each less two discs per reply as in
/// Othello, took #1–12 / #13–18 / #19 from 125.1 / 215.1 / 1,226 M to
/// 123.6 / 205.4 / 846.8 M; the evaluation from 20 alone gave 125.1 / 216.8 /
/// 916.0, the search from 20 alone 125.1 / 215.1 / 841.3. On #20 (26
/// empties) the bands searched 20,367 M nodes in 498 s against 23,670 M in
/// 552 s with the round-4 weights and no bands (side by side). The round-6
/// weights (fitted from nothing to `data/anti-r6.mpk.gz`) order well from
/// fewer empties, with a lighter reply term: see the three constants below.
pub const ANTI_SOLVER_ORDER: SolverOrder = SolverOrder {
    corner_reply_extra: -1,
    corner_bonus: -ORDER_MOBILITY_WEIGHT,
    disc_weight: ORDER_MOBILITY_WEIGHT / 4,
    eval_min_empties: ANTI_EVAL_ORDER_MIN_EMPTIES,
    search_min_empties: ANTI_SEARCH_ORDER_MIN_EMPTIES,
    eval_reply_weight: ANTI_EVAL_ORDER_REPLY_WEIGHT,
    odd_first: false,
};

/// From this many empties up, Anti-Reversi's solver orders moves by the learned
/// evaluation (see [`ANTI_SOLVER_ORDER`]). `fforum-20-39` #1–12 / #13–18 /
/// #19 under Anti-Reversi, one thread, the round-6 weights, in M nodes (the
/// search band from 22, reply weight 200): from 18, 128.0 / 211.6 / 819.4;
/// from 16, 124.8 / 204.1 / 772.8; from 14, 121.2 / 194.2 / 742.5; from 12,
/// 118.2 / 183.8 / 719.5. With the search band from 18 and reply weight 100:
/// from 14, 119.5 / 191.5 / 658.6; from 12, 117.2 / 182.3 / 638.3; from 10,
/// 116.0 / 175.6 / 626.4 (no faster: the evaluation costs more than the
/// nodes it saves that near the end).
pub const ANTI_EVAL_ORDER_MIN_EMPTIES: u32 = 12;
/// From this many empties up, Anti-Reversi's solver orders moves by a
/// [`SEARCH_ORDER_DEPTH`]-ply search (see [`ANTI_SOLVER_ORDER`]). Same sets
/// and weights, the evaluation from 14, reply weight 200: from 22, 121.2 /
/// 194.2 / 742.5; from 20, 121.2 / 194.2 / 722.9; from 18, 120.8 / 194.3 /
/// 719.2. The evaluation from 12, reply weight 100: from 16, 116.7 / 178.8 /
/// 626.4; from 18, 117.2 / 182.3 / 638.3; from 20, 117.8 / 181.1 / 648.9.
pub const ANTI_SEARCH_ORDER_MIN_EMPTIES: u32 = 18;
/// Anti-Reversi's [`EVAL_ORDER_REPLY_WEIGHT`]: its margins are about a third
/// of Othello's (a draw guess errs by 4.6 discs a position against 11.4), so
/// at Othello's weight the reply count drowns the evaluation. Same sets and
/// weights, the evaluation from 14 and the search from 18: 123.2 / 195.2 /
/// 703.5 at 0, 121.4 / 190.2 / 672.9 at 50, 119.5 / 191.5 / 658.6 at 100,
/// 119.8 / 192.0 / 670.5 at 150, 120.8 / 194.3 / 719.2 at 200,
/// 124.0 / 206.1 / 800.4 at 400.
pub const ANTI_EVAL_ORDER_REPLY_WEIGHT: i32 = 100;

// ---------------------------------------------------------------------------
// Selective endgame passes (see `Root::solve`).

/// From this many empties up, an exact or win/loss/draw solve starts with
/// selective searches to the end ([`endgame_passes`]) that fill the table with
/// best moves and centre the proof's window; below, the proof alone is
/// cheaper. On fforum-20-39 (15-26 empties, one thread), one 73 % pass took
/// the exact solves from 573 M nodes and 30 s to 205 M nodes and 15.5 s.
pub const SELECTIVE_PASS_MIN_EMPTIES: u32 = 18;
/// From this many empties up, a 95 % pass follows the 73 % one: the proof
/// dominates the cost there, and a surer pass orders it better (FFO 45-49:
/// 1,362 M nodes after two passes against 1,411 M after one); below, the
/// second pass costs more time than it saves (fforum-20-39: 17.5 s against
/// 15.5 s).
pub const SECOND_PASS_MIN_EMPTIES: u32 = 24;

/// The selective passes an exact solve with `empties` empties starts with,
/// least sure first (none below [`SELECTIVE_PASS_MIN_EMPTIES`]).
pub fn endgame_passes(empties: u32) -> &'static [Selectivity] {
    const ONE: [Selectivity; 1] = [Selectivity::LEAST];
    const TWO: [Selectivity; 2] = [Selectivity::LEAST, Selectivity::SURE];
    if empties >= SECOND_PASS_MIN_EMPTIES {
        &TWO
    } else if empties >= SELECTIVE_PASS_MIN_EMPTIES {
        &ONE
    } else {
        &[]
    }
}

/// A selective search to the end (a pass) hands nodes with fewer empties than
/// this to the exact solver; from here up it goes on itself, cutting by
/// Multi-ProbCut. On FFO 40-49 after one 73 % pass: 1,543 M nodes at 10,
/// 1,602 M at 8, 1,741 M at 12, 1,837 M at 16.
pub const SELECTIVE_END_MIN_EMPTIES: u32 = 10;

/// Half-width, in discs, of the exact pass's aspiration window around the
/// selective passes' score (doubled on each failure): final margins are
/// even, so two discs hold the passes' score and its neighbours. 1 and 4 did
/// no better on FFO 40-44.
pub const ENDGAME_ASPIRATION_DISCS: i32 = 2;

/// Before a multi-PV solve, midgame depths up to this one are reported first:
/// they are cheap, show something at once, and order the moves for the solve.
pub const PRESOLVE_DEPTH: u32 = 8;

/// A solve from more empties than this cannot be expected to end soon (FFO
/// #49, 26 empties, took 13.6 s on one core of this 2-core machine; each
/// empty more multiplies the cost by two to three): before it, the midgame search deepens as for a midgame move,
/// so that progress shows throughout and a stop answers with a searched move
/// (Edax deepens likewise at level 60). Up to this many empties a solve starts
/// at once, as the FFO and bench figures were measured.
pub const LONG_SOLVE_EMPTIES: u32 = 26;

/// Before a long solve, the midgame deepening stops this many plies short of
/// the end of the game: the selective passes to the end follow.
pub const LONG_SOLVE_GAP: u32 = 12;
