//! Benchmark: reading and writing game records (`qiyuan::record`) against the bare parsers
//! they are built on, in the same run: sgf-parse alone for SGF, pgn-reader's tokenizer alone
//! for PGN, rsshogi's KIF reader alone for KIF.
//!
//! Run with `cargo bench --bench records` (the corpus at `QIYUAN_CORPUS`, else
//! `../shared/corpus`). Our readers decode, parse, and play every move of every variation
//! through the rules engine; the ratio to the bare parser is the price of that checking.
//! Criterion reports moves per second as "elements/s".

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use qiyuan::record::{self, Format};
use std::hint::black_box;
use std::path::PathBuf;

fn corpus(file: &str) -> Vec<u8> {
    let dir = std::env::var_os("QIYUAN_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Every move of every line of the records.
fn moves(records: &[record::Record]) -> u64 {
    records
        .iter()
        .map(|r| r.lines().iter().map(Vec::len).sum::<usize>() as u64)
        .sum()
}

/// pgn-reader's tokenizer with a visitor that keeps nothing.
struct Skim;

impl pgn_reader::Visitor for Skim {
    type Tags = ();
    type Movetext = usize;
    type Output = usize;
    fn begin_tags(&mut self) -> std::ops::ControlFlow<usize> {
        std::ops::ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> std::ops::ControlFlow<usize, usize> {
        std::ops::ControlFlow::Continue(0)
    }
    fn san(&mut self, n: &mut usize, _: pgn_reader::SanPlus) -> std::ops::ControlFlow<usize> {
        *n += 1;
        std::ops::ControlFlow::Continue(())
    }
    fn end_game(&mut self, n: usize) -> usize {
        n
    }
}

fn bench(c: &mut Criterion) {
    let sgf = corpus("go/sgf-encodings/complex.sgf");
    let sgf_text = String::from_utf8(sgf.clone()).expect("UTF-8");
    let pgn = corpus("chess/pgn/kasparov-deep-blue-1997.pgn");
    let kif = corpus("shogi/kif/kifu-utf8.kifu");
    let kif_text = String::from_utf8(kif.clone()).expect("UTF-8");

    let cases: [(&str, &[u8], Format); 3] = [
        ("sgf complex.sgf", &sgf, Format::Sgf),
        ("pgn kasparov-deep-blue-1997.pgn", &pgn, Format::Pgn),
        ("kif kifu-utf8.kifu", &kif, Format::Kif),
    ];
    for (name, bytes, format) in cases {
        let file = format!("bench.{}", format.extension());
        let records = record::read(&file, bytes).expect("the corpus file reads");
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(moves(&records)));
        group.bench_function("bare parser", |b| match format {
            Format::Sgf => b.iter(|| black_box(sgf_parse::parse(black_box(&sgf_text)).unwrap())),
            Format::Pgn => b.iter(|| {
                let mut reader = pgn_reader::Reader::new(black_box(bytes));
                let mut n = 0;
                while let Some(m) = reader.read_game(&mut Skim).unwrap() {
                    n += m;
                }
                black_box(n)
            }),
            _ => b.iter(|| {
                black_box(rsshogi::records::formats::kif::parse_kif_str(black_box(
                    &kif_text,
                )))
            }),
        });
        group.bench_function("record::read", |b| {
            b.iter(|| black_box(record::read(&file, black_box(bytes)).unwrap()))
        });
        group.bench_function("record::write", |b| {
            b.iter(|| {
                for r in &records {
                    black_box(record::write(black_box(r), format).unwrap());
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
