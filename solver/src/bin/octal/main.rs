//! The `octal` binary: parses the command line and dispatches to a command. Exit status 0 on
//! success, 2 for bad input or usage (a damaged run directory included), 1 for a failure while
//! running; every error is one line on stderr.

mod bench;
mod cli;
mod commands;
mod survey;

use anyhow::Result;
use clap::Parser;
use cli::{Cli, Command, InputError};
use solver::codegen::{self, CodegenError};
use solver::report;
use solver::run::SolveError;
use solver::rundir::RunDirError;

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            let _ = e.print();
            std::process::exit(0);
        }
        Err(e) => {
            // clap's first paragraph, on one line.
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let first = first.join(" ");
            let first = first.strip_prefix("error: ").unwrap_or(&first);
            eprintln!("octal: {first} (see octal --help)");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(cli) {
        eprintln!("octal: {e:#}");
        std::process::exit(exit_status(&e));
    }
}

/// 2 for bad input (a damaged or occupied run directory included), 1 for anything else.
fn exit_status(e: &anyhow::Error) -> i32 {
    let rundir = e
        .downcast_ref::<RunDirError>()
        .or_else(|| match e.downcast_ref::<SolveError>() {
            Some(SolveError::RunDir(r)) => Some(r),
            _ => None,
        });
    let bad_codegen = e
        .downcast_ref::<CodegenError>()
        .is_some_and(CodegenError::is_bad_request);
    let bad_compact = e
        .downcast_ref::<solver::compact::CompactError>()
        .is_some_and(solver::compact::CompactError::is_bad_input);
    let bad_survey = e
        .downcast_ref::<octal_survey::store::StoreError>()
        .is_some_and(octal_survey::store::StoreError::is_bad_input);
    if e.downcast_ref::<InputError>().is_some()
        || bad_survey
        || bad_compact
        || bad_codegen
        || matches!(
            rundir,
            Some(RunDirError::Corrupt { .. } | RunDirError::Occupied(_))
        )
    {
        2
    } else {
        1
    }
}

fn run(cli: Cli) -> Result<()> {
    if cli.command.asks_for_gpu() {
        commands::find_device_beside();
    }
    match cli.command {
        Command::Solve(args) => commands::solve(cli::validate_solve(&args)?),
        Command::Resume(args) => commands::resume(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Games => {
            print!("{}", report::games_table());
            Ok(())
        }
        Command::Codegen(args) => {
            let code = cli::parse_code(&args.code)?;
            let text = if args.cuda {
                codegen::cuda(&code)?
            } else {
                codegen::rust(&code)?
            };
            print!("{text}");
            Ok(())
        }
        Command::GpuInfo(args) => commands::gpu_info(&args),
        Command::Check(args) => commands::check(&args),
        Command::Status(args) => commands::status(&args),
        Command::Checkpoint(args) => commands::checkpoint(&args),
        Command::Restore(args) => commands::restore(&args),
        Command::Export(args) => commands::export(&args),
        Command::Plot(args) => commands::plot(&args),
        Command::Survey(args) => match &args.command {
            Some(cli::SurveyCommand::Merge(m)) => survey::merge(m),
            None => survey::run(&args),
        },
    }
}
