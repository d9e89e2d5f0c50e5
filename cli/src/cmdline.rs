//! The thin adapter between the command line's conventions and argh: `-h`/`--help`,
//! `-V`/`--version`, `--flag=value`, `-jN` and a lone `-` are rewritten before argh parses;
//! argh's help is given the program name `pith`, a `Commands:` section and `-h`/`-V` lines;
//! every usage error, argh's own included, comes out as one line `pith: <message>` naming the
//! flag (and the accepted values, where the flag's description lists them), exit status 2.

use std::fmt::Display;
use std::io::Write;
use std::process::ExitCode;

use argh::{ArgsInfo, FlagInfo, FlagInfoKind, FromArgs};

/// The version `-V` prints (`pith X.Y.Z`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Stands for `-` (standard input) while argh parses: argh reads a lone `-` as an unknown
/// flag, so it travels under a name no file can have.
pub const STDIN_ARG: &str = "\0stdin";

/// The subcommands, as the main help lists them.
pub const COMMANDS: &[(&str, &str)] = &[
    ("eval", "score extractors against a gold set"),
    ("explain", "an HTML report of why a page came out as it did"),
    ("learn", "learn site templates for --templates"),
    (
        "template",
        "show a learned template, or find one from a crawl's links",
    ),
    (
        "cluster",
        "group a host's pages by template, a JSON line per page",
    ),
    (
        "site",
        "pages of one site together, with the detectors' parameters",
    ),
];

/// A usage error: `pith: <message>` on stderr, exit status 2.
pub fn usage_error(msg: impl Display) -> ExitCode {
    eprintln!("pith: {msg}");
    ExitCode::from(2)
}

/// The value of `--flag` as one of the library's named options (`--input`, `--format`, ...):
/// the error names the flag, the value and the accepted names.
pub fn named<T>(flag: &str, value: &str) -> Result<T, String>
where
    T: std::str::FromStr<Err = pith::UnknownName>,
{
    value
        .parse()
        .map_err(|e: pith::UnknownName| format!("unknown --{flag} `{}`{}", e.name, e.one_of()))
}

/// Parses `args` (what follows the command path `cmd`, e.g. `["pith", "eval"]`) into `T`.
/// `Err` is the exit status once help, the version or a usage error has been written.
pub fn parse<T: FromArgs + ArgsInfo>(cmd: &[&str], args: &[String]) -> Result<T, ExitCode> {
    let info = T::get_args_info();
    let flags = info.flags;
    let mut out: Vec<String> = Vec::with_capacity(args.len());
    let mut help = false;
    // The first usage error; `-h` anywhere still shows the help instead.
    let mut error: Option<String> = None;
    let mut ended = false;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        if ended || !a.starts_with('-') {
            out.push(a.to_string());
            continue;
        }
        match a {
            "--" => {
                ended = true;
                out.push(a.to_string());
                continue;
            }
            "-" => {
                out.push(STDIN_ARG.to_string());
                continue;
            }
            "-h" | "--help" => {
                help = true;
                continue;
            }
            "-V" | "--version" => {
                // A closed stdout (`| head`) is no error worth a panic.
                let _ = writeln!(std::io::stdout(), "pith {VERSION}");
                return Err(ExitCode::SUCCESS);
            }
            _ => {}
        }
        // `--name=value`, `--name value`, `-jN`, `-j=N`, `-j N`.
        let (flag, attached) = match a.strip_prefix("--") {
            Some(rest) => match rest.split_once('=') {
                Some((name, value)) => (format!("--{name}"), Some(value)),
                None => (a.to_string(), None),
            },
            None => {
                let mut chars = a[1..].chars();
                let c = chars.next().unwrap_or('-');
                let rest = chars.as_str();
                let rest = rest.strip_prefix('=').unwrap_or(rest);
                (format!("-{c}"), (!rest.is_empty()).then_some(rest))
            }
        };
        let Some(f) = find(flags, &flag) else {
            error.get_or_insert_with(|| unknown_flag(cmd, &flag, flags));
            continue;
        };
        match (&f.kind, attached) {
            (FlagInfoKind::Switch, Some(_)) => {
                error.get_or_insert_with(|| format!("{flag} takes no value"));
            }
            (FlagInfoKind::Switch, None) => out.push(flag),
            (FlagInfoKind::Option { .. }, Some(v)) => {
                out.push(flag);
                out.push(v.to_string());
            }
            (FlagInfoKind::Option { .. }, None) => {
                let Some(v) = args.get(i) else {
                    error.get_or_insert_with(|| {
                        format!("{flag} needs a value: {}", one_line(f.description))
                    });
                    continue;
                };
                i += 1;
                out.push(flag);
                out.push(v.clone());
            }
        }
    }
    if help {
        out = vec!["--help".to_string()];
    } else if let Some(msg) = error {
        return Err(usage_error(msg));
    }
    let refs: Vec<&str> = out.iter().map(String::as_str).collect();
    match T::from_args(cmd, &refs) {
        Ok(t) => Ok(t),
        Err(early) => match early.status {
            Ok(()) => {
                let _ = write!(
                    std::io::stdout(),
                    "{}",
                    help_text(cmd, &early.output, flags)
                );
                Err(ExitCode::SUCCESS)
            }
            Err(()) => Err(usage_error(rewrite_error(cmd, &early.output))),
        },
    }
}

/// Parses the arguments of a command that reads pages (`pith cluster`, `pith learn`) with
/// [`parse`], gives `-` (standard input) its name back among the files and reads `--input`;
/// `fields` gives the parsed files and the value of `--input`. A usage error when `--input`
/// names no framing or no file is given ("give the pages to `what` ...").
pub fn parse_pages<T: FromArgs + ArgsInfo>(
    cmd: &[&str],
    args: &[String],
    what: &str,
    fields: fn(&mut T) -> (&mut Vec<String>, &str),
) -> Result<(T, pith::input::Framing), ExitCode> {
    let mut a: T = parse(cmd, args)?;
    let (files, input) = fields(&mut a);
    dash_for_stdin(files);
    let framing = named("input", input).map_err(usage_error)?;
    if files.is_empty() {
        return Err(usage_error(format!(
            "give the pages to {what} (files, WARC or JSON lines)"
        )));
    }
    Ok((a, framing))
}

/// The value of `--host` as a host name (`None` when the flag is not given); a usage error
/// when it is not one.
pub fn host_flag(host: Option<&str>) -> Result<Option<String>, ExitCode> {
    host.map(|h| {
        pith::site::host_of(h)
            .ok_or_else(|| usage_error(format!("--host `{h}` is not a host name")))
    })
    .transpose()
}

/// Gives the files that stood for `-` their name back.
pub fn dash_for_stdin(files: &mut [String]) {
    for f in files.iter_mut().filter(|f| *f == STDIN_ARG) {
        *f = "-".to_string();
    }
}

/// The flag `name` (`--long` or `-s`) among `flags`.
fn find<'a>(flags: &'a [FlagInfo<'a>], name: &str) -> Option<&'a FlagInfo<'a>> {
    flags.iter().find(|f| {
        f.long == name
            || f.short
                .is_some_and(|s| name.len() == 2 && name.ends_with(s) && name.starts_with('-'))
    })
}

/// `pith COMMAND --help`, as the error messages point to it.
fn help_hint(cmd: &[&str]) -> String {
    format!("see `{} --help`", cmd.join(" "))
}

/// The message for a flag `cmd` does not know: the nearest one it does, or the subcommand
/// that has it.
fn unknown_flag(cmd: &[&str], flag: &str, flags: &[FlagInfo<'_>]) -> String {
    if cmd.len() == 1 {
        let site = crate::site::SiteArgs::get_args_info();
        if find(site.flags, flag).is_some() {
            return format!(
                "{flag} is a parameter of the site detectors: pith site --algo tmpl-dom|tmpl-text \
                 {flag} VALUE FILE... (see `pith site --help`)"
            );
        }
    }
    let nearest = flags
        .iter()
        .map(|f| (distance(flag, f.long), f.long))
        .filter(|&(d, _)| d <= 2)
        .min();
    match nearest {
        Some((_, near)) => format!(
            "unknown flag {flag} (did you mean {near}? {})",
            help_hint(cmd)
        ),
        None => format!("unknown flag {flag} ({})", help_hint(cmd)),
    }
}

/// Levenshtein distance, for "did you mean".
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// A flag's description on one line.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// argh's error messages in the style of the others (without the `pith: ` prefix).
fn rewrite_error(cmd: &[&str], output: &str) -> String {
    let text = output.trim();
    let hint = help_hint(cmd);
    if let Some(arg) = text.strip_prefix("Unrecognized argument: ") {
        let arg = arg.trim_matches('"');
        return if arg.starts_with('-') && arg != STDIN_ARG {
            format!("unknown flag {arg} ({hint})")
        } else {
            let arg = if arg == STDIN_ARG { "-" } else { arg };
            format!("unexpected argument `{arg}` ({hint})")
        };
    }
    if let Some(rest) = text.strip_prefix("Error parsing option '")
        && let Some((flag, rest)) = rest.split_once("' with value '")
        && let Some((value, err)) = rest.split_once("': ")
    {
        return value_error(flag, value, err);
    }
    if let Some(rest) = text.strip_prefix("Error parsing positional argument '")
        && let Some((name, rest)) = rest.split_once("' with value '")
        && let Some((value, err)) = rest.split_once("': ")
    {
        return format!("{}: {}", name.to_uppercase(), value_error_text(value, err));
    }
    if let Some(rest) = text.strip_prefix("No value provided for option '") {
        let flag = rest.trim_end_matches("'.");
        return format!("{flag} needs a value ({hint})");
    }
    let missing = |heading: &str, upper: bool| -> Option<String> {
        let idx = text.find(heading)?;
        let names: Vec<String> = text[idx + heading.len()..]
            .lines()
            .skip(1)
            .map(str::trim)
            .take_while(|l| !l.is_empty() && !l.ends_with(':'))
            .map(|l| {
                if upper {
                    l.to_uppercase()
                } else {
                    l.to_string()
                }
            })
            .collect();
        Some(names.join(", "))
    };
    if let Some(names) = missing("Required positional arguments not provided:", true) {
        return format!("missing {names} ({hint})");
    }
    if let Some(names) = missing("Required options not provided:", false) {
        return format!("missing {names} ({hint})");
    }
    format!("{} ({hint})", one_line(text))
}

/// `--flag VALUE` argh could not parse.
fn value_error(flag: &str, value: &str, err: &str) -> String {
    if err.contains("duplicate values") {
        return format!("{flag} is given more than once");
    }
    // The library's names say `unknown algorithm `x` (one of: ...)`: say it of the flag.
    if let Some(idx) = err.find(" (one of: ") {
        return format!("unknown {flag} `{value}`{}", &err[idx..]);
    }
    format!("{flag}: {}", value_error_text(value, err))
}

fn value_error_text(value: &str, err: &str) -> String {
    let expected = if err.contains("float") {
        "a number"
    } else if err.contains("digit") || err.contains("integer") || err.contains("too large") {
        "a whole number"
    } else {
        return format!("`{value}`: {err}");
    };
    format!("`{value}` is not {expected} ({err})")
}

/// argh's help with `-h`/`-V`, and for the main command a shorter usage line and the
/// `Commands:` section.
fn help_text(cmd: &[&str], output: &str, flags: &[FlagInfo<'_>]) -> String {
    let mut lines: Vec<String> = Vec::new();
    for (n, line) in output.lines().enumerate() {
        if let Some((left, desc)) = option_line(line, flags) {
            // `--format FORMAT`: the value's name after the flag, as in the usage line.
            if left.len() <= 16 {
                lines.push(format!("  {left:<18}{desc}"));
            } else {
                lines.push(format!("  {left}"));
                if !desc.is_empty() {
                    lines.push(format!("  {:<18}{desc}", ""));
                }
            }
            continue;
        }
        if n == 0 && cmd.len() == 1 {
            lines.push("Usage: pith [OPTIONS] [FILE...]".into());
            lines.push("       pith COMMAND [OPTIONS] [ARGS...]".into());
            continue;
        }
        if line.trim_start().starts_with("--help") {
            lines.push(format!("  {:<18}display this help", "-h, --help"));
            lines.push(format!(
                "  {:<18}print the version (pith {VERSION})",
                "-V, --version"
            ));
            continue;
        }
        if cmd.len() == 1 && line == "Positional Arguments:" {
            lines.push("Commands:".into());
            for (name, what) in COMMANDS {
                lines.push(format!("  {name:<18}{what}"));
            }
            lines.push(String::new());
        }
        if !line.starts_with(' ') && !line.starts_with("Usage:") && line.chars().count() > 80 {
            // argh writes the description as one line per paragraph.
            lines.extend(wrap(line, 80));
            continue;
        }
        lines.push(line.to_string());
    }
    let mut text = lines.join("\n");
    text.push('\n');
    if cmd.len() == 1 {
        text.push_str(concat!(
            "\nRun `pith COMMAND --help` for a command's options.\n",
            "Options take `--flag VALUE` or `--flag=VALUE` (`-j4` for short ones).\n",
            "Errors are one line, `pith: <message>`; usage errors exit with status 2.\n",
        ));
    }
    text
}

/// `text` in lines of at most `width` characters (a longer word stands alone).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in text.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// An option's line of argh's help (`  --format          output ...`, `  -j, --jobs  ...`):
/// its flags with the value's name, and the start of its description.
fn option_line<'a>(line: &'a str, flags: &[FlagInfo<'_>]) -> Option<(String, &'a str)> {
    let body = line.strip_prefix("  ")?;
    if !body.starts_with('-') {
        return None;
    }
    let (names, desc) = match body.find("  ") {
        Some(i) => (&body[..i], body[i..].trim_start()),
        None => (body, ""),
    };
    let long = names.rsplit(", ").next()?;
    let f = flags.iter().find(|f| f.long == long)?;
    let FlagInfoKind::Option { arg_name } = f.kind else {
        return None;
    };
    Some((
        format!("{names} {}", arg_name.replace('_', "-").to_uppercase()),
        desc,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("--formt", "--format"), 1);
        assert_eq!(distance("--algo", "--algo"), 0);
        assert_eq!(distance("", "ab"), 2);
    }
}
