//! The other libraries' lines, timed by `peers/peers.py` (polars, pyarrow,
//! duckdb) and written in the report's own line format, merged into the table.

use std::path::{Path, PathBuf};

use crate::harness::{print_line, Kind, Measured};

/// Where `peers/run.sh` writes its lines by default.
pub fn default_path() -> PathBuf {
    parquet_rows_suite::workspace_root()
        .join("target")
        .join("peers.txt")
}

/// The lines of a peers file: `fixture variant rows median_ns min_ns ...`
/// (further fields ignored), `#` comments kept for the report.
pub struct Peers {
    pub comments: Vec<String>,
    pub lines: Vec<Measured>,
}

fn parse_line(line: &str) -> Result<Measured, String> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() < 5 {
        return Err(format!(
            "expected `fixture variant rows median min`: `{line}`"
        ));
    }
    let num = |s: &str| {
        s.parse::<f64>()
            .map_err(|e| format!("`{s}` in `{line}`: {e}"))
    };
    Ok(Measured {
        fixture: f[0].to_owned(),
        variant: f[1].to_owned(),
        kind: Kind::Peer,
        rows: f[2]
            .parse()
            .map_err(|e| format!("`{}` in `{line}`: {e}", f[2]))?,
        median_ns: num(f[3])?,
        min_ns: num(f[4])?,
        allocs_per_row: f64::NAN,
        ratio_to_floor: f64::NAN,
    })
}

/// Reads a peers file; `Err` names the file and the first bad line.
pub fn read(path: &Path) -> Result<Peers, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut peers = Peers {
        comments: Vec::new(),
        lines: Vec::new(),
    };
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("fixture ") {
            continue;
        }
        if let Some(c) = line.strip_prefix('#') {
            peers.comments.push(c.trim().to_owned());
            continue;
        }
        peers
            .lines
            .push(parse_line(line).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    Ok(peers)
}

/// Prints and appends the peers' lines of the fixtures measured in this run,
/// with their ratio to this run's floor of the same fixture.
pub fn merge(all: &mut Vec<Measured>, path: &Path, peers: Peers) {
    println!("# peers from {}:", path.display());
    for c in &peers.comments {
        println!("#   {c}");
    }
    let mut skipped = 0;
    for mut m in peers.lines {
        let floor = all
            .iter()
            .find(|f| f.fixture == m.fixture && f.kind == Kind::Floor)
            .map(|f| f.median_ns);
        let Some(floor) = floor else {
            skipped += 1;
            continue;
        };
        m.ratio_to_floor = m.median_ns / floor;
        print_line(&m);
        all.push(m);
    }
    if skipped > 0 {
        println!("# {skipped} peer line(s) of fixtures not measured in this run left out");
    }
}
