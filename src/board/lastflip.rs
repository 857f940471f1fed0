//! Counting the discs turned by the very last move of a game, without computing
//! which ones.
//!
//! With one empty square left the board is otherwise full, so along each of the
//! four lines through that square every disc that is not the mover's is the
//! opponent's. The count along a line then depends only on the square's place in
//! the line and the mover's discs there: an 8-bit pattern, looked up in a table.
//! Squares beyond the end of a short diagonal read as opponent discs, which is
//! harmless: a run through them never meets a closing disc, so it counts nothing.

/// `COUNT[x][line]`: discs turned along a line of 8 by a move at place `x` when
/// `line` marks the mover's discs and every other place is the opponent's.
static COUNT: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut x = 0;
    while x < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0;
            // Towards higher places.
            let mut i = x + 1;
            while i < 8 && line >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                n += i - x - 1;
            }
            // Towards lower places.
            let mut i = x as i32 - 1;
            while i >= 0 && line >> i & 1 == 0 {
                i -= 1;
            }
            if i >= 0 {
                n += (x as i32 - i - 1) as usize;
            }
            t[x][line] = n as u8;
            line += 1;
        }
        x += 1;
    }
    t
};

/// The a1–h8 diagonal and the h1–a8 anti-diagonal through each square.
static DIAGONALS: [[u64; 2]; 64] = {
    let mut t = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq as i32 % 8, sq as i32 / 8);
        let mut other = 0;
        while other < 64 {
            let (c2, r2) = (other % 8, other / 8);
            if c2 - r2 == c - r {
                t[sq][0] |= 1u64 << other;
            }
            if c2 + r2 == c + r {
                t[sq][1] |= 1u64 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    t
};

/// Column a's squares, one per row.
const COLUMN_A: u64 = 0x0101_0101_0101_0101;
/// Gathers column a's bits (rows 1..8) into the top byte, row 1 lowest.
const COLUMN_MAGIC: u64 = 0x0102_0408_1020_4080;

/// The discs `player` turns by moving on `sq`, the only empty square, counted
/// along its row, column and both diagonals. Zero means `sq` is no move for them.
#[inline(always)]
pub fn count_last_flips(sq: u8, player: u64) -> u32 {
    let (col, row) = ((sq % 8) as usize, (sq / 8) as usize);
    let row_line = (player >> (8 * row)) as usize & 0xff;
    let col_line = (((player >> col) & COLUMN_A).wrapping_mul(COLUMN_MAGIC) >> 56) as usize;
    let [d, a] = DIAGONALS[sq as usize];
    let diag_line = ((player & d).wrapping_mul(COLUMN_A) >> 56) as usize;
    let anti_line = ((player & a).wrapping_mul(COLUMN_A) >> 56) as usize;
    (COUNT[col][row_line] + COUNT[row][col_line] + COUNT[col][diag_line] + COUNT[col][anti_line])
        as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::flips_portable;
    use crate::rng::Rng;

    #[test]
    fn counts_match_the_move_generator_on_full_boards() {
        let mut rng = Rng::new(31);
        for _ in 0..20_000 {
            let sq = rng.below(64) as u8;
            let player = rng.next_u64() & !(1 << sq);
            let opponent = !player & !(1 << sq);
            assert_eq!(
                count_last_flips(sq, player),
                flips_portable(sq, player, opponent).count_ones(),
                "square {sq}, player {player:#x}"
            );
            assert_eq!(
                count_last_flips(sq, opponent),
                flips_portable(sq, opponent, player).count_ones()
            );
        }
    }
}
