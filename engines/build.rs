//! The build step: for every game in `games/`, discover its sparse space and rare table (far past
//! the last rare heap) and write `$OUT_DIR/games.rs`, which holds the list of definitions and,
//! for each game whose table is small enough, one `octal_macros::unrolled!` invocation: an
//! unrolled speculative loop specialised for that table.

use octal_core::codec::LoopTable;
use octal_core::discover::{self, BUILD_HEAPS, DISCOVERY_START};
use octal_core::{Code, SparseKind};
use serde::Deserialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Larger tables are not unrolled (the generic loop serves them).
const UNROLL_MAX: usize = 8192;

/// One file of `games/`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Def {
    code: String,
    name: Option<String>,
    #[serde(default)]
    aliases: Vec<String>,
    oeis: Option<String>,
    notes: Option<String>,
}

fn main() {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games");
    println!("cargo:rerun-if-changed={}", games.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&games)
        .unwrap_or_else(|e| panic!("games/: {e}"))
        .map(|e| e.expect("games/ entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let defs: Vec<(String, Def, Code)> = files.iter().map(|p| read(p)).collect();
    // The tables, computed on all cores.
    let tables: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = defs
            .iter()
            .map(|(file, _, code)| {
                s.spawn(move || {
                    discover::table_for(&code.rules(), DISCOVERY_START, BUILD_HEAPS)
                        .unwrap_or_else(|e| panic!("games/{file}: {e}"))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("table"))
            .collect()
    });
    let mut list = String::from("pub static GAMES: &[GameDef] = &[\n");
    let mut loops = String::new();
    for ((file, def, code), table) in defs.iter().zip(tables) {
        let ident = format!("g{}", code.to_string().replace('.', "_"));
        let (space, table_src, unrolled) = match &table {
            None => (
                "None".to_string(),
                "&[]".to_string(),
                "Err(\"no sparse space\")".to_string(),
            ),
            Some((space, table, max)) => {
                let kind = match space.kind {
                    SparseKind::Range => "SparseKind::Range".to_string(),
                    SparseKind::Domain { k } => format!("SparseKind::Domain {{ k: {k} }}"),
                };
                let entries: Vec<String> = table
                    .entries()
                    .iter()
                    .map(|(n, v)| format!("({n}, {v})"))
                    .collect();
                let lt = LoopTable::new(&code.rules(), *space, table);
                let unrolled = if lt.entries.len() > UNROLL_MAX {
                    println!(
                        "cargo:warning=games/{file}: {code} has {} rare entries, more than {UNROLL_MAX}: not unrolled, it runs on the generic engine",
                        lt.entries.len()
                    );
                    format!(
                        "Err(\"{} rare entries: too many to unroll\")",
                        lt.entries.len()
                    )
                } else if *max >= 512 {
                    format!("Err(\"values reach {max}: one-byte keys do not hold them\")")
                } else {
                    let fp = table.fingerprint(space);
                    loops += &format!(
                        "octal_macros::unrolled! {{\n{}}}\n",
                        octal_unroll::invocation(&ident, &code.to_string(), fp, false, 256, &lt)
                    );
                    format!(
                        "Ok(UnrolledLoop {{ fingerprint: {ident}::FINGERPRINT, entries: {ident}::ENTRIES, reach: {ident}::REACH, mark: {ident}::mark, mex: {ident}::mex }})"
                    )
                };
                (
                    format!(
                        "Some(SparseSpace {{ kind: {kind}, mask: {:#x} }})",
                        space.mask
                    ),
                    format!("&[{}]", entries.join(", ")),
                    unrolled,
                )
            }
        };
        let opt = |s: &Option<String>| s.as_ref().map_or("None".into(), |s| format!("Some({s:?})"));
        writeln!(
            list,
            "    GameDef {{ file: {file:?}, code: {:?}, name: {:?}, aliases: &{:?}, oeis: {}, notes: {:?}, space: {space}, table: {table_src}, built_to: {BUILD_HEAPS}, unrolled: {unrolled} }},",
            code.to_string(),
            def.name.clone().unwrap_or_else(|| code.to_string()),
            def.aliases,
            opt(&def.oeis),
            def.notes.clone().unwrap_or_default(),
        )
        .unwrap();
    }
    list += "];\n";
    list += &stale_fixture(&mut loops);
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("games.rs");
    std::fs::write(&out, format!("{list}\n{loops}")).expect("write games.rs");
}

/// Heaps of the deliberately short discovery behind the stale-table fixture.
const FIXTURE_HEAPS: usize = 5000;

/// An unrolled loop for Officers from a deliberately short discovery (heaps 0..FIXTURE_HEAPS): its table
/// lacks the rare heaps from 5000 to 20627, so a run on it must find them, drop the loop and
/// still give the right values. Tests use it; nothing else does.
fn stale_fixture(loops: &mut String) -> String {
    let code: Code = "0.6".parse().expect("Officers");
    let rules = code.rules();
    let (_, table, _) = discover::table_for(&rules, FIXTURE_HEAPS, FIXTURE_HEAPS)
        .expect("Officers' values fit")
        .expect("Officers has a sparse space");
    let space = octal_core::SparseSpace {
        kind: SparseKind::Range,
        mask: 0x1ee,
    };
    let lt = LoopTable::new(&rules, space, &table);
    let fp = table.fingerprint(&space);
    *loops += &format!(
        "octal_macros::unrolled! {{\n{}}}\n",
        octal_unroll::invocation("officers_short", "0.6", fp, false, 256, &lt)
    );
    let entries: Vec<String> = table
        .entries()
        .iter()
        .map(|(n, v)| format!("({n}, {v})"))
        .collect();
    format!(
        "/// Officers' table from heaps 0..{FIXTURE_HEAPS} only, and its unrolled loop: a stale build-time table, for tests.\n#[doc(hidden)]\npub static STALE_OFFICERS: (&[(usize, u16)], UnrolledLoop) = (&[{}], UnrolledLoop {{ fingerprint: officers_short::FINGERPRINT, entries: officers_short::ENTRIES, reach: officers_short::REACH, mark: officers_short::mark, mex: officers_short::mex }});\n",
        entries.join(", ")
    )
}

/// Reads one definition; a malformed file stops the build with its name and the field at fault.
fn read(path: &Path) -> (String, Def, Code) {
    println!("cargo:rerun-if-changed={}", path.display());
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("games/{file}: {e}"));
    let def: Def = toml::from_str(&text).unwrap_or_else(|e| panic!("games/{file}: {e}"));
    let code = def
        .code
        .parse::<Code>()
        .unwrap_or_else(|e| panic!("games/{file}: field `code`: {e}"));
    (file, def, code)
}
