//! Named option values: the one error every `FromStr` of an option type gives (algorithms,
//! formats, framings, charsets, modes), so the command line and Python report an unknown
//! name the same way. Callers add where the name came from (a flag, a keyword argument).

/// A name that is not one of an option's accepted values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What was being named: "algorithm", "format", "framing", "charset".
    pub kind: &'static str,
    /// The name given.
    pub name: String,
    /// The accepted names, comma-separated (empty when they are too many to list, as for
    /// charset labels).
    pub accepted: String,
}

impl UnknownName {
    /// An unknown `name` of `kind`, one of `accepted`.
    pub fn new(kind: &'static str, name: &str, accepted: &[&str]) -> UnknownName {
        UnknownName {
            kind,
            name: name.to_string(),
            accepted: accepted.join(", "),
        }
    }

    /// The accepted names as ` (one of: ...)`, or nothing when they are not listed.
    pub fn one_of(&self) -> String {
        if self.accepted.is_empty() {
            String::new()
        } else {
            format!(" (one of: {})", self.accepted)
        }
    }
}

impl std::fmt::Display for UnknownName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown {} `{}`{}", self.kind, self.name, self.one_of())
    }
}

impl std::error::Error for UnknownName {}
