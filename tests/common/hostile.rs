//! Hostile game records, generated (never stored): long sequences of nodes, long games of
//! legal moves, deep nesting, in every record format; the cases of issue 43.

/// An SGF of `n` empty nodes after the root, one inside the other as sgf-parse builds them:
/// `(;GM[1]SZ[19];;;…)` (35,000 of them made a 35 KB upload overflow a worker's stack).
pub fn sgf_nodes(n: usize) -> String {
    format!("(;GM[1]SZ[19]{})", ";".repeat(n))
}

/// An SGF of `n` legal pairs of passes, `;B[];W[]` (20,000 of them are 160 KB).
pub fn sgf_pass_pairs(n: usize) -> String {
    format!("(;GM[1]SZ[19]{})", ";B[];W[]".repeat(n))
}

/// An SGF of `n` game trees nested one inside the other: `(;(;(;…)))`.
pub fn sgf_nested(n: usize) -> String {
    format!("{}{}", "(;".repeat(n), ")".repeat(n))
}

/// A PGN of `plies` knight moves shuffling back and forth (legal, no capture, no pawn move:
/// each position's repetition history grows with the game).
pub fn pgn_knight_shuffle(plies: usize) -> String {
    const CYCLE: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut out = String::from("[Event \"shuffle\"]\n[Result \"*\"]\n\n");
    for ply in 0..plies {
        if ply % 2 == 0 {
            out.push_str(&format!("{}. ", ply / 2 + 1));
        }
        out.push_str(CYCLE[ply % 4]);
        out.push(' ');
    }
    out.push_str("*\n");
    out
}

/// The kings' shuffle of shogi, as USI-less CSA moves: `+5958OU`, `-5152OU`, `+5859OU`,
/// `-5251OU`, again and again.
const SHOGI_SHUFFLE: [(&str, &str, &str); 4] = [
    ("+5958OU", "５八玉(59)", "▲５八玉"),
    ("-5152OU", "５二玉(51)", "△５二玉"),
    ("+5859OU", "５九玉(58)", "▲５九玉"),
    ("-5251OU", "５一玉(52)", "△５一玉"),
];

/// A CSA record of `plies` king moves from the usual start (over 65,535 made rsshogi panic).
pub fn csa_shuffle(plies: usize) -> String {
    let mut out = String::from("V2.2\nPI\n+\n");
    for ply in 0..plies {
        out.push_str(SHOGI_SHUFFLE[ply % 4].0);
        out.push('\n');
    }
    out
}

/// A KIF record of `plies` king moves from the usual start.
pub fn kif_shuffle(plies: usize) -> String {
    let mut out = String::from("手合割：平手\n手数----指手---------消費時間--\n");
    for ply in 0..plies {
        out.push_str(&format!("{:>4} {}\n", ply + 1, SHOGI_SHUFFLE[ply % 4].1));
    }
    out
}

/// A KI2 record of `plies` king moves from the usual start.
pub fn ki2_shuffle(plies: usize) -> String {
    let mut out = String::from("手合割：平手\n\n");
    for ply in 0..plies {
        out.push_str(SHOGI_SHUFFLE[ply % 4].2);
        out.push_str(if ply % 8 == 7 { "\n" } else { " " });
    }
    out.push('\n');
    out
}

/// Every hostile case of issue 43 items 1–3: a file name (its extension gives the format)
/// and the record's text.
pub fn cases() -> Vec<(&'static str, String)> {
    vec![
        ("nodes.sgf", sgf_nodes(35_000)),
        ("pairs.sgf", sgf_pass_pairs(20_000)),
        ("nested.sgf", sgf_nested(40_000)),
        ("shuffle.pgn", pgn_knight_shuffle(20_000)),
        ("shuffle.csa", csa_shuffle(70_000)),
        ("shuffle.kif", kif_shuffle(70_000)),
        ("shuffle.ki2", ki2_shuffle(70_000)),
    ]
}
