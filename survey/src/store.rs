//! The survey directory: `survey.json`'s facts are rebuilt from it at any time.
//!
//! * `meta.json`: the digits, the heap budget, the version of octal and the shard;
//! * `games/CODE.json`: one record a computed game, written (atomically) as it finishes, so a
//!   killed survey resumes where it stopped and loses at most the games under way;
//! * the tables (`survey.md`, `survey.csv`, `lookup.csv`, `survey.json`) and `times.csv`,
//!   written when a whole survey is complete.
//!
//! A larger budget extends a survey: its open games are computed again to it. Shards are
//! directories of one survey with `K/N` in their meta; [`merge`] checks that they are all there,
//! complete and of the same survey, and combines them into the directory an unsharded run makes.

use crate::classes::{rule_classes, Classes};
use crate::codes::{codes, Shard};
use crate::growth::grow_limit;
use crate::record::GameRecord;
use crate::tables::{self, About};
use octal_core::Code;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// What makes two directories parts of one survey.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    pub digits: usize,
    pub max_n: usize,
    /// The most heaps a game whose sparse space holds goes on to past `max_n`
    /// ([`crate::growth`]); none: every game stops at `max_n`.
    #[serde(default)]
    pub grow_to: Option<usize>,
    /// The version of octal that computed it.
    pub version: String,
    pub shard: Shard,
}

impl Meta {
    /// The survey in words: its digits, budget, version and shard.
    pub fn describe(&self) -> String {
        let grow = self
            .grow_to
            .map_or(String::new(), |g| format!(" (growing to {g})"));
        format!(
            "a survey of {} digits to {} heaps{grow} by octal {} (shard {})",
            self.digits, self.max_n, self.version, self.shard
        )
    }
}

/// Why a survey directory cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot make the survey directory {}", path.display())]
    BadOut {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}", path.display())]
    Unwritable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read {}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is damaged: {message}", path.display())]
    Corrupt { path: PathBuf, message: String },
    #[error("{} holds {held}, not {asked}", path.display())]
    Different {
        path: PathBuf,
        held: String,
        asked: String,
    },
    #[error("{} is not a survey directory (no meta.json)", .0.display())]
    NotSurvey(PathBuf),
    #[error("{} asks for {asked} heaps, fewer than the {held} it was computed to", path.display())]
    Smaller {
        path: PathBuf,
        held: usize,
        asked: usize,
    },
    #[error("{} is incomplete: {missing} of its games are not computed (resume it first)", path.display())]
    Incomplete { path: PathBuf, missing: usize },
    #[error("shards do not cover the survey: {0}")]
    Shards(String),
    #[error("{} is not empty: merge into a new directory", .0.display())]
    Occupied(PathBuf),
}

impl StoreError {
    /// Whether the directories given were at fault (bad input), not the running.
    pub fn is_bad_input(&self) -> bool {
        !matches!(
            self,
            StoreError::Unreadable { .. } | StoreError::Unwritable { .. }
        )
    }
}

/// An open survey directory.
#[derive(Debug)]
pub struct SurveyDir {
    path: PathBuf,
    pub meta: Meta,
}

fn unwritable(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Unwritable {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes `text` to `path` through a temporary file and a rename: a reader (or a resumed survey
/// after a kill) sees the old file or the new one, never half of one.
fn write_atomic(path: &Path, text: &str) -> Result<(), StoreError> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, text).map_err(unwritable(&tmp))?;
    fs::rename(&tmp, path).map_err(unwritable(path))
}

fn read_meta(path: &Path) -> Result<Option<Meta>, StoreError> {
    let file = path.join("meta.json");
    match fs::read_to_string(&file) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| StoreError::Corrupt {
                path: file,
                message: e.to_string(),
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(StoreError::Unreadable { path: file, source }),
    }
}

impl SurveyDir {
    /// Starts the survey `meta` in `path`, or resumes it there: a directory of another survey
    /// (digits, version, shard) is refused; a larger budget extends it.
    pub fn create(path: &Path, meta: Meta) -> Result<SurveyDir, StoreError> {
        fs::create_dir_all(path.join("games")).map_err(|source| StoreError::BadOut {
            path: path.to_path_buf(),
            source,
        })?;
        match read_meta(path)? {
            Some(held) => {
                let mut dir = SurveyDir {
                    path: path.to_path_buf(),
                    meta: held.clone(),
                };
                // The growth's limit as the larger budget leaves it.
                let budget = held.max_n.max(meta.max_n);
                let grow_to = |m: &Meta| m.grow_to.and_then(|g| grow_limit(g, budget));
                if held.digits != meta.digits
                    || held.version != meta.version
                    || held.shard != meta.shard
                    || grow_to(&held) != grow_to(&meta)
                {
                    return Err(StoreError::Different {
                        path: path.to_path_buf(),
                        held: held.describe(),
                        asked: meta.describe(),
                    });
                }
                dir.extend(meta.max_n)?;
                Ok(dir)
            }
            None => {
                let dir = SurveyDir {
                    path: path.to_path_buf(),
                    meta,
                };
                dir.write_meta()?;
                Ok(dir)
            }
        }
    }

    /// Opens the survey in `path`.
    pub fn open(path: &Path) -> Result<SurveyDir, StoreError> {
        let meta = read_meta(path)?.ok_or_else(|| StoreError::NotSurvey(path.to_path_buf()))?;
        Ok(SurveyDir {
            path: path.to_path_buf(),
            meta,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn write_meta(&self) -> Result<(), StoreError> {
        let text = serde_json::to_string_pretty(&self.meta).expect("JSON of plain data");
        write_atomic(&self.path.join("meta.json"), &text)
    }

    /// Raises the budget to `max_n` heaps (the open games are computed again to it); a budget
    /// at or past the growth's limit leaves nothing to grow to.
    pub fn extend(&mut self, max_n: usize) -> Result<(), StoreError> {
        if max_n < self.meta.max_n {
            return Err(StoreError::Smaller {
                path: self.path.clone(),
                held: self.meta.max_n,
                asked: max_n,
            });
        }
        if max_n > self.meta.max_n {
            self.meta.max_n = max_n;
            self.meta.grow_to = self.meta.grow_to.and_then(|g| grow_limit(g, max_n));
            self.write_meta()?;
        }
        Ok(())
    }

    /// The records written so far, by code.
    pub fn records(&self) -> Result<BTreeMap<String, GameRecord>, StoreError> {
        let games = self.path.join("games");
        let entries = fs::read_dir(&games).map_err(|source| StoreError::Unreadable {
            path: games.clone(),
            source,
        })?;
        let mut out = BTreeMap::new();
        for e in entries {
            let e = e.map_err(|source| StoreError::Unreadable {
                path: games.clone(),
                source,
            })?;
            let path = e.path();
            if path.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let text = fs::read_to_string(&path).map_err(|source| StoreError::Unreadable {
                path: path.clone(),
                source,
            })?;
            let r: GameRecord = serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
                path: path.clone(),
                message: e.to_string(),
            })?;
            out.insert(r.code.clone(), r);
        }
        Ok(out)
    }

    /// The games this directory's shard computes, in order.
    pub fn games(&self) -> Vec<Code> {
        rule_classes(self.meta.digits)
            .iter()
            .enumerate()
            .filter(|(i, _)| self.meta.shard.takes(*i))
            .map(|(_, r)| r.first().clone())
            .collect()
    }

    /// The games still to compute: without a record, or open under a smaller budget.
    pub fn pending(&self) -> Result<Vec<Code>, StoreError> {
        let records = self.records()?;
        Ok(self
            .games()
            .into_iter()
            .filter(|c| {
                records
                    .get(&c.to_string())
                    .is_none_or(|r| r.period.is_none() && r.max_n < self.meta.max_n)
            })
            .collect())
    }

    /// Keeps the record of one computed game.
    pub fn write(&self, record: &GameRecord) -> Result<(), StoreError> {
        let text = serde_json::to_string(record).expect("JSON of plain data");
        write_atomic(
            &self
                .path
                .join("games")
                .join(format!("{}.json", record.code)),
            &text,
        )
    }

    /// Writes the tables of a complete, whole survey, its classes formed from `records`.
    pub fn write_tables(
        &self,
        records: &BTreeMap<String, GameRecord>,
        classes: &Classes,
    ) -> Result<(), StoreError> {
        let about = About {
            digits: self.meta.digits,
            max_n: self.meta.max_n,
            grow_to: self.meta.grow_to,
            codes: codes(self.meta.digits).len(),
            version: &self.meta.version,
        };
        let files = [
            ("survey.md", tables::markdown(&about, classes)),
            ("survey.csv", tables::csv(classes)),
            ("lookup.csv", tables::lookup_csv(classes)),
            ("survey.json", tables::json(&about, classes)),
            (
                "times.csv",
                tables::times(&records.values().collect::<Vec<_>>()),
            ),
        ];
        for (name, text) in files {
            write_atomic(&self.path.join(name), &text)?;
        }
        Ok(())
    }
}

/// Combines the shard directories `dirs` of one survey into `out`, which becomes the directory
/// of the whole survey (its tables still to write).
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<SurveyDir, StoreError> {
    let mut shards = Vec::new();
    for d in dirs {
        shards.push(SurveyDir::open(d)?);
    }
    let first = shards
        .first()
        .ok_or_else(|| StoreError::Shards("no directory given".into()))?;
    let count = first.meta.shard.count;
    let mut seen = vec![false; count];
    for s in &shards {
        let m = &s.meta;
        if (m.digits, m.max_n, m.grow_to, &m.version, m.shard.count)
            != (
                first.meta.digits,
                first.meta.max_n,
                first.meta.grow_to,
                &first.meta.version,
                count,
            )
        {
            return Err(StoreError::Different {
                path: s.path.clone(),
                held: m.describe(),
                asked: format!("a shard of {}", first.meta.describe()),
            });
        }
        if std::mem::replace(&mut seen[m.shard.index], true) {
            return Err(StoreError::Shards(format!(
                "shard {} is given twice",
                m.shard
            )));
        }
    }
    if let Some(k) = seen.iter().position(|s| !s) {
        return Err(StoreError::Shards(format!("shard {k}/{count} is missing")));
    }
    for s in &shards {
        let missing = s.pending()?.len();
        if missing > 0 {
            return Err(StoreError::Incomplete {
                path: s.path.clone(),
                missing,
            });
        }
    }
    if fs::read_dir(out).is_ok_and(|mut d| d.next().is_some()) {
        return Err(StoreError::Occupied(out.to_path_buf()));
    }
    let meta = Meta {
        shard: Shard::WHOLE,
        ..first.meta.clone()
    };
    let dir = SurveyDir::create(out, meta)?;
    for s in &shards {
        for r in s.records()?.values() {
            dir.write(r)?;
        }
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A budget raised to the growth's limit or past it leaves nothing to grow to, whether the
    /// survey is opened and extended or created again with the larger budget.
    #[test]
    fn a_budget_past_the_growth_limit_ends_the_growth() {
        let path = std::env::temp_dir().join(format!("octal-survey-extend-{}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        let meta = |max_n: usize| Meta {
            digits: 1,
            max_n,
            grow_to: grow_limit(1 << 25, max_n),
            version: "test".into(),
            shard: Shard::WHOLE,
        };
        let mut dir = SurveyDir::create(&path, meta(1 << 18)).unwrap();
        assert_eq!(dir.meta.grow_to, Some(1 << 25));
        dir.extend(1 << 20).unwrap();
        assert_eq!(dir.meta.grow_to, Some(1 << 25));
        dir.extend(1 << 25).unwrap();
        assert_eq!(dir.meta.grow_to, None);
        assert_eq!(SurveyDir::open(&path).unwrap().meta, meta(1 << 25));
        fs::remove_dir_all(&path).unwrap();
        SurveyDir::create(&path, meta(1 << 18)).unwrap();
        let again = SurveyDir::create(&path, meta(1 << 26)).unwrap();
        assert_eq!(again.meta, meta(1 << 26));
        fs::remove_dir_all(&path).unwrap();
    }
}
