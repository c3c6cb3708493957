//! What an experiment hands back: the files it made and the table to show.
//! Experiments compute; where the files go and what is printed is the
//! caller's business (the CLI writes them under `--out-dir`).

/// The outcome of one experiment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// `(file name, contents)`, in the order they should be written: tables
    /// (Markdown, CSV) and plots (SVG). Names carry no directory.
    pub files: Vec<(String, String)>,
    /// The Markdown table to show once the files are written, if any.
    pub summary: Option<String>,
}

/// A CSV field: quoted when it holds a comma, a quote or a line end (the
/// configurations' names do: `full engine (quiescence, LMR, MTD(f))`).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The records of a CSV text as [`csv_field`] writes them (quoted fields
/// with doubled quotes), one line per record.
pub fn csv_records(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|line| {
            let mut fields = vec![String::new()];
            let (mut quoted, mut chars) = (false, line.chars().peekable());
            while let Some(c) = chars.next() {
                match (c, quoted) {
                    ('"', true) if chars.peek() == Some(&'"') => {
                        chars.next();
                        fields.last_mut().expect("one field").push('"');
                    }
                    ('"', _) => quoted = !quoted,
                    (',', false) => fields.push(String::new()),
                    (c, _) => fields.last_mut().expect("one field").push(c),
                }
            }
            fields
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_commas_and_quotes_survive() {
        let names = ["full engine (quiescence, LMR, MTD(f))", "a \"b\"", "plain"];
        let line: Vec<String> = names.iter().map(|n| csv_field(n)).collect();
        let text = format!("{}\n", line.join(","));
        assert_eq!(csv_records(&text), vec![names.map(String::from).to_vec()]);
    }
}
