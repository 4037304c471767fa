//! What Go adds to a table: its board drawn with the stones in atari and the dead marked,
//! the start checked, counting with dead stones, and the built-in opponent's komi.

use super::*;
use crate::render::go::{svg as go_svg, GoDiagram};
use crate::render::Marks;
use crate::rules::go;

impl Drawable for go::Position {
    fn draw(&self, d: &DrawAsk<go::Move>) -> String {
        let board = self.board();
        let size = self.size();
        let mut marks = Marks::default();
        let parse = |n: &String| go::Point::parse(n, size).ok();
        marks.crosses = d.dead.iter().filter_map(parse).collect();
        // A counted board shows its territory and its dead stones (×), and nothing else: no
        // atari marks on the dead.
        if d.ask.teach && !d.counting && !d.counted {
            marks.triangles = self.in_atari().iter().filter_map(parse).collect();
        }
        let territory: Vec<(go::Point, go::Color)> = if d.counted {
            let dead: Vec<go::Point> = marks.crosses.clone();
            go::score_position(self, &dead, &go::Counting::new(go::Scoring::Chinese))
                .map(|score| {
                    board
                        .points()
                        .filter(|&p| board.get(p).is_none())
                        .filter_map(|p| match score.owner(p) {
                            go::Owner::Territory(c) => Some((p, c)),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let liberties = d
            .ask
            .selected
            .and_then(|s| go::Point::parse(s, size).ok())
            .filter(|&p| board.get(p).is_some())
            .map(|p| board.liberties(p))
            .unwrap_or_default();
        let link = d.ask.href.map(|href| {
            let counting = d.counting;
            move |p: go::Point| {
                let name = p.name(size);
                href(if counting {
                    Click::Play(format!("dead {name}"))
                } else if board.get(p).is_some() {
                    Click::Select(Some(name))
                } else {
                    Click::Play(name)
                })
            }
        });
        go_svg(&GoDiagram {
            board,
            view: None,
            last_move: match d.last {
                Some(go::Move::Play(p)) => Some(p),
                _ => None,
            },
            marks: &marks,
            liberties: &liberties,
            territory: &territory,
            selected: &[],
            link: link.as_ref().map(|l| l as &dyn Fn(go::Point) -> String),
            heat: None,
            lang: d.ask.lang,
            title: d.ask.title,
        })
    }
}

impl Playable for go::Position {
    fn table_start(start: &Start) -> Result<go::Position, BadStart> {
        let Start::Go(crate::base::go::Start {
            size,
            handicap,
            komi,
            ..
        }) = *start
        else {
            return Err(BadStart::Position("not a Go start".into()));
        };
        if ![9, 13, 19].contains(&size) {
            return Err(BadStart::Size(size));
        }
        if !(komi.abs() <= 100.0 && (komi * 2.0).fract() == 0.0) {
            return Err(BadStart::Komi(komi));
        }
        match handicap {
            0 => Ok(go::Position::empty(size).map_err(|_| BadStart::Size(size))?),
            2..=9 => {
                go::handicap_position(size, handicap).map_err(|_| BadStart::Handicap(handicap))
            }
            n => Err(BadStart::Handicap(n)),
        }
    }

    fn finish(&self, ending: &go::Ending) -> Option<Finish> {
        match ending {
            go::Ending::TwoPasses => None,
            go::Ending::Resigned(c) => Some(Finish {
                winner: Some(Self::side(c.opponent())),
                reason: Reason::Resignation,
            }),
        }
    }

    fn toggle_dead(&self, dead: &mut Vec<String>, point: &str) -> Result<(), Refused> {
        let size = self.size();
        let p = go::Point::parse(point, size).map_err(|e| {
            Refused::Illegal(Text::new(
                format!("{point} 不是棋盘上的点：{e}"),
                format!("{point} is not a point of the board: {e}"),
            ))
        })?;
        let board = self.board();
        if board.get(p).is_none() {
            return Err(Refused::NoStone(p.name(size)));
        }
        let chain: Vec<String> = board.chain(p).iter().map(|q| q.name(size)).collect();
        if dead.contains(&p.name(size)) {
            dead.retain(|d| !chain.contains(d));
        } else {
            dead.extend(chain);
            dead.sort();
            dead.dedup();
        }
        Ok(())
    }

    fn dead_guess(&self, seed: u64) -> Vec<String> {
        let size = self.size();
        computer::dead_stones(self, seed)
            .iter()
            .map(|p| p.name(size))
            .collect()
    }

    fn count(&self, start: &Start, dead: &[String]) -> Option<Count> {
        let Start::Go(crate::base::go::Start {
            handicap,
            rules,
            komi,
            ..
        }) = *start
        else {
            return None;
        };
        let size = self.size();
        // Only stones can be dead: a point named by an engine that holds none is passed over,
        // so the count never fails once both sides agree.
        let dead: Vec<go::Point> = dead
            .iter()
            .filter_map(|n| go::Point::parse(n, size).ok())
            .filter(|&p| self.board().get(p).is_some())
            .collect();
        let counting = go::Counting::new(rules).komi(komi).handicap(handicap);
        let score = go::score_position(self, &dead, &counting).ok()?;
        let points = match score.outcome {
            go::Outcome::Win { margin, rules, .. } => match rules {
                go::Scoring::Chinese => margin * 2.0,
                go::Scoring::Japanese => margin,
            },
            _ => 0.0,
        };
        Some(Count {
            finish: Finish {
                winner: score.outcome.winner().map(Self::side),
                reason: Reason::Count { points },
            },
            text: Text::from_fn(|l| score.explain(l)),
            result: Text::from_fn(|l| score.outcome.text(l)),
        })
    }

    fn think_at(&self, start: &Start, level: Level, seed: u64) -> Option<go::Move> {
        let Start::Go(crate::base::go::Start {
            handicap,
            rules,
            komi,
            ..
        }) = *start
        else {
            return self.think(level, seed);
        };
        // The playouts count area: under Chinese rules Black also gives back one point a
        // handicap stone; territory counting is near enough to area counting with its komi.
        let give_back = match rules {
            go::Scoring::Chinese => go::Counting::new(rules).handicap(handicap).give_back() * 2.0,
            go::Scoring::Japanese => 0.0,
        };
        let strength = computer::go::Strength::of(level, self.size()).with_komi(komi + give_back);
        let until = std::time::Instant::now() + self.think_budget(level);
        computer::go::think_with(self, strength, seed, until)
    }

    fn in_atari(&self) -> Vec<String> {
        let board = self.board();
        let size = self.size();
        let mut out = Vec::new();
        for row in 0..size {
            for col in 0..size {
                let p = go::Point::new(col, row);
                if board.get(p).is_some() && board.liberties(p).len() == 1 {
                    out.push(p.name(size));
                }
            }
        }
        out
    }
}
