# Reads Othello transcripts (one game a line, lower-case squares, passes left
# out) and prints every position after the first SKIP moves as
# "BOARD SIDE LINE": 64 squares a1..h8 (X Black, O White, - empty), the side to
# move, the game's line. A move that turns nothing is an error.
function other(s) { return s == "X" ? "O" : "X" }
function turns(sq, me, doit,    d, dr, dc, r, c, n, k, total) {
    if (b[sq] != "-") return 0
    total = 0
    for (d = 0; d < 8; d++) {
        dr = DR[d]; dc = DC[d]; r = int(sq / 8) + dr; c = sq % 8 + dc; n = 0
        while (r >= 0 && r < 8 && c >= 0 && c < 8 && b[r * 8 + c] == other(me)) { r += dr; c += dc; n++ }
        if (n > 0 && r >= 0 && r < 8 && c >= 0 && c < 8 && b[r * 8 + c] == me) {
            total += n
            if (doit) for (k = 1; k <= n; k++) b[(int(sq / 8) + k * dr) * 8 + sq % 8 + k * dc] = me
        }
    }
    if (doit && total > 0) b[sq] = me
    return total
}
function can_move(me,    s) { for (s = 0; s < 64; s++) if (turns(s, me, 0) > 0) return 1; return 0 }
function show(    s, out) { out = ""; for (s = 0; s < 64; s++) out = out b[s]; print out, side, NR }
BEGIN { split("-1 -1 -1 0 0 1 1 1", R0, " "); split("-1 0 1 -1 1 -1 0 1", C0, " ")
        for (d = 0; d < 8; d++) { DR[d] = R0[d + 1]; DC[d] = C0[d + 1] } }
{
    for (s = 0; s < 64; s++) b[s] = "-"
    b[27] = "O"; b[28] = "X"; b[35] = "X"; b[36] = "O"; side = "X"
    for (i = 1; i + 1 <= length($1); i += 2) {
        sq = (substr($1, i + 1, 1) - 1) * 8 + index("abcdefgh", substr($1, i, 1)) - 1
        if (!can_move(side)) side = other(side)
        if (turns(sq, side, 1) == 0) { print "line " NR ": " substr($1, i, 2) " turns nothing" > "/dev/stderr"; exit 1 }
        side = other(side)
        if (!can_move(side) && can_move(other(side))) side = other(side)
        if ((i + 1) / 2 >= skip) show()
    }
}
