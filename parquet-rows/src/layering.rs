//! Imports between the crate's top-level modules run one way: this test reads
//! the sources, collects every `crate::module` a module names outside its
//! tests (`use crate::...` lines and paths in code), and fails on a cycle.
//! A module that needs something from a module above it moves that thing
//! down instead (as `shape.rs`, `group.rs` and `chunk::LoadedColumn` were).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crate's `src` directory.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `text` without comments and without the contents of string and character
/// literals (so braces and `crate::` in them do not count).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
                i = end;
            }
            b'r' if b.get(i + 1) == Some(&b'#')
                || (b.get(i + 1) == Some(&b'"') && i > 0 && !b[i - 1].is_ascii_alphanumeric()) =>
            {
                // A raw string: r"..." or r#"..."#.
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                let close = format!("\"{}", "#".repeat(hashes));
                let start = i + 2 + hashes;
                i = text[start..]
                    .find(&close)
                    .map_or(b.len(), |e| start + e + close.len());
                out.push_str("\"\"");
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            b'\'' => {
                // A character literal ('x', '\n', '\u{..}'), or a lifetime.
                if b.get(i + 1) == Some(&b'\\') {
                    i += 2;
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                    i += 1;
                } else if let Some(c) = text[i + 1..].chars().next() {
                    if text[i + 1 + c.len_utf8()..].starts_with('\'') {
                        i += 2 + c.len_utf8();
                    } else {
                        out.push('\'');
                        i += 1;
                    }
                } else {
                    i += 1;
                }
            }
            _ => {
                let c = text[i..].chars().next().unwrap();
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

/// Cuts every `#[cfg(test)]` item out of `code`: inline modules and
/// functions are removed to their closing brace; `mod name;` declarations
/// are returned, so that the files they load are skipped.
fn without_tests(code: &str) -> (String, Vec<String>) {
    let mut kept = String::new();
    let mut test_files = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let item_end = after.find([';', '{']).unwrap_or(after.len());
        let head = after[..item_end].trim();
        if after[item_end..].starts_with(';') {
            if let Some(name) = head
                .split_whitespace()
                .last()
                .filter(|_| head.contains("mod "))
            {
                test_files.push(name.to_owned());
            }
            rest = &after[item_end + 1..];
            continue;
        }
        let mut depth = 0;
        let mut end = after.len();
        for (j, c) in after[item_end..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = item_end + j + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    kept.push_str(rest);
    (kept, test_files)
}

/// The top-level modules each top-level module names (`crate::x`), outside tests.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let root = src();
    let mut paths = Vec::new();
    files(&root, &mut paths);
    paths.sort();
    let mut sources = BTreeMap::new();
    let mut test_only = BTreeSet::new();
    for path in &paths {
        let (code, tests) = without_tests(&code_only(&std::fs::read_to_string(path).unwrap()));
        let dir = if path
            .file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs")
        {
            path.parent().unwrap().to_path_buf()
        } else {
            path.with_extension("")
        };
        for name in tests {
            test_only.insert(dir.join(format!("{name}.rs")));
            test_only.insert(dir.join(&name).join("mod.rs"));
        }
        sources.insert(path.clone(), code);
    }
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, code) in &sources {
        let relative = path.strip_prefix(&root).unwrap();
        if relative == Path::new("lib.rs")
            || test_only
                .iter()
                .any(|t| path.starts_with(t.with_extension("")) || path == t)
        {
            continue;
        }
        let top = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let top = top.trim_end_matches(".rs").to_owned();
        let names = graph.entry(top.clone()).or_default();
        for (at, _) in code.match_indices("crate::") {
            if at > 0 && code.as_bytes()[at - 1] == b'$' {
                continue; // `$crate::` in a macro: resolved where it expands
            }
            let tail = &code[at + "crate::".len()..];
            let groups: Vec<&str> = if let Some(group) = tail.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                group.split(',').collect()
            } else {
                vec![tail]
            };
            for g in groups {
                let name: String = g
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != top {
                    names.insert(name);
                }
            }
        }
    }
    // Only modules: `crate::Error` names a re-export at the root.
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for names in graph.values_mut() {
        names.retain(|n| modules.contains(n));
    }
    graph
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, (usize, usize)>,
        stack: Vec<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(state: &mut State<'g>, module: &'g str) {
        let next = state.index.len();
        state.index.insert(module, (next, next));
        state.stack.push(module);
        for named in &state.graph[module] {
            let named = named.as_str();
            match state.index.get(named).copied() {
                None => {
                    visit(state, named);
                    let low = state.index[named].1.min(state.index[module].1);
                    state.index.get_mut(module).unwrap().1 = low;
                }
                Some((index, _)) if state.stack.contains(&named) => {
                    let low = index.min(state.index[module].1);
                    state.index.get_mut(module).unwrap().1 = low;
                }
                Some(_) => {}
            }
        }
        let (index, low) = state.index[module];
        if index == low {
            let at = state.stack.iter().rposition(|&x| x == module).unwrap();
            let mut component: Vec<String> = state.stack.drain(at..).map(str::to_owned).collect();
            if component.len() > 1 {
                component.sort();
                state.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for module in graph.keys() {
        if !state.index.contains_key(module.as_str()) {
            visit(&mut state, module);
        }
    }
    state.found
}

#[test]
fn no_import_cycle_between_top_level_modules() {
    let graph = imports();
    assert!(graph.len() > 10, "the sources were read: {graph:?}");
    assert!(graph["column"].contains("encoding"), "{graph:?}");
    let found = cycles(&graph);
    assert!(
        found.is_empty(),
        "import cycles between top-level modules: {found:?}"
    );
}

#[test]
fn the_reader_sees_cycles_and_skips_tests() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", &["b"][..]),
        ("b", &["c"][..]),
        ("c", &["a"][..]),
        ("d", &["a"][..]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.iter().map(|s| (*s).to_owned()).collect()))
    .collect();
    assert_eq!(cycles(&graph), [["a", "b", "c"]]);
    let code = code_only(
        "use crate::a; // crate::b\nfn f() { let s = \"crate::c {\"; let c = '{'; }\n\
         #[cfg(test)]\nmod tests { use crate::d; fn g() {} }\n#[cfg(test)]\nmod more;\nfn h<'p>() {}",
    );
    let (kept, test_files) = without_tests(&code);
    assert!(
        kept.contains("crate::a") && kept.contains("fn h<'p>"),
        "{kept}"
    );
    assert!(
        !kept.contains("crate::b") && !kept.contains("crate::c") && !kept.contains("crate::d"),
        "{kept}"
    );
    assert_eq!(test_files, ["more"]);
}
