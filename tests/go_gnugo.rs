//! Differential test of the Go rules engine (`qiyuan::rules::go`) against GNU Go, spoken to
//! over GTP (the Go Text Protocol).
//!
//! Random legal games are played in our engine and, move for move, in GNU Go; after every
//! move the boards must hold the same stones, and the two must agree on which points are
//! forbidden (occupied, suicide, ko, positional superko). The make/undo search board
//! (`SearchBoard`) plays the same games and is held to the same answers for the side to play.
//!
//! GNU Go runs with `--positional-superko`, the repetition rule of the Chinese rules
//! (全局同形再现). Its superko check only sees the moves it still remembers, and it
//! remembers 500 (`MAX_MOVE_HISTORY`; older moves are folded into its starting position),
//! so our superko refusals are compared only while a game is shorter than that; later
//! ones are left out and counted.
//!
//! GNU Go must be installed: `apt-get install gnugo` (Debian puts it in `/usr/games/gnugo`),
//! or point the `GNUGO` environment variable at the binary.

use qiyuan::rules::go::{column_letter, Board, Color, Illegal, Move, Point, Position, SearchBoard};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

// ---------------------------------------------------------------------------------------
// A tiny GTP client
// ---------------------------------------------------------------------------------------

const INSTALL_HINT: &str = "this test needs GNU Go: run `apt-get install gnugo` \
     (or set GNUGO=/path/to/gnugo)";

/// The GNU Go binary: `$GNUGO`, else `/usr/games/gnugo`, else `gnugo` on the `PATH`.
fn gnugo_path() -> PathBuf {
    if let Some(p) = std::env::var_os("GNUGO") {
        let p = PathBuf::from(p);
        assert!(
            p.is_file(),
            "GNUGO={} is not a file: {INSTALL_HINT}",
            p.display()
        );
        return p;
    }
    let debian = PathBuf::from("/usr/games/gnugo");
    if debian.is_file() {
        return debian;
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join("gnugo");
            if p.is_file() {
                return p;
            }
        }
    }
    panic!(
        "GNU Go not found ($GNUGO unset, no /usr/games/gnugo, no gnugo on PATH): {INSTALL_HINT}"
    );
}

/// One GNU Go process in GTP mode.
struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gtp {
    fn start() -> Gtp {
        let path = gnugo_path();
        let mut child = Command::new(&path)
            .args([
                "--mode",
                "gtp",
                "--level",
                "0",
                "--chinese-rules",
                "--positional-superko",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("could not start {}: {e}; {INSTALL_HINT}", path.display()));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut gtp = Gtp {
            child,
            stdin,
            stdout,
        };
        let version = gtp.ok("version");
        assert!(!version.is_empty(), "GNU Go gave no version");
        gtp
    }

    /// Sends one command and reads its answer: `Ok(text)` for a success (`=`), `Err(text)`
    /// for a failure (`?`).
    fn ask(&mut self, command: &str) -> Result<String, String> {
        self.ask_all(&[command.to_string()]).remove(0)
    }

    /// Sends several commands at once, then reads their answers in order. GTP answers one
    /// command after the other, so they can be pipelined: one round trip instead of many.
    fn ask_all(&mut self, commands: &[String]) -> Vec<Result<String, String>> {
        let mut text = String::new();
        for command in commands {
            text.push_str(command);
            text.push('\n');
        }
        self.stdin
            .write_all(text.as_bytes())
            .and_then(|_| self.stdin.flush())
            .unwrap_or_else(|e| panic!("GNU Go stopped reading commands ({commands:?}): {e}"));
        commands.iter().map(|c| self.answer(c)).collect()
    }

    /// Reads one answer, up to the blank line that ends it.
    fn answer(&mut self, command: &str) -> Result<String, String> {
        let mut lines: Vec<String> = Vec::new();
        loop {
            let mut line = String::new();
            let n = self
                .stdout
                .read_line(&mut line)
                .unwrap_or_else(|e| panic!("reading GNU Go's answer to `{command}`: {e}"));
            if n == 0 {
                panic!("GNU Go closed its output while answering `{command}`");
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if lines.is_empty() {
                    continue;
                }
                break;
            }
            lines.push(line.to_string());
        }
        let text = lines.join("\n");
        if let Some(rest) = text.strip_prefix('=') {
            Ok(rest.trim().to_string())
        } else if let Some(rest) = text.strip_prefix('?') {
            Err(rest.trim().to_string())
        } else {
            panic!("GNU Go answered `{command}` with `{text}`, which is not GTP");
        }
    }

    /// Sends a command that must succeed.
    fn ok(&mut self, command: &str) -> String {
        self.ask(command)
            .unwrap_or_else(|e| panic!("GNU Go refused `{command}`: {e}"))
    }

    /// `is_legal color point`: GNU Go's verdict.
    fn is_legal(&mut self, color: Color, p: Point, size: u8) -> bool {
        let command = is_legal_command(color, p, size);
        let answer = self.ok(&command);
        read_bool(&command, &answer)
    }

    /// The points holding `color` stones, from `list_stones`.
    fn stones(&mut self, color: Color, size: u8) -> Vec<Point> {
        let command = format!("list_stones {}", color.as_str());
        let answer = self.ok(&command);
        read_stones(&command, &answer, size)
    }

    /// `captures color`: how many stones `color` has taken.
    fn captures(&mut self, color: Color) -> u32 {
        let command = format!("captures {}", color.as_str());
        let answer = self.ok(&command);
        read_count(&command, &answer)
    }

    /// GNU Go's board as one of ours.
    fn board(&mut self, size: u8) -> Board {
        let black = self.stones(Color::Black, size);
        let white = self.stones(Color::White, size);
        board_from_lists(size, &black, &white)
    }
}

/// A board from `list_stones` answers (in whatever order GNU Go lists the stones).
fn board_from_lists(size: u8, black: &[Point], white: &[Point]) -> Board {
    let mut board = Board::new(size).expect("board size");
    for (color, points) in [(Color::Black, black), (Color::White, white)] {
        for &p in points {
            assert!(
                board.get(p).is_none(),
                "GNU Go lists {} twice",
                p.name(size)
            );
            board.set(p, Some(color));
        }
    }
    board
}

fn is_legal_command(color: Color, p: Point, size: u8) -> String {
    format!("is_legal {} {}", color.as_str(), p.name(size))
}

/// An `is_legal` answer: `1` or `0`.
fn read_bool(command: &str, answer: &str) -> bool {
    match answer {
        "1" => true,
        "0" => false,
        other => panic!("GNU Go answered `{command}` with `{other}`"),
    }
}

/// A `list_stones` answer: GTP vertices such as `D4`, in any order.
fn read_stones(command: &str, answer: &str, size: u8) -> Vec<Point> {
    answer
        .split_whitespace()
        .map(|v| vertex(v, size).unwrap_or_else(|| panic!("GNU Go listed `{v}` for `{command}`")))
        .collect()
}

/// Reads a GTP vertex (column letters A–T without I, row 1 at the bottom) on its own,
/// not with the engine under test.
fn vertex(v: &str, size: u8) -> Option<Point> {
    let letter = v.as_bytes().first()?.to_ascii_uppercase();
    if !letter.is_ascii_uppercase() || letter == b'I' {
        return None;
    }
    let col = letter - b'A' - u8::from(letter > b'I');
    let number: u8 = v.get(1..)?.parse().ok()?;
    (col < size && (1..=size).contains(&number)).then(|| Point::new(col, size - number))
}

/// The `i`th of pipelined answers, which must be a success.
fn success<'a>(answers: &'a [Result<String, String>], commands: &[String], i: usize) -> &'a str {
    answers[i]
        .as_deref()
        .unwrap_or_else(|e| panic!("GNU Go refused `{}`: {e}", commands[i]))
}

/// A `captures` answer.
fn read_count(command: &str, answer: &str) -> u32 {
    answer
        .parse()
        .unwrap_or_else(|_| panic!("GNU Go answered `{command}` with `{answer}`"))
}

impl Drop for Gtp {
    fn drop(&mut self) {
        if writeln!(self.stdin, "quit")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// splitmix64: a small deterministic generator, seeded per game.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// The first item satisfying `wanted` in a random order of `items` (a Fisher–Yates
    /// shuffle done only as far as needed): uniform among the wanted items.
    fn first<T: Copy>(&mut self, items: &mut [T], mut wanted: impl FnMut(T) -> bool) -> Option<T> {
        for i in 0..items.len() {
            let j = i + self.below(items.len() - i);
            items.swap(i, j);
            if wanted(items[i]) {
                return Some(items[i]);
            }
        }
        None
    }
}

/// The board with coordinates, `X` black, `O` white.
fn diagram(board: &Board) -> String {
    let size = board.size();
    let letters: String = (0..size)
        .map(|c| format!(" {}", column_letter(c)))
        .collect();
    let mut out = format!("   {letters}\n");
    for row in 0..size {
        out.push_str(&format!("{:>2} ", size - row));
        for col in 0..size {
            out.push(' ');
            out.push(match board.get(Point::new(col, row)) {
                None => '.',
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
            });
        }
        out.push('\n');
    }
    out
}

/// Where two boards differ, in GTP names.
fn differences(ours: &Board, theirs: &Board) -> String {
    let show = |s: Option<Color>| match s {
        None => "empty",
        Some(Color::Black) => "black",
        Some(Color::White) => "white",
    };
    ours.points()
        .filter(|&p| ours.get(p) != theirs.get(p))
        .map(|p| {
            format!(
                "{} (ours {}, GNU Go {})",
                p.name(ours.size()),
                show(ours.get(p)),
                show(theirs.get(p))
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A single-point eye of `color`: every neighbour is a `color` stone. Random games skip
/// filling these (a playout heuristic only) so they last and capture more.
fn is_own_eye(board: &Board, p: Point, color: Color) -> bool {
    board.neighbours(p).all(|q| board.get(q) == Some(color))
}

fn letter(color: Color) -> char {
    match color {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

// ---------------------------------------------------------------------------------------
// Random games
// ---------------------------------------------------------------------------------------

#[derive(Default)]
struct Stats {
    games: usize,
    moves: usize,
    passes: usize,
    boards_compared: usize,
    captures_compared: usize,
    stones_captured: usize,
    /// `is_legal` checks by our verdict.
    legal_agreed: usize,
    occupied_agreed: usize,
    suicide_agreed: usize,
    ko_agreed: usize,
    superko_agreed: usize,
    /// Our superko refusals after GNU Go's history was cut short: not compared.
    superko_excluded: usize,
    /// ... of which GNU Go calls legal.
    superko_excluded_gnugo_legal: usize,
}

/// How many moves GNU Go remembers for its superko check (`MAX_MOVE_HISTORY` in its
/// `board.h`); after that it forgets the oldest positions.
const GNUGO_HISTORY: usize = 500;

/// One game being played in both engines.
struct Game<'a> {
    gtp: &'a mut Gtp,
    stats: &'a mut Stats,
    number: usize,
    seed: u64,
    size: u8,
    pos: Position,
    /// The make/undo search board, playing the same moves: its board and its legality for
    /// the side to play must match GNU Go's too.
    fast: SearchBoard,
    record: Vec<String>,
}

/// One `is_legal` question for GNU Go, with our engine's verdict.
struct Check {
    color: Color,
    point: Point,
    ours: Result<(), Illegal>,
}

/// How many crowded points (empty, no empty neighbour) to ask about per move, for each side.
const CROWDED_PER_MOVE: usize = 2;

impl Game<'_> {
    /// A readable failure: the game, its seed, the moves so far and both boards.
    fn mismatch(&mut self, why: String) -> String {
        let theirs = self.gtp.board(self.size);
        let ours = self.pos.board().clone();
        let diff = differences(&ours, &theirs);
        format!(
            "disagreement with GNU Go in game {} ({}×{}, seed {:#018x}) after {} moves, {} to play:\n\
             {why}\n\
             moves: {}\n\
             our board:\n{}GNU Go's board:\n{}{}",
            self.number,
            self.size,
            self.size,
            self.seed,
            self.record.len(),
            self.pos.turn().as_str(),
            if self.record.is_empty() {
                "(none)".to_string()
            } else {
                self.record.join("; ")
            },
            diagram(&ours),
            diagram(&theirs),
            if diff.is_empty() {
                String::new()
            } else {
                format!("boards differ at: {diff}\n")
            }
        )
    }

    /// A move chosen uniformly among our engine's legal moves, leaving the mover's own
    /// single-point eyes alone (the first legal point of a random order); a pass if none.
    fn choose(&self, rng: &mut SplitMix64) -> (Move, Position) {
        let board = self.pos.board();
        let color = self.pos.turn();
        let mut empty: Vec<Point> = board.points().filter(|&p| board.get(p).is_none()).collect();
        let mut next = None;
        rng.first(&mut empty, |p| {
            if is_own_eye(board, p, color) {
                return false;
            }
            next = self
                .pos
                .play_move(Move::Play(p))
                .ok()
                .map(|n| (Move::Play(p), n));
            next.is_some()
        });
        next.unwrap_or_else(|| (Move::Pass, self.pos.play_move(Move::Pass).expect("pass")))
    }

    /// What to ask GNU Go before move `n`, which will be `chosen`:
    /// - the ko point, and the points the last move emptied by capturing (both sides);
    /// - a few random crowded points (empty, no empty neighbour: the only places a
    ///   suicide or a ko can be), both sides;
    /// - every 7th move, a random point our engine refuses (any reason, mostly occupied);
    /// - every 7th move (another phase), the chosen move itself, which must be legal.
    fn checks(&self, n: usize, rng: &mut SplitMix64, chosen: Move) -> Vec<Check> {
        let board = self.pos.board();
        let mover = self.pos.turn();
        let mut asks: Vec<(Color, Point)> = Vec::new();
        if let Some(k) = self.pos.ko_point() {
            asks.push((mover, k));
        }
        for &p in self.pos.captured().iter().take(4) {
            asks.push((mover, p));
            asks.push((mover.opponent(), p));
        }
        let mut crowded: Vec<Point> = board
            .points()
            .filter(|&p| {
                board.get(p).is_none() && board.neighbours(p).all(|q| board.get(q).is_some())
            })
            .collect();
        let mut taken = 0;
        rng.first(&mut crowded, |p| {
            asks.push((mover, p));
            asks.push((mover.opponent(), p));
            taken += 1;
            taken == CROWDED_PER_MOVE
        });
        if n.is_multiple_of(7) {
            let mut points: Vec<Point> = board.points().collect();
            if let Some(p) = rng.first(&mut points, |p| self.pos.play_move(Move::Play(p)).is_err())
            {
                asks.push((mover, p));
            }
        }
        if let (3, Move::Play(p)) = (n % 7, chosen) {
            asks.push((mover, p));
        }
        // The side not to play is judged on the same board after a pass (no ko for it).
        let other = self.pos.play_move(Move::Pass).expect("a pass is legal");
        let mut checks: Vec<Check> = Vec::new();
        for (color, point) in asks {
            if checks.iter().any(|c| c.color == color && c.point == point) {
                continue;
            }
            let view = if color == mover { &self.pos } else { &other };
            let ours = view.play_move(Move::Play(point)).map(|_| ());
            checks.push(Check { color, point, ours });
        }
        checks
    }

    /// Compares one verdict; `Err` describes a disagreement.
    fn judge(&mut self, check: &Check, theirs: bool) -> Result<(), String> {
        let s = &mut *self.stats;
        match (&check.ours, theirs) {
            (Err(Illegal::Superko { .. }), _) if self.record.len() >= GNUGO_HISTORY => {
                // GNU Go no longer knows the whole game: not comparable.
                s.superko_excluded += 1;
                s.superko_excluded_gnugo_legal += usize::from(theirs);
            }
            (Err(Illegal::Superko { .. }), false) => s.superko_agreed += 1,
            (Ok(()), true) => s.legal_agreed += 1,
            (Err(Illegal::Occupied { .. }), false) => s.occupied_agreed += 1,
            (Err(Illegal::Suicide { .. }), false) => s.suicide_agreed += 1,
            (Err(Illegal::Ko { .. }), false) => s.ko_agreed += 1,
            (ours, _) => {
                return Err(format!(
                    "{} {}: our engine says {}, GNU Go's `is_legal` says {}",
                    check.color.as_str(),
                    check.point.name(self.size),
                    match ours {
                        Ok(()) => "legal".to_string(),
                        Err(e) => format!("illegal ({e})"),
                    },
                    if theirs { "legal (1)" } else { "illegal (0)" }
                ))
            }
        }
        Ok(())
    }

    /// Compares our board with GNU Go's (from `list_stones`).
    fn compare_boards(&mut self, theirs: &Board) -> Result<(), String> {
        if theirs != self.pos.board() {
            return Err(self.mismatch("the boards differ".to_string()));
        }
        self.stats.boards_compared += 1;
        Ok(())
    }

    fn play(&mut self, rng: &mut SplitMix64) -> Result<(), String> {
        let size = self.size;
        self.gtp.ok(&format!("boardsize {size}"));
        self.gtp.ok("clear_board");
        let theirs = self.gtp.board(size);
        self.compare_boards(&theirs)?;
        let limit = 2 * size as usize * size as usize;
        while self.record.len() < limit && self.pos.consecutive_passes() < 2 {
            let n = self.record.len() + 1;
            let color = self.pos.turn();
            let (mv, next) = self.choose(rng);
            let checks = self.checks(n, rng, mv);
            // One round trip: the questions about the board before the move, the move,
            // then the board and the capture counts after it.
            let play = format!("play {} {}", color.as_str(), mv.name(size));
            let mut commands: Vec<String> = checks
                .iter()
                .map(|c| is_legal_command(c.color, c.point, size))
                .collect();
            commands.push(play.clone());
            for tail in [
                "list_stones black",
                "list_stones white",
                "captures black",
                "captures white",
            ] {
                commands.push(tail.to_string());
            }
            let answers = self.gtp.ask_all(&commands);
            let k = checks.len();
            let verdicts: Vec<bool> = (0..k)
                .map(|i| read_bool(&commands[i], success(&answers, &commands, i)))
                .collect();
            let played = answers[k].clone();
            let black = read_stones(&commands[k + 1], success(&answers, &commands, k + 1), size);
            let white = read_stones(&commands[k + 2], success(&answers, &commands, k + 2), size);
            let captures_black = read_count(&commands[k + 3], success(&answers, &commands, k + 3));
            let captures_white = read_count(&commands[k + 4], success(&answers, &commands, k + 4));

            for (check, theirs) in checks.iter().zip(verdicts) {
                // The search board must give our engine's answer (held to GNU Go's below).
                let fast = self.fast.check(Move::Play(check.point));
                if check.color == color && fast != check.ours {
                    let why = format!(
                        "{} {}: the search board says {fast:?}, our engine {:?}, GNU Go {theirs}",
                        color.as_str(),
                        check.point.name(size),
                        check.ours
                    );
                    return Err(self.mismatch(why));
                }
                if let Err(why) = self.judge(check, theirs) {
                    if played.is_ok() {
                        // Show GNU Go's board as it was when asked.
                        self.gtp.ok("undo");
                    }
                    return Err(self.mismatch(why));
                }
            }
            if let Err(e) = played {
                let why = format!("GNU Go refused `{play}` ({e}); our engine accepts it");
                return Err(self.mismatch(why));
            }
            self.record
                .push(format!("{n} {} {}", letter(color), mv.name(size)));
            self.pos = next;
            if let Err(e) = self.fast.play_move(mv) {
                return Err(
                    self.mismatch(format!("the search board refuses {}: {e}", mv.name(size)))
                );
            }
            self.stats.moves += 1;
            self.stats.passes += usize::from(mv == Move::Pass);
            self.stats.stones_captured += self.pos.captured().len();
            let theirs = board_from_lists(size, &black, &white);
            if self.fast.board() != theirs {
                return Err(self.mismatch("the search board differs".to_string()));
            }
            self.compare_boards(&theirs)?;
            for (c, theirs) in [
                (Color::Black, captures_black),
                (Color::White, captures_white),
            ] {
                let ours = self.pos.prisoners(c);
                if ours != theirs {
                    let why = format!(
                        "{} has captured {ours} stones in our engine, {theirs} in GNU Go",
                        c.as_str()
                    );
                    return Err(self.mismatch(why));
                }
            }
            self.stats.captures_compared += 1;
        }
        self.stats.games += 1;
        Ok(())
    }
}

#[test]
fn agrees_with_gnugo_on_random_games() {
    let started = Instant::now();
    let mut gtp = Gtp::start();
    let mut stats = Stats::default();
    let mut number = 0;
    let mut per_size = Vec::new();
    for (size, games) in [(9u8, 150usize), (19, 60), (13, 10), (5, 20)] {
        let moves_before = stats.moves;
        for g in 0..games {
            number += 1;
            let seed = 0x7169_7975_616E_0000 ^ ((size as u64) << 16) ^ g as u64;
            let mut rng = SplitMix64(seed);
            let mut game = Game {
                gtp: &mut gtp,
                stats: &mut stats,
                number,
                seed,
                size,
                pos: Position::empty(size).expect("board size"),
                fast: SearchBoard::new(&Board::new(size).expect("board size"), Color::Black),
                record: Vec::new(),
            };
            if let Err(report) = game.play(&mut rng) {
                panic!("{report}");
            }
        }
        per_size.push(format!(
            "{games} on {size}×{size} ({} moves)",
            stats.moves - moves_before
        ));
    }
    let s = &stats;
    eprintln!(
        "go_gnugo: {} games [{}], {} moves ({} passes), {} boards compared, \
         {} capture counts compared ({} stones captured), \
         is_legal agreed {} times (legal {}, occupied {}, suicide {}, ko {}, superko {}), \
         {} superko refusals after move {GNUGO_HISTORY} not compared \
         (GNU Go, its history cut short, calls {} of them legal), {:.1?}",
        s.games,
        per_size.join(", "),
        s.moves,
        s.passes,
        s.boards_compared,
        s.captures_compared,
        s.stones_captured,
        s.legal_agreed + s.occupied_agreed + s.suicide_agreed + s.ko_agreed + s.superko_agreed,
        s.legal_agreed,
        s.occupied_agreed,
        s.suicide_agreed,
        s.ko_agreed,
        s.superko_agreed,
        s.superko_excluded,
        s.superko_excluded_gnugo_legal,
        started.elapsed()
    );
    assert!(s.games >= 200);
    assert!(s.stones_captured > 0 && s.suicide_agreed > 0);
    assert!(s.ko_agreed > 0 && s.superko_agreed > 0);
}

// ---------------------------------------------------------------------------------------
// Figure 2 of the Chinese rules (第五条): forbidden points
// ---------------------------------------------------------------------------------------

/// The bottom six lines of a 19×19 board as drawn in figure 2 (○ White, ● Black, A the
/// forbidden points); the last line is the bottom edge, the first column column A.
const FIGURE_TWO: &str = "\
├┼┼┼┼┼┼┼┼○○○┼┼┼○┼┼┤
├┼○○○┼┼┼┼○●○┼┼○●○┼┤
├┼○A○┼┼┼○●A○┼┼○A○┼┤
├┼┼○○┼┼┼○○○○┼┼┼○┼┼┤
├┼┼┼┼┼┼┼┼┼┼┼┼┼┼┼┼┼┤
└┴┴┴┴┴┴┴┴┴┴┴┴┴┴┴┴┴┘";

/// The 19×19 board of figure 2 and its A points.
fn figure_two() -> (Board, Vec<Point>) {
    let lines: Vec<&str> = FIGURE_TWO.lines().collect();
    assert_eq!(lines.len(), 6);
    let mut text = String::new();
    for _ in 0..19 - lines.len() {
        text.push_str(&".".repeat(19));
        text.push('\n');
    }
    let mut a_points = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let row = (19 - lines.len() + i) as u8;
        let chars: Vec<char> = line.chars().collect();
        assert_eq!(chars.len(), 19, "figure line {}", i + 1);
        for (col, ch) in chars.into_iter().enumerate() {
            text.push(match ch {
                '○' => 'O',
                '●' => 'X',
                'A' => {
                    a_points.push(Point::new(col as u8, row));
                    '.'
                }
                _ => '.',
            });
        }
        text.push('\n');
    }
    (
        Board::from_text(19, &text).expect("figure 2 board"),
        a_points,
    )
}

#[test]
fn figure_two_points_are_forbidden_for_black() {
    let (board, a_points) = figure_two();
    let names: Vec<String> = a_points.iter().map(|p| p.name(19)).collect();
    assert_eq!(names, ["D4", "L4", "Q4"]);

    // Our engine: each A is a forbidden point for Black, and White may play there
    // (filling its eye at D4, capturing two stones at L4 and one at Q4).
    for (&a, captures) in a_points.iter().zip([0, 2, 1]) {
        let black = Position::new(board.clone(), Color::Black);
        assert_eq!(
            black.play_move(Move::Play(a)),
            Err(Illegal::Suicide { point: a, size: 19 }),
            "Black at {}",
            a.name(19)
        );
        let white = Position::new(board.clone(), Color::White);
        let after = white
            .play_move(Move::Play(a))
            .unwrap_or_else(|e| panic!("White at {} refused: {e}", a.name(19)));
        assert_eq!(after.captured().len(), captures, "White at {}", a.name(19));
    }

    // GNU Go, with the same stones set up by `play`.
    let mut gtp = Gtp::start();
    gtp.ok("boardsize 19");
    gtp.ok("clear_board");
    for color in [Color::Black, Color::White] {
        for p in board.stones(color) {
            gtp.ok(&format!("play {} {}", color.as_str(), p.name(19)));
        }
    }
    let theirs = gtp.board(19);
    assert_eq!(
        theirs,
        board,
        "GNU Go's board differs at {}:\n{}",
        differences(&board, &theirs),
        diagram(&theirs)
    );
    for &a in &a_points {
        assert!(
            !gtp.is_legal(Color::Black, a, 19),
            "GNU Go lets Black play the forbidden point {}",
            a.name(19)
        );
        assert!(
            gtp.is_legal(Color::White, a, 19),
            "GNU Go refuses White at {}",
            a.name(19)
        );
    }

    // White plays all three A points (Black passing in between): same boards after each.
    let mut pos = Position::new(board, Color::White);
    for (i, &a) in a_points.iter().enumerate() {
        if i > 0 {
            pos = pos.play_move(Move::Pass).expect("pass");
        }
        pos = pos.play_move(Move::Play(a)).expect("White at A");
        gtp.ok(&format!("play white {}", a.name(19)));
        let theirs = gtp.board(19);
        assert_eq!(
            &theirs,
            pos.board(),
            "after White {}, boards differ at {}",
            a.name(19),
            differences(pos.board(), &theirs)
        );
    }
    assert_eq!(gtp.captures(Color::White), pos.prisoners(Color::White));
    assert_eq!(pos.prisoners(Color::White), 3);
}
