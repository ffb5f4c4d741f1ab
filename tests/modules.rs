//! The workspace's module structure: within every crate (and within every directory module),
//! no two modules import each other, directly or through others. A module's imports are the
//! `crate::X` and `super::X` paths in its code (comments left out, so intra-doc links to other
//! modules do not count).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The crate roots of the workspace: a folder of sources whose `crate::` means that crate.
const ROOTS: &[&str] = &[
    "octal-core/src",
    "octal-unroll/src",
    "octal-macros/src",
    "kernels-gen/src",
    "solver/src",
    "survey/src",
    "solver/src/bin/octal",
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
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

/// The code of a source without its comments and the tests module's imports of `super`.
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths a file names: `crate::a::b` as `[a, b]`, `super::x` resolved against the
/// file's own path. Paths inside `mod tests` are the tests', and may name their parent.
fn imports(code: &str, own: &[String]) -> Vec<Vec<String>> {
    let code = match code.find("mod tests") {
        Some(i) => &code[..i],
        None => code,
    };
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    for (prefix, base) in [
        ("crate::", Vec::new()),
        ("super::", {
            let mut p = own.to_vec();
            p.pop();
            p
        }),
    ] {
        let mut at = 0;
        while let Some(i) = code[at..].find(prefix) {
            let start = at + i;
            at = start + prefix.len();
            if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
                continue;
            }
            for rest in paths_at(&code[at..]) {
                let mut path = base.clone();
                path.extend(rest);
                found.push(path);
            }
        }
    }
    found
}

/// The paths that start at the head of `text`: `a::b` as `[a, b]`, and a group `{a::b, c}` as
/// each of its members (only each member's first segment matters).
fn paths_at(text: &str) -> Vec<Vec<String>> {
    let ident = |t: &str| -> Vec<String> {
        t.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect::<String>()
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    };
    let Some(group) = text.strip_prefix('{') else {
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
        .map(ident)
        .filter(|p| !p.is_empty())
        .collect()
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

/// For each crate and each directory module in it: the graph of which child imports which
/// sibling, keyed by the parent's path.
fn graphs() -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let ws = workspace();
    let roots: BTreeSet<PathBuf> = ROOTS.iter().map(|r| ws.join(r)).collect();
    let mut all = BTreeMap::new();
    for name in ROOTS {
        let root = ws.join(name);
        let mut files = Vec::new();
        sources(&root, &roots, &mut files);
        for file in files {
            let own = module_path(&root, &file);
            let code = code_of(&fs::read_to_string(&file).unwrap());
            for target in imports(&code, &own) {
                // The edge between the two modules' children of their deepest common parent.
                let common = own.iter().zip(&target).take_while(|(a, b)| a == b).count();
                if common >= own.len() || common >= target.len() {
                    continue; // a module naming itself, its parent or its own children
                }
                let parent = format!("{name}/{}", own[..common].join("/"));
                all.entry(parent)
                    .or_insert_with(BTreeMap::new)
                    .entry(own[common].clone())
                    .or_insert_with(BTreeSet::new)
                    .insert(target[common].clone());
            }
        }
    }
    all
}

#[test]
fn no_module_imports_itself_through_others() {
    let graphs = graphs();
    assert!(
        graphs.keys().any(|k| k.contains("solver/src")),
        "no imports found: the scan is broken"
    );
    let cycles: Vec<String> = graphs
        .iter()
        .filter_map(|(parent, g)| cycle(g).map(|c| format!("{parent}: {}", c.join(" -> "))))
        .collect();
    assert!(
        cycles.is_empty(),
        "modules import in a circle:\n{}",
        cycles.join("\n")
    );
}

#[test]
fn the_scan_finds_a_cycle_when_there_is_one() {
    let own = vec!["a".to_string()];
    let found = imports(
        "use crate::b::X;\nuse crate::{d, e::f};\nfn f() { super::c::g() }",
        &own,
    );
    let names: Vec<String> = found.iter().map(|p| p.join("::")).collect();
    assert_eq!(names, ["b::X", "d", "e::f", "c::g"]);
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert!(cycle(&g).is_some());
    g.remove("b");
    assert!(cycle(&g).is_none());
}
