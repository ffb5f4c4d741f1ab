//! `octal-survey`: every octal code of up to `D` digits, put into classes of games whose values
//! are proved equal (up to a shift of heap sizes), with each class's statistics, as the tables of
//! the literature print them.
//!
//! The crate does the bookkeeping and no game theory beyond codes: the caller computes games
//! (a [`record::GameRecord`] for each code asked for, and the values of a code on demand), so
//! the same survey runs on any engine.
//!
//! * [`codes`]: the codes of a survey, their order, and shards;
//! * [`rules`]: the lone-token and redundant-move rules, which prove values equal from codes alone;
//! * [`growth`]: how far a game is computed: the budget, and past it while its space holds;
//! * [`record`]: what computing one game leaves behind;
//! * [`classes`]: classes from the rule and from proved periods;
//! * [`tables`]: the Markdown, CSV and JSON tables;
//! * [`store`]: the survey directory (records written as they finish, resume, merge).

pub mod classes;
pub mod codes;
pub mod growth;
pub mod record;
pub mod rules;
pub mod store;
pub mod tables;
