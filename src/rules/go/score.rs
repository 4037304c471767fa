//! End of game and counting: two passes, resignation, area counting (数子法, the Chinese
//! rules) and territory counting (数目法, the Japanese and Korean rules), with komi, prisoners
//! and the handicap give-back.
//!
//! # The numbers of the Chinese rules, for any board
//!
//! 第九条: after the dead stones are taken off, each side counts its living stones and the
//! empty points they surround; an empty point between both sides' living stones (单官, dame)
//! gives half a stone to each. The reference is half the board: `N²/2` points of an `N`×`N`
//! board (180½ on 19×19). 第十一条: Black gives komi (贴子); the rules text in the seed says 2¾
//! stones, its counting guide (计算胜负) 3¾, the value played now and the default here.
//!
//! With Black's count `B` and komi `K` (in stones), Black wins when `B − K > N²/2`, that is
//! when `B > N²/2 + K`; White, whose count is `N² − B`, wins when `W > N²/2 − K`. Counted in
//! points (one stone is worth two points of difference, so 3¾ stones = 7½ points `k`), Black
//! needs more than `N²/2 + k/2`. Because counts are whole or half stones and `K` ends in ¾,
//! there is no draw:
//!
//! | board | points | half | Black wins with | White wins with |
//! |---|---|---|---|---|
//! | 19×19 | 361 | 180½ | 184½ or more (185 when the count is whole) | 177 or more |
//! | 13×13 | 169 | 84½ | 88½ or more (89) | 81 or more |
//! | 9×9 | 81 | 40½ | 44½ or more (45) | 37 or more |
//!
//! In a handicap game Black gives no komi (让先不贴目), but in area counting Black gives back
//! half the number of handicap stones (让子要贴还让子数的一半): with 4 stones, Black needs
//! `B − 2 > N²/2`. Then a count exactly on the line is a draw (和棋), as 第九条 says.
//!
//! Territory counting (数目法): each side counts the empty points it surrounds (目) plus the
//! stones it captured (提子, including the dead stones taken off at the end); White adds a komi
//! of 6½ points. Points surrounded by a group that lives in seki (双活) count for nobody, and so
//! does a false eye that must be filled before the end.
//!
//! Which stones are dead is for the players to agree: the caller lists them. The engine never
//! guesses life and death.

use super::board::{Board, Color};
use super::point::Point;
use super::position::Position;
use crate::lang::Lang;
use std::fmt;

/// How the game is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Area counting (数子法), the Chinese rules: stones plus surrounded points, compared with
    /// half the board; komi 3¾ stones.
    Chinese,
    /// Territory counting (数目法), the Japanese and Korean rules: surrounded points plus
    /// prisoners; komi 6½ points; seki points count for nobody.
    Japanese,
}

impl Scoring {
    /// Reads `chinese`/`area` or `japanese`/`korean`/`territory` (any case).
    pub fn parse(text: &str) -> Option<Scoring> {
        match text.trim().to_ascii_lowercase().as_str() {
            "chinese" | "area" | "cn" => Some(Scoring::Chinese),
            "japanese" | "korean" | "territory" | "jp" | "kr" => Some(Scoring::Japanese),
            _ => None,
        }
    }

    /// `chinese` or `japanese`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scoring::Chinese => "chinese",
            Scoring::Japanese => "japanese",
        }
    }

    /// The usual komi in points: 7½ (3¾ stones) for Chinese, 6½ for Japanese counting; none in
    /// a handicap game (`handicap` ≥ 1: 让先不贴目).
    pub fn default_komi(self, handicap: u8) -> f64 {
        match (self, handicap) {
            (_, 1..) => 0.0,
            (Scoring::Chinese, 0) => 7.5,
            (Scoring::Japanese, 0) => 6.5,
        }
    }
}

/// Everything a count needs besides the board: the rules, komi, handicap and prisoners.
///
/// ```
/// use qiyuan::rules::go::{Counting, Scoring};
/// let c = Counting::new(Scoring::Chinese);
/// assert_eq!(c.komi, 7.5); // 3¾ stones
/// let c = Counting::new(Scoring::Japanese).handicap(3).prisoners(4, 2);
/// assert_eq!((c.komi, c.prisoners), (0.0, [4, 2]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Counting {
    /// Area or territory counting.
    pub rules: Scoring,
    /// Komi in points, added to White (3¾ stones = 7.5 points).
    pub komi: f64,
    /// Handicap stones Black received (0 for an even game). Under Chinese rules Black gives
    /// back half of them at the count.
    pub handicap: u8,
    /// Stones captured during the game, `[by Black, by White]` (territory counting only).
    pub prisoners: [u32; 2],
}

impl Counting {
    /// An even game under `rules`, with the usual komi and no prisoners.
    pub fn new(rules: Scoring) -> Counting {
        Counting {
            rules,
            komi: rules.default_komi(0),
            handicap: 0,
            prisoners: [0, 0],
        }
    }

    /// The same count with `stones` handicap stones; the komi becomes the handicap default (0).
    pub fn handicap(mut self, stones: u8) -> Counting {
        self.handicap = stones;
        self.komi = self.rules.default_komi(stones);
        self
    }

    /// The same count with another komi, in points.
    pub fn komi(mut self, points: f64) -> Counting {
        self.komi = points;
        self
    }

    /// The same count with the stones captured during the game by Black and by White.
    pub fn prisoners(mut self, by_black: u32, by_white: u32) -> Counting {
        self.prisoners = [by_black, by_white];
        self
    }

    /// The stones Black gives back for the handicap under these rules: half the handicap
    /// under Chinese counting (from 2 stones), none under Japanese counting.
    pub fn give_back(&self) -> f64 {
        match self.rules {
            Scoring::Chinese if self.handicap >= 2 => self.handicap as f64 / 2.0,
            _ => 0.0,
        }
    }
}

/// What a point is at the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    /// A living stone of this colour.
    Stone(Color),
    /// Territory of this colour (empty, or under a dead stone of the other colour).
    Territory(Color),
    /// Surrounded by this colour, but by a group that lives in seki (双活) without two eyes of
    /// its own: the colour's under area counting, nobody's under territory counting.
    Seki(Color),
    /// Surrounded by this colour, but a false eye or a point that must be filled before the
    /// end: the colour's under area counting, nobody's under territory counting.
    MustFill(Color),
    /// Between both sides' living stones (单官, or a shared liberty in seki): half each under
    /// area counting, nobody's under territory counting.
    Dame,
}

impl Owner {
    /// The colour whose territory this is under territory counting, if any.
    pub fn territory(self) -> Option<Color> {
        match self {
            Owner::Territory(c) => Some(c),
            _ => None,
        }
    }

    /// The colour this point counts for under area counting (`None` for dame).
    pub fn area(self) -> Option<Color> {
        match self {
            Owner::Stone(c) | Owner::Territory(c) | Owner::Seki(c) | Owner::MustFill(c) => Some(c),
            Owner::Dame => None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Both sides passed in a row (第七条一: both confirm that play is over); count the board.
    TwoPasses,
    /// This side resigned (第七条二: 中途认输).
    Resigned(Color),
}

impl Ending {
    /// A sentence for the learner in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        match (self, lang) {
            (Ending::TwoPasses, Lang::Zh) => "双方连续停一手，对局结束：开始数棋。".into(),
            (Ending::TwoPasses, Lang::En) => {
                "Both sides passed in a row: the game is over, and the board is counted.".into()
            }
            (Ending::Resigned(c), Lang::Zh) => format!(
                "{}认输，{}中盘胜。",
                if *c == Color::Black {
                    "黑方"
                } else {
                    "白方"
                },
                if *c == Color::Black {
                    "白方"
                } else {
                    "黑方"
                }
            ),
            (Ending::Resigned(c), Lang::En) => format!(
                "{} resigned; {} wins.",
                if *c == Color::Black { "Black" } else { "White" },
                if *c == Color::Black { "White" } else { "Black" }
            ),
        }
    }
}

/// Whether the game in `pos` is over by two passes in a row.
///
/// ```
/// use qiyuan::rules::go::{game_over, Move, Position};
/// let pos = Position::empty(9).unwrap().play_move(Move::Pass).unwrap();
/// assert!(!game_over(&pos));
/// assert!(game_over(&pos.play_move(Move::Pass).unwrap()));
/// ```
pub fn game_over(pos: &Position) -> bool {
    pos.consecutive_passes() >= 2
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// `winner` wins by `margin`: stones under area counting, points under territory counting.
    Win {
        /// Who wins.
        winner: Color,
        /// By how much.
        margin: f64,
        /// Whether `margin` is in stones (area counting) or points (territory counting).
        rules: Scoring,
    },
    /// Exactly even (和棋, jigo).
    Draw,
    /// The other side resigned.
    Resignation {
        /// Who wins.
        winner: Color,
    },
}

impl Outcome {
    /// The result of a resignation by `loser`.
    pub fn resigned(loser: Color) -> Outcome {
        Outcome::Resignation {
            winner: loser.opponent(),
        }
    }

    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } | Outcome::Resignation { winner } => Some(*winner),
            Outcome::Draw => None,
        }
    }

    /// The result as SGF writes it (`RE`): `B+R`, `W+2.5` (always in points), `0` for a draw.
    pub fn sgf(&self) -> String {
        match self {
            Outcome::Resignation { winner } => format!("{}+R", sgf_colour(*winner)),
            Outcome::Draw => "0".to_string(),
            Outcome::Win {
                winner,
                margin,
                rules,
            } => {
                let points = match rules {
                    Scoring::Chinese => margin * 2.0,
                    Scoring::Japanese => *margin,
                };
                format!("{}+{}", sgf_colour(*winner), decimal(points))
            }
        }
    }

    /// A sentence for the learner: `黑胜 ¾ 子。`, `White wins by 2½ points.`, `Black wins by resignation`.
    pub fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (Outcome::Draw, Lang::Zh) => "和棋。".to_string(),
            (Outcome::Draw, Lang::En) => "A draw (jigo).".to_string(),
            (Outcome::Resignation { winner }, Lang::Zh) => {
                format!("{}中盘胜（对方认输）。", colour_zh(*winner))
            }
            (Outcome::Resignation { winner }, Lang::En) => {
                format!("{} wins by resignation.", colour_en(*winner))
            }
            (
                Outcome::Win {
                    winner,
                    margin,
                    rules,
                },
                Lang::Zh,
            ) => match rules {
                Scoring::Chinese => format!("{}胜 {} 子。", colour_zh(*winner), fraction(*margin)),
                Scoring::Japanese => {
                    format!("{}胜 {} 目。", colour_zh(*winner), fraction(*margin))
                }
            },
            (
                Outcome::Win {
                    winner,
                    margin,
                    rules,
                },
                Lang::En,
            ) => {
                let (one, many) = match rules {
                    Scoring::Chinese => ("stone", "stones"),
                    Scoring::Japanese => ("point", "points"),
                };
                let unit = if *margin <= 1.0 { one } else { many };
                format!(
                    "{} wins by {} {unit}.",
                    colour_en(*winner),
                    fraction(*margin)
                )
            }
        }
    }
}

/// Why a count cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadCount {
    /// A point listed as dead holds no stone.
    DeadOnEmpty(Point),
    /// A point listed as dead is off the board.
    OffBoard(Point),
}

impl fmt::Display for BadCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadCount::DeadOnEmpty(p) => write!(
                f,
                "point ({}, {}) is listed as dead but holds no stone",
                p.col, p.row
            ),
            BadCount::OffBoard(p) => {
                write!(f, "point ({}, {}) is off the board", p.col, p.row)
            }
        }
    }
}

impl std::error::Error for BadCount {}

/// A counted board: what each point is, the totals, and the result.
///
/// Under area counting `black` and `white` are the two sides' counts in stones (living
/// stones, surrounded points and half the dame), before komi. Under territory counting they
/// are the final scores in points: territory plus prisoners, with komi added to `white`.
///
/// ```
/// use qiyuan::lang::Lang;
/// use qiyuan::rules::go::{score, Board, Color, Counting, Owner, Scoring};
/// // A finished 5×5 game. Black walls off the left, White the right; C3 is dame
/// // and the white stone on A1 is dead.
/// //   . X O . .
/// //   . X O . .
/// //   . X . O .
/// //   . X O . .
/// //   O X O . .
/// let board = Board::from_text(5, "
///     . X O . .
///     . X O . .
///     . X . O .
///     . X O . .
///     O X O . .").unwrap();
/// let a1 = board.point("A1").unwrap();
/// let s = score(&board, &[a1], &Counting::new(Scoring::Japanese).komi(0.5)).unwrap();
/// assert_eq!(s.owner(a1), Owner::Territory(Color::Black));
/// assert_eq!(s.owner(board.point("C3").unwrap()), Owner::Dame);
/// assert_eq!(s.black, 6.0);  // 5 points of territory + the dead stone
/// assert_eq!(s.white, 9.5);  // 9 points of territory + ½ komi
/// assert_eq!(s.outcome.text(Lang::En), "White wins by 3½ points.");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    /// The board size.
    pub size: u8,
    /// The rules, komi, handicap and prisoners counted with.
    pub counting: Counting,
    /// What each point is, row by row from the top-left (see [`Score::owner`]).
    pub map: Vec<Owner>,
    /// The dead stones taken off and their colours, sorted by point.
    pub dead: Vec<(Point, Color)>,
    /// Black's count (stones under area counting, points under territory counting).
    pub black: f64,
    /// White's count, komi included under territory counting.
    pub white: f64,
    /// Who wins, and by how much.
    pub outcome: Outcome,
}

/// Counts a finished board. `dead` lists the dead stones (any point of a dead chain may be
/// listed; only the listed stones are taken off). Komi, handicap and prisoners come from
/// `counting`.
pub fn score(board: &Board, dead: &[Point], counting: &Counting) -> Result<Score, BadCount> {
    let size = board.size();
    let mut dead: Vec<Point> = dead.to_vec();
    dead.sort();
    dead.dedup();
    for &p in &dead {
        if !board.contains(p) {
            return Err(BadCount::OffBoard(p));
        }
        if board.get(p).is_none() {
            return Err(BadCount::DeadOnEmpty(p));
        }
    }
    let map = classify(board, &dead);
    let dead: Vec<(Point, Color)> = dead
        .iter()
        .filter_map(|&p| board.get(p).map(|c| (p, c)))
        .collect();
    let count = |f: &dyn Fn(Owner) -> bool| map.iter().filter(|&&o| f(o)).count() as f64;
    let dead_of = |c: Color| dead.iter().filter(|&&(_, d)| d == c).count() as u32;
    let (black, white, outcome) = match counting.rules {
        Scoring::Chinese => {
            let dame = count(&|o| o == Owner::Dame);
            let black = count(&|o| o.area() == Some(Color::Black)) + dame / 2.0;
            let white = count(&|o| o.area() == Some(Color::White)) + dame / 2.0;
            let half = (size as f64 * size as f64) / 2.0;
            let margin = black - counting.komi / 2.0 - counting.give_back() - half;
            (black, white, decide(margin, Scoring::Chinese))
        }
        Scoring::Japanese => {
            let black = count(&|o| o.territory() == Some(Color::Black))
                + (counting.prisoners[0] + dead_of(Color::White)) as f64;
            let white = count(&|o| o.territory() == Some(Color::White))
                + (counting.prisoners[1] + dead_of(Color::Black)) as f64
                + counting.komi;
            (black, white, decide(black - white, Scoring::Japanese))
        }
    };
    Ok(Score {
        size,
        counting: *counting,
        map,
        dead,
        black,
        white,
        outcome,
    })
}

/// Counts the board of a finished game, with the prisoners `pos` has recorded.
pub fn score_position(
    pos: &Position,
    dead: &[Point],
    counting: &Counting,
) -> Result<Score, BadCount> {
    let counting = counting.prisoners(pos.prisoners(Color::Black), pos.prisoners(Color::White));
    score(pos.board(), dead, &counting)
}

fn decide(margin: f64, rules: Scoring) -> Outcome {
    if margin > 0.0 {
        Outcome::Win {
            winner: Color::Black,
            margin,
            rules,
        }
    } else if margin < 0.0 {
        Outcome::Win {
            winner: Color::White,
            margin: -margin,
            rules,
        }
    } else {
        Outcome::Draw
    }
}

impl Score {
    /// What `p` is at the count.
    pub fn owner(&self, p: Point) -> Owner {
        self.map[p.row as usize * self.size as usize + p.col as usize]
    }

    /// The points of each kind, for drawing the count on the board.
    pub fn points(&self, kind: Owner) -> Vec<Point> {
        let n = self.size as usize;
        (0..self.map.len())
            .filter(|&i| self.map[i] == kind)
            .map(|i| Point::new((i % n) as u8, (i / n) as u8))
            .collect()
    }

    fn tally(&self, f: impl Fn(Owner) -> bool) -> usize {
        self.map.iter().filter(|&&o| f(o)).count()
    }

    /// The count explained step by step for the learner.
    pub fn explain(&self, lang: Lang) -> String {
        let n = self.size as usize;
        let total = n * n;
        let stones = |c| self.tally(|o| o == Owner::Stone(c));
        let surrounded = |c| {
            self.tally(|o| matches!(o, Owner::Territory(x) | Owner::Seki(x) | Owner::MustFill(x) if x == c))
        };
        let territory = |c| self.tally(|o| o == Owner::Territory(c));
        let dame = self.tally(|o| o == Owner::Dame);
        let seki = self.tally(|o| matches!(o, Owner::Seki(_)));
        let fill = self.tally(|o| matches!(o, Owner::MustFill(_)));
        let dead = |c: Color| self.dead.iter().filter(|&&(_, d)| d == c).count();
        let c = &self.counting;
        let half = total as f64 / 2.0;
        let mut out = String::new();
        match (c.rules, lang) {
            (Scoring::Chinese, Lang::Zh) => {
                out.push_str("数子法（中国规则）：");
                if !self.dead.is_empty() {
                    out.push_str(&format!(
                        "先把死子拿掉（黑死子 {} 个，白死子 {} 个）。",
                        dead(Color::Black),
                        dead(Color::White)
                    ));
                }
                out.push_str(&format!(
                    "黑棋活子 {} 个，围住的空点 {} 个",
                    stones(Color::Black),
                    surrounded(Color::Black),
                ));
                if dame > 0 {
                    out.push_str(&format!("，双方之间的空点（单官）{dame} 个各得一半"));
                }
                out.push_str(&format!(
                    "，黑共 {} 子；白共 {} 子。",
                    fraction(self.black),
                    fraction(self.white)
                ));
                out.push_str(&format!(
                    "棋盘共 {total} 点，一半是 {} 点。",
                    fraction(half)
                ));
                if c.komi != 0.0 {
                    out.push_str(&format!("黑贴 {} 子", fraction(c.komi / 2.0)));
                }
                if c.give_back() != 0.0 {
                    if c.komi != 0.0 {
                        out.push('，');
                    }
                    out.push_str(&format!(
                        "让 {} 子，黑还 {} 子",
                        c.handicap,
                        fraction(c.give_back())
                    ));
                }
                let net = self.black - c.komi / 2.0 - c.give_back();
                if c.komi != 0.0 || c.give_back() != 0.0 {
                    out.push_str(&format!(
                        "：{} 子算作 {} 子。",
                        fraction(self.black),
                        fraction(net)
                    ));
                }
                out.push_str(&format!(
                    "与 {} 比较：{}",
                    fraction(half),
                    self.outcome.text(lang)
                ));
            }
            (Scoring::Chinese, Lang::En) => {
                out.push_str("Area counting (Chinese rules): ");
                if !self.dead.is_empty() {
                    out.push_str(&format!(
                        "first the dead stones are taken off ({} black, {} white). ",
                        dead(Color::Black),
                        dead(Color::White)
                    ));
                }
                out.push_str(&format!(
                    "Black has {} living stones and {} surrounded points",
                    stones(Color::Black),
                    surrounded(Color::Black),
                ));
                match dame {
                    0 => {}
                    1 => out.push_str(", plus half of the 1 neutral point (dame)"),
                    _ => out.push_str(&format!(", plus half of the {dame} neutral points (dame)")),
                }
                out.push_str(&format!(
                    ": {} in all; White has {}. ",
                    fraction(self.black),
                    fraction(self.white)
                ));
                out.push_str(&format!(
                    "The board has {total} points; half of it is {}. ",
                    fraction(half)
                ));
                let net = self.black - c.komi / 2.0 - c.give_back();
                if c.komi != 0.0 {
                    out.push_str(&format!(
                        "Black gives {} stones of komi. ",
                        fraction(c.komi / 2.0)
                    ));
                }
                if c.give_back() != 0.0 {
                    out.push_str(&format!(
                        "With {} handicap stones Black gives back {}. ",
                        c.handicap,
                        fraction(c.give_back())
                    ));
                }
                if c.komi != 0.0 || c.give_back() != 0.0 {
                    out.push_str(&format!(
                        "So Black's {} counts as {}. ",
                        fraction(self.black),
                        fraction(net)
                    ));
                }
                out.push_str(&format!(
                    "Compared with {}: {}",
                    fraction(half),
                    self.outcome.text(lang)
                ));
            }
            (Scoring::Japanese, Lang::Zh) => {
                out.push_str(&format!(
                    "数目法（日韩规则）：黑 {} 目，加提子 {} 个（对局中 {}，死子 {}），共 {} 目；",
                    territory(Color::Black),
                    c.prisoners[0] as usize + dead(Color::White),
                    c.prisoners[0],
                    dead(Color::White),
                    fraction(self.black)
                ));
                out.push_str(&format!(
                    "白 {} 目，加提子 {} 个（对局中 {}，死子 {}）",
                    territory(Color::White),
                    c.prisoners[1] as usize + dead(Color::Black),
                    c.prisoners[1],
                    dead(Color::Black),
                ));
                if c.komi != 0.0 {
                    out.push_str(&format!("，加贴目 {}", fraction(c.komi)));
                }
                out.push_str(&format!("，共 {} 目。", fraction(self.white)));
                if dame > 0 || seki > 0 || fill > 0 {
                    out.push_str(&format!("单官和双活中的空点（{} 个）不算目", dame + seki));
                    if fill > 0 {
                        out.push_str(&format!("；假眼等终局前必须补的点（{fill} 个）也不算"));
                    }
                    out.push('。');
                }
                out.push_str(&self.outcome.text(lang));
            }
            (Scoring::Japanese, Lang::En) => {
                out.push_str(&format!(
                    "Territory counting (Japanese rules): Black has {} points of territory and {} prisoners ({} captured in play, {} dead at the end): {}. ",
                    territory(Color::Black),
                    c.prisoners[0] as usize + dead(Color::White),
                    c.prisoners[0],
                    dead(Color::White),
                    fraction(self.black)
                ));
                out.push_str(&format!(
                    "White has {} points of territory and {} prisoners ({} captured in play, {} dead at the end)",
                    territory(Color::White),
                    c.prisoners[1] as usize + dead(Color::Black),
                    c.prisoners[1],
                    dead(Color::Black),
                ));
                if c.komi != 0.0 {
                    out.push_str(&format!(", plus {} komi", fraction(c.komi)));
                }
                out.push_str(&format!(": {}. ", fraction(self.white)));
                if dame > 0 || seki > 0 || fill > 0 {
                    out.push_str(&format!(
                        "Neutral points and points inside a seki ({}) count for nobody",
                        dame + seki
                    ));
                    if fill > 0 {
                        out.push_str(&format!(
                            ", nor do false eyes and other points that must be filled before the end ({fill})"
                        ));
                    }
                    out.push_str(". ");
                }
                out.push_str(&self.outcome.text(lang));
            }
        }
        out
    }
}

fn sgf_colour(c: Color) -> char {
    match c {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

fn colour_zh(c: Color) -> &'static str {
    match c {
        Color::Black => "黑",
        Color::White => "白",
    }
}

fn colour_en(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// `2.5`, `7`, `0.75`: the shortest decimal.
fn decimal(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `3¾`, `½`, `185`: in both languages, as the lessons and the learner's answers write them
/// (not `3又3/4`).
fn fraction(x: f64) -> String {
    let (whole, frac) = split_quarters(x);
    let sym = |f: &str| match f {
        "1/4" => "¼",
        "1/2" => "½",
        _ => "¾",
    };
    match (whole, frac) {
        (w, None) => w.to_string(),
        (0, Some(f)) => sym(f).to_string(),
        (w, Some(f)) => format!("{w}{}", sym(f)),
    }
}

/// Splits a non-negative multiple of ¼ into its whole part and its fraction (`1/4`, `1/2`, `3/4`).
fn split_quarters(x: f64) -> (i64, Option<&'static str>) {
    let quarters = (x * 4.0).round() as i64;
    let sign = if quarters < 0 { -1 } else { 1 };
    let q = quarters.abs();
    let frac = match q % 4 {
        0 => None,
        1 => Some("1/4"),
        2 => Some("1/2"),
        _ => Some("3/4"),
    };
    (sign * (q / 4), frac)
}

/// How many eyes an eye space of this many points counts for at least, whatever its shape.
const BIG_EYE: usize = 7;

/// The board with the dead stones off, cut into areas (connected empty points).
struct Areas {
    w: usize,
    h: usize,
    live: Vec<Option<Color>>,
    /// For each empty point, the index of its area (`usize::MAX` under a stone).
    area: Vec<usize>,
    /// For each area, the one colour whose stones border it, if only one does.
    owner: Vec<Option<Color>>,
    /// The points of each area.
    points: Vec<Vec<usize>>,
}

impl Areas {
    fn new(w: usize, h: usize, stones: &[Option<Color>], dead: &[bool]) -> Areas {
        let live: Vec<Option<Color>> = stones
            .iter()
            .zip(dead)
            .map(|(&s, &d)| if d { None } else { s })
            .collect();
        let mut area = vec![usize::MAX; w * h];
        let mut owner = Vec::new();
        let mut points = Vec::new();
        for start in 0..w * h {
            if live[start].is_some() || area[start] != usize::MAX {
                continue;
            }
            let id = points.len();
            let (mut black, mut white) = (false, false);
            let mut members = vec![start];
            area[start] = id;
            let mut k = 0;
            while k < members.len() {
                let i = members[k];
                k += 1;
                for j in neighbours(w, h, i) {
                    match live[j] {
                        Some(Color::Black) => black = true,
                        Some(Color::White) => white = true,
                        None if area[j] == usize::MAX => {
                            area[j] = id;
                            members.push(j);
                        }
                        None => {}
                    }
                }
            }
            owner.push(match (black, white) {
                (true, false) => Some(Color::Black),
                (false, true) => Some(Color::White),
                _ => None,
            });
            points.push(members);
        }
        Areas {
            w,
            h,
            live,
            area,
            owner,
            points,
        }
    }

    fn owner_of(&self, i: usize) -> Option<Color> {
        self.owner[self.area[i]]
    }

    /// Whether a path of `c` may pass `i`: a living `c` stone, a point of an area only `c`
    /// borders, or (with `dame`) a neutral point.
    fn passable(&self, c: Color, i: usize, dame: bool) -> bool {
        match self.live[i] {
            Some(s) => s == c,
            None => match self.owner_of(i) {
                Some(o) => o == c,
                None => dame,
            },
        }
    }

    /// The connected parts of what `c` may pass, leaving out `skip`. A neutral point joins
    /// only the `c` stones next to it (their owner may fill it to connect them), never another
    /// neutral point. Returns the part of each point (`u32::MAX` if outside every part).
    fn parts(&self, c: Color, skip: Option<usize>, dame: bool) -> Vec<u32> {
        let mut part = vec![u32::MAX; self.w * self.h];
        let mut next = 0;
        let mut stack = Vec::new();
        for start in 0..self.w * self.h {
            if Some(start) == skip || part[start] != u32::MAX || !self.passable(c, start, dame) {
                continue;
            }
            part[start] = next;
            stack.push(start);
            while let Some(i) = stack.pop() {
                for j in neighbours(self.w, self.h, i) {
                    if Some(j) == skip || part[j] != u32::MAX || !self.passable(c, j, dame) {
                        continue;
                    }
                    let both_empty = self.live[i].is_none() && self.live[j].is_none();
                    if both_empty && self.owner_of(i).is_none() {
                        continue;
                    }
                    part[j] = next;
                    stack.push(j);
                }
            }
            next += 1;
        }
        part
    }
}

fn neighbours(w: usize, h: usize, i: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / w, i % w);
    [
        (r > 0).then(|| i - w),
        (c > 0).then(|| i - 1),
        (c + 1 < w).then(|| i + 1),
        (r + 1 < h).then(|| i + w),
    ]
    .into_iter()
    .flatten()
}

/// How many pieces `set` (a set of points, given as flags) falls into.
fn pieces(w: usize, h: usize, set: &[bool]) -> usize {
    let mut seen = vec![false; set.len()];
    let mut count = 0;
    for start in 0..set.len() {
        if !set[start] || seen[start] {
            continue;
        }
        count += 1;
        seen[start] = true;
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            for j in neighbours(w, h, i) {
                if set[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
    }
    count
}

/// Whether one point of this eye space splits it in two when filled: then the defender,
/// playing there, has two eyes (straight or bent three, four in a row, the bulky five, …).
fn splits_in_two(w: usize, h: usize, space: &[usize]) -> bool {
    if space.len() < 3 {
        return false;
    }
    let mut set = vec![false; w * h];
    for &i in space {
        set[i] = true;
    }
    let whole = pieces(w, h, &set);
    space.iter().any(|&i| {
        set[i] = false;
        let more = pieces(w, h, &set) > whole;
        set[i] = true;
        more
    })
}

/// What each point is at the count, with `dead` taken off.
///
/// 1. Take the dead stones off; cut the empty points into areas. An area bordered by both
///    colours is dame. An area bordered by one colour is that colour's eye space.
/// 2. A point of an eye space is *false* when the stones around it are joined only through
///    it: leave it out, and some neighbour no longer reaches the others through its colour's
///    stones, eye spaces, or a dame point it may fill. (Chains joined in a ring keep their
///    eyes: leaving one point out, the ring still joins them.)
/// 3. An eye space without a point that is not false is worth no eye; one of at least seven
///    points, or one that a single stone cuts in two, is worth two; any other is worth one.
/// 4. A group (stones and eye spaces joined as in 2) with fewer than two eyes is alive only in
///    seki: its eye spaces count for nobody under territory counting.
/// 5. A false point counts for nobody when one side of it reaches no other eye: the owner
///    must fill it before the end (after the opponent fills the dame, those stones are in atari).
fn classify(board: &Board, dead: &[Point]) -> Vec<Owner> {
    let n = board.size() as usize;
    let stones: Vec<Option<Color>> = board.points().map(|p| board.get(p)).collect();
    let mut marked = vec![false; n * n];
    for p in dead {
        marked[p.row as usize * n + p.col as usize] = true;
    }
    classify_grid(n, n, &stones, &marked)
}

/// What each point of a `width`×`height` grid is at the count (row by row from the top-left):
/// [`score`]'s classification for rectangular boards. `stones` and `dead` have one entry per
/// point; a point marked dead must hold a stone.
///
/// ```
/// use qiyuan::rules::go::{score::classify_grid, Color, Owner};
/// // . . X .      a 4×4 board: Black's wall surrounds eight points on the left;
/// // . . X O      the right-hand column touches both colours, so it is dame.
/// // . . X .
/// // . . X .
/// let (b, w) = (Some(Color::Black), Some(Color::White));
/// let row = [None, None, b, None];
/// let mut stones = Vec::new();
/// for r in 0..4 {
///     stones.extend_from_slice(&row);
///     if r == 1 {
///         stones[7] = w;
///     }
/// }
/// let map = classify_grid(4, 4, &stones, &[false; 16]);
/// assert_eq!(map[0], Owner::Territory(Color::Black));
/// assert_eq!(map[3], Owner::Dame);
/// ```
pub fn classify_grid(
    width: usize,
    height: usize,
    stones: &[Option<Color>],
    dead: &[bool],
) -> Vec<Owner> {
    let a = Areas::new(width, height, stones, dead);
    let (w, h) = (width, height);
    let mut false_point = vec![false; w * h];
    let mut must_fill = vec![false; w * h];
    let mut value = vec![0u8; a.points.len()];
    let mut in_seki = vec![false; a.points.len()];
    for c in [Color::Black, Color::White] {
        let groups = a.parts(c, None, true);
        // 2. False points, with the parts their neighbours fall into without them.
        let mut splits = Vec::new();
        for (i, false_here) in false_point.iter_mut().enumerate() {
            if a.live[i].is_some() || a.owner_of(i) != Some(c) {
                continue;
            }
            let around: Vec<usize> = neighbours(w, h, i)
                .filter(|&j| a.passable(c, j, false))
                .collect();
            if !around.iter().any(|&j| a.live[j] == Some(c)) {
                continue;
            }
            let parts = a.parts(c, Some(i), true);
            let mut sides: Vec<u32> = around.iter().map(|&j| parts[j]).collect();
            sides.sort();
            sides.dedup();
            if sides.len() > 1 {
                *false_here = true;
                splits.push((i, parts, sides));
            }
        }
        // 3. Eye values, summed per group.
        let mut eyes: std::collections::HashMap<u32, u32> = Default::default();
        for (id, space) in a.points.iter().enumerate() {
            if a.owner[id] != Some(c) {
                continue;
            }
            let real: Vec<usize> = space.iter().copied().filter(|&i| !false_point[i]).collect();
            value[id] = if real.is_empty() {
                0
            } else if real.len() >= BIG_EYE || splits_in_two(w, h, &real) {
                2
            } else {
                1
            };
            *eyes.entry(groups[space[0]]).or_default() += value[id] as u32;
        }
        // 4. Groups with fewer than two eyes live in seki.
        for (id, space) in a.points.iter().enumerate() {
            if a.owner[id] == Some(c) {
                in_seki[id] = eyes[&groups[space[0]]] < 2;
            }
        }
        // 5. False points one of whose sides has no other eye.
        for (i, parts, sides) in splits {
            let lonely = sides.iter().any(|&k| {
                !(0..w * h).any(|q| {
                    parts[q] == k
                        && q != i
                        && a.live[q].is_none()
                        && !false_point[q]
                        && value[a.area[q]] >= 1
                })
            });
            must_fill[i] = lonely;
        }
    }
    let mut map = Vec::with_capacity(w * h);
    for i in 0..w * h {
        map.push(match a.live[i] {
            Some(c) => Owner::Stone(c),
            None => match a.owner_of(i) {
                None => Owner::Dame,
                Some(c) => {
                    if in_seki[a.area[i]] {
                        Owner::Seki(c)
                    } else if must_fill[i] {
                        Owner::MustFill(c)
                    } else {
                        Owner::Territory(c)
                    }
                }
            },
        });
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::go::Move;

    #[test]
    fn two_passes_end_the_game_and_a_move_resets_the_count() {
        let pos = Position::empty(9).unwrap();
        let once = pos.play_move(Move::Pass).unwrap();
        assert!(!game_over(&once));
        let d4 = Move::Play(Point::new(3, 5));
        let moved = once.play_move(d4).unwrap();
        assert!(!game_over(&moved.play_move(Move::Pass).unwrap()));
        assert!(game_over(&once.play_move(Move::Pass).unwrap()));
    }

    #[test]
    fn resignation_names_the_winner() {
        let o = Outcome::resigned(Color::Black);
        assert_eq!(o.winner(), Some(Color::White));
        assert_eq!(o.sgf(), "W+R");
        assert_eq!(o.text(Lang::Zh), "白中盘胜（对方认输）。");
        assert_eq!(o.text(Lang::En), "White wins by resignation.");
    }

    #[test]
    fn fractions_read_naturally() {
        assert_eq!(fraction(3.75), "3¾");
        assert_eq!(fraction(0.5), "½");
        assert_eq!(fraction(180.5), "180½");
        assert_eq!(fraction(7.0), "7");
        assert_eq!(decimal(2.5), "2.5");
        assert_eq!(decimal(7.0), "7");
    }

    #[test]
    fn an_empty_board_is_all_dame() {
        let board = Board::new(9).unwrap();
        let s = score(&board, &[], &Counting::new(Scoring::Chinese)).unwrap();
        assert_eq!((s.black, s.white), (40.5, 40.5));
        assert_eq!(s.outcome.winner(), Some(Color::White));
    }

    #[test]
    fn a_group_with_two_one_point_eyes_owns_them() {
        // . X . X O .
        // X X X X O .
        // O O O O O .
        let b = Some(Color::Black);
        let w = Some(Color::White);
        let stones = [
            None, b, None, b, w, None, //
            b, b, b, b, w, None, //
            w, w, w, w, w, None,
        ];
        let map = classify_grid(6, 3, &stones, &[false; 18]);
        // Two separate eyes, so Black lives on its own and both are territory, even though
        // the black group touches White.
        assert_eq!(map[0], Owner::Territory(Color::Black));
        assert_eq!(map[2], Owner::Territory(Color::Black));
        assert_eq!(map[5], Owner::Territory(Color::White));
    }

    #[test]
    fn a_one_eyed_group_in_seki_counts_for_nobody() {
        // X . X . O . O      Each side has one eye and they share D1 and D2: whoever
        // X X X . O O O      fills one of them first is captured. Seki.
        let b = Some(Color::Black);
        let w = Some(Color::White);
        let stones = [
            b, None, b, None, w, None, w, //
            b, b, b, None, w, w, w,
        ];
        let map = classify_grid(7, 2, &stones, &[false; 14]);
        assert_eq!(map[1], Owner::Seki(Color::Black));
        assert_eq!(map[5], Owner::Seki(Color::White));
        assert_eq!((map[3], map[10]), (Owner::Dame, Owner::Dame));
    }
}
