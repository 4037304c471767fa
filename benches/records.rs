//! Benchmark: reading and writing game records (`qiyuan::record`) against the bare parsers
//! they are built on, in the same run: sgf-parse alone for SGF, pgn-reader's tokenizer alone
//! for PGN, rsshogi's KIF reader alone for KIF.
//!
//! Run with `cargo bench --bench records` (the corpus at `QIYUAN_CORPUS`, else
//! `tests/data/corpus`). Our readers decode, parse, and play every move of every variation
//! through the rules engine; the ratio to the bare parser is the price of that checking.
//! Criterion reports moves per second as "elements/s".

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use qiyuan::record::{self, Format};
use std::hint::black_box;
use std::path::PathBuf;

fn corpus(file: &str) -> Vec<u8> {
    let dir = std::env::var_os("QIYUAN_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus"));
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
        ("sgf complex.sgf", &sgf, record::sgf::SGF),
        ("pgn kasparov-deep-blue-1997.pgn", &pgn, record::pgn::PGN),
        ("kif kifu-utf8.kifu", &kif, record::kif::KIF),
    ];
    for (name, bytes, format) in cases {
        let file = format!("bench.{}", format.extension());
        let records = record::read(&file, bytes).expect("the corpus file reads");
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(moves(&records)));
        group.bench_function("bare parser", |b| match format {
            f if f == record::sgf::SGF => {
                b.iter(|| black_box(sgf_parse::parse(black_box(&sgf_text)).unwrap()))
            }
            f if f == record::pgn::PGN => b.iter(|| {
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

/// A folder of 1,000 record files copied from the corpus (SGF in every encoding, the scored
/// Go games, PGN, KIF/KI2/CSA), in ten sub-folders.
fn library_folder() -> PathBuf {
    let root = std::env::var_os("QIYUAN_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus"));
    let mut sources = Vec::new();
    for dir in [
        "go/sgf-encodings",
        "go/scoring/games/scoring",
        "chess/pgn",
        "shogi/kif",
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.unwrap().path())
            .filter(|p| Format::from_name(&p.to_string_lossy()).is_some())
            .collect();
        files.sort();
        sources.extend(files);
    }
    let out = std::env::temp_dir().join(format!("qiyuan-bench-library-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    for i in 0..1000 {
        let from = &sources[i % sources.len()];
        let dir = out.join(format!("part{}", i % 10));
        std::fs::create_dir_all(&dir).unwrap();
        let name = from.file_name().unwrap().to_string_lossy();
        std::fs::copy(from, dir.join(format!("{i:04}-{name}"))).unwrap();
    }
    out
}

/// Listing a library of 1,000 records: the tags-only read of every file (a new cache), the
/// listing again from the cache (only the files' times and sizes looked at), and the whole
/// `/records` page from the cache; against reading the files' bytes alone.
fn library(c: &mut Criterion) {
    use qiyuan::record::library::Library;
    let dir = library_folder();
    let paths: Vec<PathBuf> = Library::new(&dir)
        .list()
        .unwrap()
        .iter()
        .map(|e| dir.join(&e.path))
        .collect();
    assert_eq!(paths.len(), 1000);
    // One full read of every file (every move of every line replayed), timed once: the price
    // the tags-only read avoids.
    let started = std::time::Instant::now();
    let readable = Library::new(&dir)
        .list()
        .unwrap()
        .iter()
        .filter(|e| record::read(&e.path, &std::fs::read(dir.join(&e.path)).unwrap()).is_ok())
        .count();
    eprintln!(
        "library: full read of 1,000 files ({readable} readable) took {:.0} ms",
        started.elapsed().as_secs_f64() * 1e3
    );
    let mut group = c.benchmark_group("library of 1,000 records");
    group.sample_size(20);
    group.throughput(Throughput::Elements(1000));
    group.bench_function("read the bytes alone", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &paths {
                n += std::fs::read(p).unwrap().len();
            }
            black_box(n)
        })
    });
    group.bench_function("list, tags-only read (cold cache)", |b| {
        b.iter(|| black_box(Library::new(&dir).list().unwrap().len()))
    });
    let warm = Library::new(&dir);
    warm.list().unwrap();
    group.bench_function("list from the cache", |b| {
        b.iter(|| black_box(warm.list().unwrap().len()))
    });
    let state = qiyuan::web::AppState::from_library(Default::default())
        .with_records(Some(dir.clone()), Default::default());
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let page = |uri: &'static str| {
        use tower::ServiceExt;
        let request = axum::http::Request::get(uri)
            .body(axum::body::Body::empty())
            .unwrap();
        let response = runtime
            .block_on(qiyuan::web::app(state.clone()).oneshot(request))
            .unwrap();
        assert_eq!(response.status(), axum::http::StatusCode::OK);
        runtime
            .block_on(http_body_util::BodyExt::collect(response.into_body()))
            .unwrap()
            .to_bytes()
            .len()
    };
    page("/records?lang=en");
    group.bench_function("GET /records (cached)", |b| {
        b.iter(|| black_box(page("/records?lang=en")))
    });
    group.bench_function("GET /records?q=kasparov (cached)", |b| {
        b.iter(|| black_box(page("/records?q=kasparov&lang=en")))
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench, library);
criterion_main!(benches);
