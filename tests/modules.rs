//! The workspace's module structure: within every crate, no module depends on itself through
//! others. A module depends on the module that holds each item it names: `crate::a::b::X`,
//! `super::X`, `self::b::X`, or `b::X` for a child `b` it declares. That includes a child naming
//! an item of its parent (`super::X`) while the parent names the child's (`pub use b::Y`): a
//! loop through the parent. The crates are the workspace's members, each with its library or
//! binary root and the roots of its `[[bin]]` targets; comments, string and character literals
//! and the `tests` modules are left out before the paths are read.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The quoted strings of the TOML array `key = [...]` in `text` (the first one).
fn toml_array(text: &str, key: &str) -> Vec<String> {
    let Some(at) = text.find(&format!("{key} = [")) else {
        return Vec::new();
    };
    let rest = &text[at..];
    let body = &rest[rest.find('[').unwrap() + 1..rest.find(']').unwrap()];
    body.split(',')
        .map(|s| s.trim().trim_matches('"').to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The source roots of the workspace's crates: each member's `src` (its library or binary
/// root) and the folder of each `[[bin]]` target's `path`.
fn crate_roots(ws: &Path) -> Vec<PathBuf> {
    let members = toml_array(
        &fs::read_to_string(ws.join("Cargo.toml")).unwrap(),
        "members",
    );
    assert!(!members.is_empty(), "no workspace members found");
    let mut roots = Vec::new();
    for member in members {
        let dir = ws.join(&member);
        if dir.join("src/lib.rs").exists() || dir.join("src/main.rs").exists() {
            roots.push(dir.join("src"));
        }
        let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        for bin in manifest.split("[[bin]]").skip(1) {
            let path = bin
                .lines()
                .find_map(|l| l.trim().strip_prefix("path = "))
                .map(|p| p.trim_matches('"'));
            if let Some(parent) = path.and_then(|p| Path::new(p).parent()) {
                roots.push(dir.join(parent));
            }
        }
    }
    roots
}

/// The `.rs` files under `dir`, skipping folders that are crate roots of their own.
fn sources(dir: &Path, roots: &BTreeSet<PathBuf>, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if !roots.contains(&path) {
                sources(&path, roots, out);
            }
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a source file below its crate root (`gpu/engine.rs` is `[gpu, engine]`,
/// `gpu/mod.rs` is `[gpu]`); the crate root's own files (`lib.rs`, `main.rs`) are `[]`.
fn module_path(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The code of a source without comments (line and block, nested), string literals (plain and
/// raw) and character literals, each replaced by a space; lifetimes stay.
fn code_of(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let at = |i: usize, k: usize| b.get(i + k).copied().unwrap_or('\0');
        match b[i] {
            '/' if at(i, 1) == '/' => {
                while i < b.len() && b[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i, 1) == '*' => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == '/' && at(i, 1) == '*' {
                        depth += 1;
                        i += 2;
                    } else if b[i] == '*' && at(i, 1) == '/' {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                out.push(' ');
            }
            'r' if (at(i, 1) == '"' || (at(i, 1) == '#' && matches!(at(i, 2), '#' | '"')))
                && !i
                    .checked_sub(1)
                    .is_some_and(|p| b[p].is_alphanumeric() || b[p] == '_') =>
            {
                let hashes = (1..).take_while(|&k| at(i, k) == '#').count();
                i += 2 + hashes;
                let close: Vec<char> = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                while i < b.len() && b[i..].iter().take(close.len()).ne(close.iter()) {
                    i += 1;
                }
                i += close.len();
                out.push(' ');
            }
            '"' => {
                i += 1;
                while i < b.len() && b[i] != '"' {
                    i += if b[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                out.push(' ');
            }
            '\'' if at(i, 1) == '\\' => {
                i += 2;
                while i < b.len() && b[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push(' ');
            }
            '\'' if at(i, 2) == '\'' => {
                i += 3;
                out.push(' ');
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// The code before the tests module, whose paths are the tests' (they may name anything).
fn without_tests(code: &str) -> &str {
    match code.find("mod tests") {
        Some(i) => &code[..i],
        None => code,
    }
}

/// The child modules a file declares (`mod x;`, `pub mod x;`, `pub(crate) mod x;`).
fn declared(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (i, _) in code.match_indices("mod ") {
        let before = code[..i].trim_end();
        let keyword = before.is_empty()
            || before.ends_with(['\n', ';', '}', ']', ')'])
            || before.ends_with("pub");
        let name: String = code[i + 4..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if keyword && !name.is_empty() && code[i + 4 + name.len()..].trim_start().starts_with(';') {
            found.insert(name);
        }
    }
    found
}

/// The paths that start at the head of `text`: `a::b` as `[a, b]`, and a group `{a::b, c}` as
/// each of its members.
fn paths_at(text: &str) -> Vec<Vec<String>> {
    let ident = |t: &str| -> Vec<String> {
        t.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect::<String>()
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    };
    let Some(group) = text.trim_start().strip_prefix('{') else {
        return vec![ident(text)];
    };
    let (mut depth, mut members, mut start) = (0, Vec::new(), 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                members.push(&group[start..i]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                members.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    members
        .into_iter()
        .flat_map(|m| {
            let m = m.trim();
            match m.find('{') {
                // `a::{b, c}` inside a group: each of `a::b`, `a::c`.
                Some(open) => {
                    let head = ident(&m[..open]);
                    paths_at(&m[open..])
                        .into_iter()
                        .map(|tail| head.iter().cloned().chain(tail).collect())
                        .collect::<Vec<_>>()
                }
                None => vec![ident(m)],
            }
        })
        .filter(|p: &Vec<String>| !p.is_empty())
        .collect()
}

/// The absolute paths (below the crate root) a module at `own` names, which declares the
/// children `children`: `crate::a::b`, `super::b`, `self::b`, and `b::c` for a child `b`.
fn imports(code: &str, own: &[String], children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let code = without_tests(code);
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let c = bytes[i];
        let starts = (c.is_ascii_alphabetic() || c == b'_')
            && !(i > 0
                && (bytes[i - 1].is_ascii_alphanumeric()
                    || bytes[i - 1] == b'_'
                    || (bytes[i - 1] == b':' && i > 1 && bytes[i - 2] == b':')));
        if !starts {
            i += 1;
            continue;
        }
        let word: String = code[i..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let after = i + word.len();
        let rest = &code[after..];
        let base: Option<Vec<String>> = match word.as_str() {
            "crate" => Some(Vec::new()),
            "super" => Some(own[..own.len().saturating_sub(1)].to_vec()),
            "self" => Some(own.to_vec()),
            w if children.contains(w) => {
                let mut p = own.to_vec();
                p.push(w.to_string());
                Some(p)
            }
            _ => None,
        };
        if let (Some(mut base), Some(tail)) = (base, rest.strip_prefix("::")) {
            // `super::super::x` climbs again.
            let mut tail = tail;
            while let Some(t) = tail.strip_prefix("super::") {
                base.pop();
                tail = t;
            }
            found.extend(
                paths_at(tail)
                    .into_iter()
                    .map(|t| [base.clone(), t].concat()),
            );
        }
        i = after;
    }
    found
}

/// The names a module re-exports (`pub use x::Y;`, `pub(crate) use`, groups), each with the
/// absolute path it stands for.
fn reexports(
    code: &str,
    own: &[String],
    children: &BTreeSet<String>,
) -> BTreeMap<String, Vec<String>> {
    let code = without_tests(code);
    let mut names = BTreeMap::new();
    for keyword in ["pub use ", "pub(crate) use "] {
        for (i, _) in code.match_indices(keyword) {
            let statement = &code[i + keyword.len() - 4..];
            let statement = &statement[..statement.find(';').unwrap_or(statement.len())];
            for path in imports(statement, own, children) {
                if let Some(name) = path.last() {
                    names.insert(name.clone(), path.clone());
                }
            }
        }
    }
    names
}

/// The module that holds the item a path names: its longest prefix that is a module of the
/// crate, through the re-exports of `aliases` (a module's re-exported name stands for its source).
fn owner(
    path: &[String],
    aliases: &BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>,
) -> Vec<String> {
    let mut path = path.to_vec();
    for _ in 0..8 {
        let module = (0..=path.len())
            .rev()
            .map(|k| path[..k].to_vec())
            .find(|p| aliases.contains_key(p))
            .unwrap_or_default();
        let through = path
            .get(module.len())
            .and_then(|name| aliases[&module].get(name))
            .filter(|source| **source != path[..=module.len()]);
        match through {
            Some(source) => path = [source.clone(), path[module.len() + 1..].to_vec()].concat(),
            None => return module,
        }
    }
    Vec::new()
}

/// A crate's modules (by path) with their code: what [`dependencies`] reads.
type Crate = BTreeMap<Vec<String>, String>;

/// The crates of the workspace, each by its root's name: module paths and code.
fn crates() -> BTreeMap<String, Crate> {
    let ws = workspace();
    let roots = crate_roots(&ws);
    let all: BTreeSet<PathBuf> = roots.iter().cloned().collect();
    let mut out = BTreeMap::new();
    for root in roots {
        let mut files = Vec::new();
        sources(&root, &all, &mut files);
        let name = root.strip_prefix(&ws).unwrap().display().to_string();
        let modules = files
            .iter()
            .map(|f| {
                (
                    module_path(&root, f),
                    code_of(&fs::read_to_string(f).unwrap()),
                )
            })
            .collect();
        out.insert(name, modules);
    }
    out
}

/// Which module of `krate` depends on which: the owner of every item each one names.
fn dependencies(krate: &Crate) -> BTreeMap<String, BTreeSet<String>> {
    let aliases: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>> = krate
        .iter()
        .map(|(own, code)| {
            let children = declared(without_tests(code));
            (own.clone(), reexports(code, own, &children))
        })
        .collect();
    let show = |p: &[String]| {
        if p.is_empty() {
            "(root)".to_string()
        } else {
            p.join("/")
        }
    };
    let mut graph = BTreeMap::new();
    for (own, code) in krate {
        let children = declared(without_tests(code));
        let edges: &mut BTreeSet<String> = graph.entry(show(own)).or_default();
        for path in imports(code, own, &children) {
            let target = owner(&path, &aliases);
            if target != *own {
                edges.insert(show(&target));
            }
        }
    }
    graph
}

/// A cycle in `graph`, if it has one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => {
                    let from = stack.iter().position(|s| s == next).unwrap();
                    let mut c = stack[from..].to_vec();
                    c.push(next.clone());
                    return Some(c);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(next, graph, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if !state.contains_key(node) {
            if let Some(c) = visit(node, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_module_depends_on_itself_through_others() {
    let crates = crates();
    for expected in [
        "solver/src",
        "solver/src/bin/octal",
        "gpu/src",
        "engines/src",
    ] {
        assert!(crates.contains_key(expected), "{expected} is not found");
    }
    let cycles: Vec<String> = crates
        .iter()
        .filter_map(|(name, krate)| {
            let graph = dependencies(krate);
            cycle(&graph).map(|c| format!("{name}: {}", c.join(" -> ")))
        })
        .collect();
    assert!(
        cycles.is_empty(),
        "modules depend on themselves through others:\n{}",
        cycles.join("\n")
    );
}

/// The scan reads the paths a module names, finds a sibling cycle, and a loop through a parent:
/// `a/b.rs` names an item of `a/mod.rs` (`super::Y`) while `a/mod.rs` re-exports `b`'s; it does
/// not see paths inside comments, strings or the tests module.
#[test]
fn the_scan_finds_a_loop_through_a_parent_module() {
    let own = vec!["a".to_string()];
    let children = BTreeSet::from(["k".to_string()]);
    let found = imports(
        "use crate::b::X;\nuse crate::{d, e::{f, g}};\nfn f() { super::c::g(); k::h() }",
        &own,
        &children,
    );
    let names: Vec<String> = found.iter().map(|p| p.join("::")).collect();
    assert_eq!(names, ["b::X", "d", "e::f", "e::g", "c::g", "a::k::h"]);
    let hidden = code_of(
        "let s = \"crate::x::Y\"; /* crate::z /* nested */ crate::w */ let c = 'x'; let r = r#\"super::q\"#;\n// crate::v\nfn f<'a>() {}\nmod tests { use crate::t; }",
    );
    assert!(
        imports(&hidden, &own, &BTreeSet::new()).is_empty(),
        "{hidden}"
    );
    assert!(hidden.contains("<'a>"), "lifetimes stay: {hidden}");

    // A planted tree: lib.rs declares `a` and `s`; `a/mod.rs` declares `b` and re-exports its
    // `X`; `a/b.rs` names `super::Y`, an item of `a/mod.rs`; `s` names `crate::a::X`, which is
    // `b`'s (a re-export is its source's).
    let planted = |child: &str| -> Crate {
        let text = |t: &str| code_of(t);
        BTreeMap::from([
            (vec![], text("mod a;\nmod s;")),
            (
                vec!["a".to_string()],
                text("mod b;\npub use b::X;\npub struct Y;"),
            ),
            (vec!["a".to_string(), "b".to_string()], text(child)),
            (vec!["s".to_string()], text("use crate::a::X;")),
        ])
    };
    let looped = dependencies(&planted("use super::Y;\npub struct X;"));
    let c = cycle(&looped).expect("the loop through the parent is found");
    assert!(c.contains(&"a".to_string()) && c.contains(&"a/b".to_string()));
    let clean = dependencies(&planted("pub struct X;\npub struct Y;"));
    assert!(cycle(&clean).is_none(), "{clean:?}");
    assert_eq!(
        clean["s"],
        BTreeSet::from(["a/b".to_string()]),
        "through the re-export"
    );
    // A sibling cycle.
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert!(cycle(&g).is_some());
    g.remove("b");
    assert!(cycle(&g).is_none());
}
