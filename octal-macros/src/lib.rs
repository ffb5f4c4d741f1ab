//! `octal-macros`: turns a game's rare table into an unrolled speculative loop (issue 3).
