//! What only USI has: `position startpos`/`position sfen`, the `go` command with byo-yomi,
//! and the shape of a USI move (`7g7f`, `8h2b+`, `P*5e`).
//!
//! ```text
//!   9 8 7 6 5 4 3 2 1
//! a l n s g k g s n l      USI squares: file 9..1, rank a..i;
//! ...                      7g7f moves the pawn on 7g to 7f; P*5e drops a pawn on 5e.
//! g P P P P P P P P P
//! ```

use crate::rules::shogi;

/// The setup part of a `position` command: `startpos` for the standard start, else
/// `sfen <sfen>`.
pub fn position_setup(sfen: &str) -> String {
    if sfen == shogi::START_SFEN {
        "startpos".to_string()
    } else {
        format!("sfen {sfen}")
    }
}

/// `go btime 0 wtime 0 byoyomi N`: think `millis` ms for this move (the times are given as
/// USI asks them to be).
pub fn go_command(millis: u128) -> String {
    format!("go btime 0 wtime 0 byoyomi {millis}")
}

/// Whether `text` has the shape of a USI move: a board move `7g7f`/`8h2b+`, or a drop `P*5e`.
pub fn is_usi_move(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'1'..=b'9').contains(&f) && (b'a'..=b'i').contains(&r);
    match b {
        [p, b'*', f, r] => b"PLNSGBR".contains(p) && square(*f, *r),
        [f1, r1, f2, r2] => square(*f1, *r1) && square(*f2, *r2),
        [f1, r1, f2, r2, b'+'] => square(*f1, *r1) && square(*f2, *r2),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_move_shapes() {
        for ok in ["7g7f", "8h2b+", "P*5e", "R*1a"] {
            assert!(is_usi_move(ok), "{ok}");
        }
        for bad in ["e2e4", "K*5e", "7g7f=", "0a1b", "7j7f", "p*5e"] {
            assert!(!is_usi_move(bad), "{bad}");
        }
    }

    #[test]
    fn standard_start_is_startpos() {
        assert_eq!(position_setup(shogi::START_SFEN), "startpos");
        let two = crate::play::ShogiHandicap::TwoPieces.sfen();
        assert_eq!(position_setup(two), format!("sfen {two}"));
    }
}
