//! Scratch: solve a repo problem and judge every move.
use qiyuan::content::{source, Library, Puzzle, Game};
use qiyuan::rules::go::life::{self, Budget};
use std::time::Duration;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (set, id) = (&args[1], &args[2]);
    let moves: Vec<String> = args[3..].to_vec();
    let files = source::embedded();
    let (lib, _) = Library::load(&files);
    let s = lib.shelf(Game::Go).unwrap().set(set).unwrap();
    let p = s.problem(id).unwrap();
    let Puzzle::Go(g) = &p.puzzle else { panic!() };
    let pos = g.replay(&moves).unwrap();
    let judge = g.life.as_ref().unwrap();
    let prob = judge.problem();
    let size = pos.size();
    println!("attacker {:?} target {:?} region {}", prob.attacker(), prob.target().iter().map(|p| p.name(size)).collect::<Vec<_>>(), prob.region().iter().map(|p| p.name(size)).collect::<Vec<_>>().join(" "));
    let b = Budget { nodes: 2_000_000, time: Duration::from_secs(20) };
    let v = life::solve(&pos, prob, b);
    println!("solve: {:?} {}", v.outcome, v.line.iter().map(|m| m.name(size)).collect::<Vec<_>>().join(" "));
    for (m, j) in life::judge_all_moves(&pos, prob, b) {
        println!("  {} -> {:?} {}", m.name(size), j.outcome, j.line.iter().map(|m| m.name(size)).collect::<Vec<_>>().join(" "));
    }
}
