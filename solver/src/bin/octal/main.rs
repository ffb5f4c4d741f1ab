//! The `octal` binary: parses the command line ([`cli`], [`validate`]) and dispatches to the
//! library's commands (`solver::commands`). Exit status 0 on success, 2 for bad input or usage
//! (a damaged run directory included), 1 for a failure while running; every error is one line
//! on stderr.

mod cli;
mod validate;

use clap::Parser;
use cli::{Cli, Command, SurveyCommand};
use solver::commands::{bench, carry, device, frontier, inspect, job, survey, CommandError};
use solver::{codegen, report};

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
        let status = e.exit_status();
        eprintln!("octal: {:#}", anyhow::Error::from(e));
        std::process::exit(status);
    }
}

fn run(cli: Cli) -> Result<(), CommandError> {
    if cli.command.asks_for_gpu() {
        device::find_device_beside();
    }
    match cli.command {
        Command::Solve(a) => job::solve(&validate::solve(&a)?),
        Command::Resume(a) => job::resume(&validate::resume(&a)?, device::find_device_beside),
        Command::Check(a) => inspect::check(&validate::check(&a)?),
        Command::Status(a) => inspect::status(&a.dir, a.json),
        Command::Checkpoint(a) => carry::checkpoint(&a.dir, &a.output, a.whole),
        Command::Snapshot(a) => carry::snapshot(&a.dir, &a.output),
        Command::Restore(a) => carry::restore(&validate::restore(&a)?),
        Command::Export(a) => {
            let heaps = match &a.at {
                Some(at) => validate::heap_range("0", Some(at))?,
                None => validate::heap_range(&a.from, a.to.as_deref())?,
            };
            inspect::export(&a.dir, a.format, heaps, a.output.as_deref())
        }
        Command::Plot(a) => {
            let heaps = validate::heap_range(&a.from, a.to.as_deref())?;
            inspect::plot(&a.dir, &a.output, a.kind, heaps)
        }
        Command::Survey(a) => match &a.command {
            Some(SurveyCommand::Merge(m)) => {
                let format = validate::table_format(m.format.as_deref(), m.json)?;
                survey::merge(&m.dirs, &m.out, format)
            }
            None => survey::run(&validate::survey(&a)?),
        },
        Command::Bench(a) => bench::run(&validate::bench(&a)?),
        Command::Frontier(a) => frontier::run(&validate::frontier(&a)?),
        Command::Games => {
            print!("{}", report::games_table());
            Ok(())
        }
        Command::Codegen(a) => {
            let code = validate::parse_code(&a.code)?;
            let text = if a.cuda {
                codegen::cuda(&code)?
            } else {
                codegen::rust(&code)?
            };
            print!("{text}");
            Ok(())
        }
        Command::GpuInfo(a) => device::gpu_info(a.found),
    }
}
