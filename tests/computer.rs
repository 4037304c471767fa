//! The built-in opponents (`play::computer`): never an illegal move in self-play, checked by
//! our rules engines and by independent references (GNU Go replays every Go game,
//! python-chess every chess game); stronger levels beat level 1; the tactics the levels
//! must see (a mate in one from the corpus' puzzles, a hanging queen, a free rook); and the
//! Go dead stones compared with GNU Go's `final_status_list dead`.
//!
//! A debug build (what `cargo test` runs) plays few, short games with searches cut down by
//! `think_with`; a release build (`cargo test --release`) plays the real levels and more
//! games. GNU Go must be installed (`apt-get install gnugo`, or `GNUGO=/path`), and
//! python-chess (`pip install chess`); scripts/test.sh installs both.

mod common;

use qiyuan::play::computer::{
    chess as chess_ai, go as go_ai, shogi as shogi_ai, Computer, SearchStrength,
};
use qiyuan::play::Level;
use qiyuan::rules::go::{Board, Color, Move, Point, Position as GoPosition};
use qiyuan::rules::{chess, shogi};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// Whether this is a release build, which plays the real levels and more games.
const RELEASE: bool = cfg!(not(debug_assertions));

fn level(n: u8) -> Level {
    Level::new(n).unwrap()
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(3600)
}

// ---------------------------------------------------------------------------------------
// GNU Go over GTP
// ---------------------------------------------------------------------------------------

/// A GNU Go process spoken to over GTP.
struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(seed: u64) -> Gtp {
        let path = std::env::var_os("GNUGO").unwrap_or_else(|| "/usr/games/gnugo".into());
        let mut child = Command::new(&path)
            .args(["--mode", "gtp", "--level", "0", "--seed", &seed.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot start GNU Go ({}): {e}; run `apt-get install gnugo` or set GNUGO",
                    std::path::Path::new(&path).display()
                )
            });
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Gtp {
            child,
            stdin,
            stdout,
        }
    }

    /// The answer to `command`: `Ok` for `=`, `Err` for `?`.
    fn ask(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "GNU Go quit");
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        let text = answer.trim();
        match text.strip_prefix('=') {
            Some(rest) => Ok(rest.trim().to_string()),
            None => Err(text.trim_start_matches('?').trim().to_string()),
        }
    }

    fn ok(&mut self, command: &str) -> String {
        self.ask(command)
            .unwrap_or_else(|e| panic!("GNU Go refused `{command}`: {e}"))
    }

    /// Sets up an empty board of `size` with komi 7.5 and plays `moves` from Black: every
    /// move must be legal for GNU Go too.
    fn replay(&mut self, size: u8, moves: &[Move]) {
        self.ok(&format!("boardsize {size}"));
        self.ok("clear_board");
        self.ok("komi 7.5");
        let mut color = "b";
        for (i, mv) in moves.iter().enumerate() {
            let name = mv.name(size);
            if let Err(e) = self.ask(&format!("play {color} {name}")) {
                panic!("GNU Go refuses move {} ({color} {name}): {e}", i + 1);
            }
            color = if color == "b" { "w" } else { "b" };
        }
    }

    /// The points GNU Go names in an answer such as `A1 B2\nC3`.
    fn points(answer: &str, size: u8) -> Vec<Point> {
        let mut out: Vec<Point> = answer
            .split_whitespace()
            .map(|t| Point::parse(t, size).unwrap())
            .collect();
        out.sort();
        out
    }

    /// The board GNU Go holds, as a position with `to_play` to move.
    fn position(&mut self, size: u8, to_play: Color) -> GoPosition {
        let mut board = Board::new(size).unwrap();
        for (color, name) in [(Color::Black, "black"), (Color::White, "white")] {
            let answer = self.ok(&format!("list_stones {name}"));
            for p in Gtp::points(&answer, size) {
                board.set(p, Some(color));
            }
        }
        GoPosition::new(board, to_play)
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------
// Go
// ---------------------------------------------------------------------------------------

/// A Go player: the move for a position and a seed.
type GoPlayer<'a> = &'a dyn Fn(&GoPosition, u64) -> Option<Move>;

/// Plays a game from the empty board of `size` until two passes or `max_moves`, every move
/// checked by our engine (legal, and never a stone on one of the mover's own single-point
/// eyes); returns the moves and the last position.
fn play_go(
    size: u8,
    black: GoPlayer,
    white: GoPlayer,
    seed: u64,
    max_moves: usize,
) -> (Vec<Move>, GoPosition) {
    let mut pos = GoPosition::empty(size).unwrap();
    let mut moves = Vec::new();
    while moves.len() < max_moves && pos.consecutive_passes() < 2 {
        let player = if pos.turn() == Color::Black {
            black
        } else {
            white
        };
        let mv =
            player(&pos, seed.wrapping_add(moves.len() as u64)).expect("a move before two passes");
        if let Move::Play(p) = mv {
            let board = pos.board();
            let own = pos.turn();
            assert!(
                !board.neighbours(p).all(|q| board.get(q) == Some(own)),
                "move {} fills its own eye at {}",
                moves.len() + 1,
                p.name(size)
            );
        }
        let name = mv.name(size);
        pos = match pos.play(&name) {
            Ok((next, _)) => next,
            Err(e) => panic!("move {} ({name}) is illegal: {e}", moves.len() + 1),
        };
        moves.push(mv);
    }
    (moves, pos)
}

fn go_level(n: u8) -> impl Fn(&GoPosition, u64) -> Option<Move> {
    move |pos, seed| pos.think(level(n), seed)
}

/// A Monte-Carlo player with `playouts` (the debug build's stand-in for the real levels).
fn go_playouts(playouts: usize) -> impl Fn(&GoPosition, u64) -> Option<Move> {
    move |pos, seed| {
        go_ai::think_with(
            pos,
            go_ai::Strength {
                playouts,
                komi: go_ai::KOMI,
            },
            seed,
            far_future(),
        )
    }
}

#[test]
fn go_self_play_is_legal_for_gnu_go_and_ends_by_two_passes() {
    let mut gtp = Gtp::start(1);
    let one = go_level(1);
    let mc = go_playouts(if RELEASE { 1_500 } else { 40 });
    let games: Vec<(GoPlayer, GoPlayer, u8)> = if RELEASE {
        vec![
            (&one, &one, 9),
            (&mc, &one, 9),
            (&one, &mc, 9),
            (&mc, &mc, 9),
            (&one, &one, 13),
        ]
    } else {
        vec![(&one, &one, 9), (&mc, &one, 9), (&one, &one, 13)]
    };
    for (i, (black, white, size)) in games.into_iter().enumerate() {
        let (moves, pos) = play_go(size, black, white, 100 + i as u64, 400);
        assert!(
            pos.consecutive_passes() >= 2,
            "game {i} did not end by two passes in 400 moves"
        );
        gtp.replay(size, &moves);
    }
}

#[test]
fn go_monte_carlo_beats_level_one_by_gnu_go_count() {
    let mut gtp = Gtp::start(2);
    let one = go_level(1);
    let strong_real = go_level(5);
    let strong_debug = go_playouts(200);
    let strong: GoPlayer = if RELEASE { &strong_real } else { &strong_debug };
    let games = if RELEASE { 4 } else { 2 };
    // The debug build plays on 7×7, where a playout is short.
    let size = if RELEASE { 9 } else { 7 };
    let mut wins = 0;
    let mut results = Vec::new();
    for g in 0..games {
        let strong_is_black = g % 2 == 0;
        let (black, white): (GoPlayer, GoPlayer) = if strong_is_black {
            (strong, &one)
        } else {
            (&one, strong)
        };
        let (moves, _) = play_go(size, black, white, 500 + g as u64, 300);
        gtp.replay(size, &moves);
        let score = gtp.ok("final_score");
        let black_won = score.starts_with('B');
        if black_won == strong_is_black {
            wins += 1;
        }
        results.push(score);
    }
    let needed = if RELEASE { 3 } else { 2 };
    assert!(
        wins >= needed,
        "Monte-Carlo won {wins} of {games}: {results:?}"
    );
}

#[test]
fn go_think_is_deterministic_for_a_seed() {
    let pos = GoPosition::empty(9).unwrap().play("E5").unwrap().0;
    for n in [1, 2] {
        let a = pos.think(level(n), 42);
        assert_eq!(a, pos.think(level(n), 42));
        assert!(a.is_some());
    }
}

#[test]
fn go_passes_back_when_the_game_is_settled_and_it_wins() {
    // Black's wall on the D and E lines; Black owns 45 points, White 36; komi 7.5: Black
    // wins. White has passed; every level of Black passes too, so the game ends.
    let board = Board::from_text(
        9,
        "
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .",
    )
    .unwrap();
    // Shift the wall one line right: Black owns A–E (45), White F–J (36).
    let mut shifted = Board::new(9).unwrap();
    for p in board.points() {
        if let Some(c) = board.get(p) {
            shifted.set(Point::new(p.col + 1, p.row), Some(c));
        }
    }
    let pos = GoPosition::new(shifted, Color::White)
        .play("pass")
        .unwrap()
        .0;
    let strong = go_playouts(if RELEASE { 3_000 } else { 200 });
    assert_eq!(strong(&pos, 3), Some(Move::Pass));
}

#[test]
fn go_dead_stones_agree_with_gnu_go() {
    // Finished games: the corpus' 9×9 scoring games, a few of its 19×19 ones (GNU Go's own
    // regression set), and 9×9 games GNU Go plays against itself.
    let corpus = common::corpus("go/scoring/games/scoring");
    let dir = corpus.join("go/scoring/games/scoring");
    let mut boards: Vec<(String, u8, GoPosition, Vec<Point>)> = Vec::new();
    let mut gtp = Gtp::start(3);
    let files: &[&str] = if RELEASE {
        &[
            "score44.sgf",
            "score46.sgf",
            "score2.sgf",
            "score3.sgf",
            "score4.sgf",
            "score5.sgf",
            "score6.sgf",
        ]
    } else {
        &["score44.sgf", "score46.sgf", "score3.sgf"]
    };
    for name in files {
        let to_play = gtp.ok(&format!("loadsgf {}", dir.join(name).display()));
        let size: u8 = gtp.ok("query_boardsize").parse().unwrap();
        let turn = if to_play.eq_ignore_ascii_case("white") {
            Color::White
        } else {
            Color::Black
        };
        let pos = gtp.position(size, turn);
        let dead = Gtp::points(&gtp.ok("final_status_list dead"), size);
        boards.push((name.to_string(), size, pos, dead));
    }
    let self_play = if RELEASE { 6 } else { 2 };
    for seed in 0..self_play {
        let mut gnugo = Gtp::start(10 + seed);
        gnugo.ok("boardsize 9");
        gnugo.ok("clear_board");
        gnugo.ok("komi 7.5");
        let mut passes = 0;
        let mut color = "black";
        let mut plies = 0;
        while passes < 2 && plies < 150 {
            let mv = gnugo.ok(&format!("genmove {color}"));
            passes = if mv.eq_ignore_ascii_case("pass") {
                passes + 1
            } else {
                0
            };
            color = if color == "black" { "white" } else { "black" };
            plies += 1;
        }
        let turn = if color == "black" {
            Color::Black
        } else {
            Color::White
        };
        let pos = gnugo.position(9, turn);
        let dead = Gtp::points(&gnugo.ok("final_status_list dead"), 9);
        boards.push((
            format!("GNU Go self-play, seed {}", 10 + seed),
            9,
            pos,
            dead,
        ));
    }
    // 9×9 boards must agree in most cases; the 19×19 ones (real games between weak players,
    // with large dead groups that random playouts often let live) are listed and counted
    // stone by stone only.
    let (mut agree9, mut boards9) = (0, 0);
    let mut stones = 0;
    let mut stones_agree = 0;
    let mut disagreements = Vec::new();
    for (name, size, pos, gnugo_dead) in &boards {
        let ours = go_ai::dead_stones(pos, 1);
        let all: Vec<Point> = pos
            .board()
            .points()
            .filter(|&p| pos.board().get(p).is_some())
            .collect();
        stones += all.len();
        stones_agree += all
            .iter()
            .filter(|p| ours.contains(p) == gnugo_dead.contains(p))
            .count();
        if *size == 9 {
            boards9 += 1;
            agree9 += (&ours == gnugo_dead) as usize;
        }
        if &ours != gnugo_dead {
            let names = |v: &[Point]| {
                v.iter()
                    .map(|p| p.name(*size))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let only_ours: Vec<Point> = ours
                .iter()
                .copied()
                .filter(|p| !gnugo_dead.contains(p))
                .collect();
            let only_gnugo: Vec<Point> = gnugo_dead
                .iter()
                .copied()
                .filter(|p| !ours.contains(p))
                .collect();
            disagreements.push(format!(
                "{name} ({size}×{size}): dead for us only [{}], for GNU Go only [{}]",
                names(&only_ours),
                names(&only_gnugo)
            ));
        }
    }
    for d in &disagreements {
        eprintln!("dead stones differ: {d}");
    }
    eprintln!(
        "dead stones: {agree9} of {boards9} 9×9 boards the same; {stones_agree} of {stones} \
         stones on all {} boards judged alike",
        boards.len()
    );
    assert!(agree9 * 3 >= boards9 * 2, "{disagreements:#?}");
    assert!(stones_agree * 100 >= stones * 95, "{disagreements:#?}");
}

// ---------------------------------------------------------------------------------------
// Chess
// ---------------------------------------------------------------------------------------

type ChessPlayer<'a> = &'a dyn Fn(&chess::Position, u64) -> Option<chess::Played>;

/// Plays a chess game until it ends or `max_plies`; every move is played by our engine.
fn play_chess(
    white: ChessPlayer,
    black: ChessPlayer,
    seed: u64,
    max_plies: usize,
) -> (Vec<String>, chess::Position) {
    let mut pos = chess::Position::start();
    let mut moves = Vec::new();
    while moves.len() < max_plies && pos.outcome().is_none() {
        let player = if moves.len() % 2 == 0 { white } else { black };
        let played = player(&pos, seed.wrapping_add(moves.len() as u64))
            .expect("a move while the game goes on");
        pos = pos
            .play(&played.uci)
            .unwrap_or_else(|e| panic!("{} is illegal: {e}", played.uci))
            .0;
        moves.push(played.uci);
    }
    (moves, pos)
}

/// python-chess's verdict on a game from the start: `ok`, or the first illegal move.
fn python_chess_checks(moves: &[String]) {
    let script = "import sys, chess\n\
        b = chess.Board()\n\
        for i, m in enumerate(sys.stdin.read().split()):\n\
        \x20   mv = chess.Move.from_uci(m)\n\
        \x20   if mv not in b.legal_moves:\n\
        \x20       print('illegal', i + 1, m); sys.exit(0)\n\
        \x20   b.push(mv)\n\
        print('ok')\n";
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(moves.join(" ").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.trim(),
        "ok",
        "python-chess (pip install chess) on {}",
        moves.join(" ")
    );
}

fn chess_level(n: u8) -> impl Fn(&chess::Position, u64) -> Option<chess::Played> {
    move |pos, seed| pos.think(level(n), seed)
}

/// A cut-down search for the debug build.
fn chess_depth(depth: u8, nodes: u64) -> impl Fn(&chess::Position, u64) -> Option<chess::Played> {
    move |pos, seed| {
        let strength = SearchStrength {
            depth,
            quiescence: true,
            noise: 0,
            nodes,
        };
        chess_ai::think_with(pos, strength, seed, far_future())
    }
}

/// White's material minus Black's, in pawns (1, 3, 3, 5, 9).
fn chess_material(pos: &chess::Position) -> i32 {
    use shakmaty::{Color as C, Role};
    pos.pieces()
        .into_iter()
        .map(|(_, color, role)| {
            let v = match role {
                Role::Pawn => 1,
                Role::Knight | Role::Bishop => 3,
                Role::Rook => 5,
                Role::Queen => 9,
                Role::King => 0,
            };
            if color == C::White {
                v
            } else {
                -v
            }
        })
        .sum()
}

#[test]
fn chess_self_play_is_legal_for_python_chess() {
    let one = chess_level(1);
    let two = chess_level(2);
    let plies = if RELEASE { 300 } else { 80 };
    let games: Vec<(ChessPlayer, ChessPlayer)> = if RELEASE {
        vec![(&one, &one), (&two, &one), (&one, &two), (&two, &two)]
    } else {
        vec![(&one, &one), (&one, &one)]
    };
    for (i, (white, black)) in games.into_iter().enumerate() {
        let (moves, _) = play_chess(white, black, 10 + i as u64, plies);
        python_chess_checks(&moves);
    }
}

#[test]
fn chess_stronger_level_beats_level_one() {
    let one = chess_level(1);
    let five = chess_level(5);
    let debug = chess_depth(2, 3_000);
    let strong: ChessPlayer = if RELEASE { &five } else { &debug };
    let games = if RELEASE { 4 } else { 2 };
    let plies = if RELEASE { 200 } else { 70 };
    let mut wins = 0;
    let mut results = Vec::new();
    for g in 0..games {
        let strong_white = g % 2 == 0;
        let (white, black): (ChessPlayer, ChessPlayer) = if strong_white {
            (strong, &one)
        } else {
            (&one, strong)
        };
        let (_, end) = play_chess(white, black, 70 + g as u64, plies);
        let sign = if strong_white { 1 } else { -1 };
        // A win: mate, or (game cut short) five pawns of material ahead.
        let won = match end.outcome() {
            Some(o) => o
                .winner()
                .is_some_and(|w| (w == shakmaty::Color::White) == strong_white),
            None => sign * chess_material(&end) >= 5,
        };
        wins += won as usize;
        results.push((end.outcome().map(|o| o.score()), chess_material(&end)));
    }
    assert!(
        wins * 4 >= games * 3,
        "the strong side won {wins} of {games}: {results:?}"
    );
}

/// The corpus' Lichess puzzles, each a mate in one for the solver: the mate-in-one
/// puzzles after the opponent's first move, and the mate-in-two puzzles after the first
/// three moves (opponent, solver, opponent), so that the solver's last move mates (any mate
/// counts). `(id, position, the puzzle's mating move)`.
fn lichess_mates_in_one() -> Vec<(String, chess::Position, String)> {
    let dir = common::corpus("chess/lichess-1000.csv");
    let text = std::fs::read_to_string(dir.join("chess/lichess-1000.csv")).unwrap();
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let themes = fields[7];
        let moves: Vec<&str> = fields[2].split_whitespace().collect();
        let before = if themes.contains("mateIn1") {
            1
        } else if themes.contains("mateIn2") {
            3
        } else {
            continue;
        };
        let mut pos = chess::Position::from_fen(fields[1]).unwrap();
        for mv in &moves[..before] {
            pos = pos.play(mv).unwrap().0;
        }
        out.push((fields[0].to_string(), pos, moves[before].to_string()));
    }
    out
}

#[test]
fn chess_finds_the_corpus_mates_in_one_from_level_two() {
    let puzzles = lichess_mates_in_one();
    assert!(puzzles.len() >= 100, "{} mates in one", puzzles.len());
    let take = if RELEASE { puzzles.len() } else { 12 };
    for (id, pos, answer) in puzzles.iter().take(take) {
        for n in [2, 5] {
            let played = pos.think(level(n), 1).unwrap();
            let after = pos.play(&played.uci).unwrap().0;
            assert!(
                matches!(after.outcome(), Some(chess::Outcome::Checkmate { .. })),
                "puzzle {id}: level {n} played {} (the puzzle mates with {answer})",
                played.uci
            );
        }
    }
}

#[test]
fn chess_wins_a_hanging_queen_from_level_two() {
    // Each: the square a hanging queen stands on, and who takes it.
    let cases = [
        // Black's queen on d4 hangs to the e3 pawn.
        (
            "rnb1kbnr/ppp1pppp/8/8/3q4/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
            "d4",
        ),
        // White's queen on h5 hangs to the knight on f6.
        (
            "rnbqkb1r/pppp1ppp/5n2/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2 3",
            "h5",
        ),
        // Black's queen on b2 hangs to the bishop on c1.
        (
            "rnb1kbnr/pppp1ppp/8/4p3/8/8/PqPPPPPP/RNBQKBNR w KQkq - 0 3",
            "b2",
        ),
    ];
    for (fen, square) in cases {
        let pos = chess::Position::from_fen(fen).unwrap();
        for n in 2..=if RELEASE { 5 } else { 3 } {
            let played = pos.think(level(n), 4).unwrap();
            assert_eq!(
                &played.uci[2..4],
                square,
                "level {n} in {fen}: {}",
                played.uci
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Shogi
// ---------------------------------------------------------------------------------------

type ShogiPlayer<'a> = &'a dyn Fn(&shogi::Position, u64) -> Option<shogi::Played>;

/// Plays a shogi game until it ends or `max_plies`; every move must be one of
/// `legal_moves()` and is played by our engine.
fn play_shogi(
    sente: ShogiPlayer,
    gote: ShogiPlayer,
    seed: u64,
    max_plies: usize,
) -> (usize, shogi::Position) {
    let mut pos = shogi::Position::start();
    let mut plies = 0;
    while plies < max_plies && pos.outcome().is_none() {
        let player = if plies % 2 == 0 { sente } else { gote };
        let played =
            player(&pos, seed.wrapping_add(plies as u64)).expect("a move while the game goes on");
        assert!(
            pos.legal_moves().iter().any(|m| m.usi == played.usi),
            "{} is not among the legal moves of {}",
            played.usi,
            pos.sfen()
        );
        pos = pos
            .play(&played.usi)
            .unwrap_or_else(|e| panic!("{} is illegal: {e}", played.usi))
            .0;
        plies += 1;
    }
    (plies, pos)
}

fn shogi_level(n: u8) -> impl Fn(&shogi::Position, u64) -> Option<shogi::Played> {
    move |pos, seed| pos.think(level(n), seed)
}

fn shogi_depth(depth: u8, nodes: u64) -> impl Fn(&shogi::Position, u64) -> Option<shogi::Played> {
    move |pos, seed| {
        let strength = SearchStrength {
            depth,
            quiescence: true,
            noise: 0,
            nodes,
        };
        shogi_ai::think_with(pos, strength, seed, far_future())
    }
}

/// Sente's material minus Gote's, on the board and in hand, in pawns (promoted pieces as
/// gold, dragon and horse as rook and bishop plus two).
fn shogi_material(pos: &shogi::Position) -> i32 {
    use shogi::Kind::*;
    let worth = |k: shogi::Kind| match k {
        Pawn => 1,
        Lance => 3,
        Knight => 4,
        Silver => 5,
        Gold | ProPawn | ProLance | ProKnight | ProSilver => 6,
        Bishop => 8,
        Rook => 10,
        Horse => 10,
        Dragon => 12,
        King => 0,
    };
    let sign = |c: shogi::Color| if c == shogi::Color::Black { 1 } else { -1 };
    let board: i32 = pos
        .pieces()
        .into_iter()
        .map(|(_, c, k)| sign(c) * worth(k))
        .sum();
    let hands: i32 = [shogi::Color::Black, shogi::Color::White]
        .into_iter()
        .flat_map(|c| {
            pos.hand(c)
                .into_iter()
                .map(move |(k, n)| sign(c) * worth(k) * n as i32)
        })
        .sum();
    board + hands
}

#[test]
fn shogi_self_play_plays_only_legal_moves() {
    let one = shogi_level(1);
    let two = shogi_level(2);
    let plies = if RELEASE { 300 } else { 60 };
    let games: Vec<(ShogiPlayer, ShogiPlayer)> = if RELEASE {
        vec![(&one, &one), (&two, &one), (&one, &two), (&two, &two)]
    } else {
        vec![(&one, &one), (&one, &one)]
    };
    for (i, (sente, gote)) in games.into_iter().enumerate() {
        play_shogi(sente, gote, 20 + i as u64, plies);
    }
}

#[test]
fn shogi_stronger_level_beats_level_one() {
    let one = shogi_level(1);
    let five = shogi_level(5);
    let debug = shogi_depth(1, 2_000);
    let strong: ShogiPlayer = if RELEASE { &five } else { &debug };
    let games = if RELEASE { 4 } else { 2 };
    let plies = if RELEASE { 200 } else { 70 };
    let mut wins = 0;
    let mut results = Vec::new();
    for g in 0..games {
        let strong_sente = g % 2 == 0;
        let (sente, gote): (ShogiPlayer, ShogiPlayer) = if strong_sente {
            (strong, &one)
        } else {
            (&one, strong)
        };
        let (_, end) = play_shogi(sente, gote, 90 + g as u64, plies);
        let sign = if strong_sente { 1 } else { -1 };
        // A win: mate, or (game cut short) ten pawns of material ahead.
        let won = match end.outcome() {
            Some(shogi::Outcome::Checkmate { winner }) => {
                (winner == shogi::Color::Black) == strong_sente
            }
            _ => sign * shogi_material(&end) >= 10,
        };
        wins += won as usize;
        results.push((end.outcome(), shogi_material(&end)));
    }
    assert!(
        wins * 4 >= games * 3,
        "the strong side won {wins} of {games}: {results:?}"
    );
}

#[test]
fn shogi_takes_a_free_rook_from_level_two() {
    let cases = [
        // Gote's rook on 5e hangs to Sente's bishop on 7g... on the diagonal 7g-6f-5e.
        ("4k4/9/9/9/4r4/9/2B6/9/3K5 b - 1", "5e"),
        // Sente's rook on 2d hangs to Gote's silver on 3c.
        ("4k4/9/6s2/7R1/9/9/9/9/4K4 w - 1", "2d"),
    ];
    for (sfen, square) in cases {
        let pos = shogi::Position::from_sfen(sfen).unwrap();
        for n in 2..=if RELEASE { 5 } else { 3 } {
            let played = pos.think(level(n), 5).unwrap();
            assert_eq!(
                played.to.usi(),
                square,
                "level {n} in {sfen}: {}",
                played.usi
            );
        }
    }
}

#[test]
fn shogi_mates_in_one_from_level_two_on_corpus_tsume() {
    let dir = common::corpus("shogi/tanuki-tsume.jsonl");
    let text = std::fs::read_to_string(dir.join("shogi/tanuki-tsume.jsonl")).unwrap();
    let mut checked = 0;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["mate_length"] != 1 {
            continue;
        }
        let pos = shogi::Position::from_sfen(v["sfen"].as_str().unwrap()).unwrap();
        let played = pos.think(level(2), 1).unwrap();
        let after = pos.play(&played.usi).unwrap().0;
        assert!(
            matches!(after.outcome(), Some(shogi::Outcome::Checkmate { .. })),
            "{}: level 2 played {} (the answer is {})",
            v["id"],
            played.usi,
            v["solution_usi"]
        );
        checked += 1;
        if checked == if RELEASE { 40 } else { 8 } {
            break;
        }
    }
    assert!(checked >= 5, "{checked} mates in one in the corpus");
}

#[test]
fn every_game_gives_no_move_only_when_none_is_legal() {
    let go_over = GoPosition::empty(9)
        .unwrap()
        .play("pass")
        .unwrap()
        .0
        .play("pass")
        .unwrap()
        .0;
    assert!(go_over.think(level(1), 0).is_none());
    let mated = chess::Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert!(mated.think(level(2), 0).is_none() && mated.legal_moves().is_empty());
    let stalemate = chess::Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert!(stalemate.think(level(2), 0).is_none());
    let tsumi = shogi::Position::from_sfen("8k/8G/8P/9/9/9/9/9/4K4 w - 1").unwrap();
    assert!(tsumi.think(level(2), 0).is_none());
    let start = shogi::Position::start();
    assert!(start.think(level(1), 0).is_some());
}
