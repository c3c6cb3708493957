//! How a page writes a value: `raw` (as the command prints it), `commas`
//! (an integer with thousands separators: 1,908,483,421), `fixedN` (N
//! decimals: 21.17), `sciN` (N decimals times a power of ten, the docs'
//! way: 4.8·10²⁶).

use anyhow::{anyhow, bail, Result};
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Format {
    Raw,
    Commas,
    Fixed(usize),
    Sci(usize),
}

impl FromStr for Format {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> Result<Self> {
        let digits = |rest: &str| {
            rest.parse::<usize>()
                .map_err(|_| anyhow!("unknown format `{s}`"))
        };
        Ok(match s {
            "raw" => Format::Raw,
            "commas" => Format::Commas,
            _ if s.starts_with("fixed") => Format::Fixed(digits(&s[5..])?),
            _ if s.starts_with("sci") => Format::Sci(digits(&s[3..])?),
            _ => bail!("unknown format `{s}` (raw, commas, fixedN, sciN)"),
        })
    }
}

fn commas(digits: &str) -> Result<String> {
    let (sign, digits) = digits.strip_prefix('-').map_or(("", digits), |d| ("-", d));
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        bail!("`{digits}` is not an integer");
    }
    let mut out = String::from(sign);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    Ok(out)
}

fn superscript(n: i32) -> String {
    n.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'][d as usize - '0' as usize],
        })
        .collect()
}

fn sci(x: f64, decimals: usize) -> String {
    if x == 0.0 {
        return format!("{:.*}", decimals, 0.0);
    }
    let mut exp = x.abs().log10().floor() as i32;
    let mut mantissa = format!("{:.*}", decimals, x / 10f64.powi(exp));
    // 9.96 rounds to "10.0": one more power of ten.
    if mantissa.trim_start_matches('-').starts_with("10") {
        exp += 1;
        mantissa = format!("{:.*}", decimals, x / 10f64.powi(exp));
    }
    format!("{mantissa}·10{}", superscript(exp))
}

impl Format {
    pub fn text(self, s: &str) -> Result<String> {
        match self {
            Format::Raw => Ok(s.to_owned()),
            Format::Commas => commas(s),
            Format::Fixed(_) | Format::Sci(_) => {
                let x: f64 = s.parse().map_err(|_| anyhow!("`{s}` is not a number"))?;
                self.number(x)
            }
        }
    }

    fn number(self, x: f64) -> Result<String> {
        Ok(match self {
            Format::Fixed(d) => format!("{x:.d$}"),
            Format::Sci(d) => sci(x, d),
            Format::Raw | Format::Commas => unreachable!("integers and text are formatted as text"),
        })
    }

    pub fn json(self, v: &serde_json::Value) -> Result<String> {
        match (self, v) {
            (_, serde_json::Value::String(s)) => self.text(s),
            (Format::Raw, v) => Ok(v.to_string()),
            // Integers as their digits: a float would round counts past 2^53.
            (Format::Commas, serde_json::Value::Number(n)) if n.is_u64() || n.is_i64() => {
                commas(&n.to_string())
            }
            (Format::Fixed(_) | Format::Sci(_), serde_json::Value::Number(n)) => {
                self.number(n.as_f64().ok_or_else(|| anyhow!("{n} is not a number"))?)
            }
            (_, v) => bail!("{v} is not an integer"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_as_the_pages_write() {
        assert_eq!(Format::Commas.text("1908483421").unwrap(), "1,908,483,421");
        assert_eq!(Format::Commas.text("24").unwrap(), "24");
        assert_eq!(
            Format::Commas.text("500995484682338672639").unwrap(),
            "500,995,484,682,338,672,639"
        );
        assert_eq!(Format::Fixed(2).text("21.1712").unwrap(), "21.17");
        assert_eq!(Format::Sci(1).text("4.81e26").unwrap(), "4.8·10²⁶");
        assert_eq!(Format::Sci(1).text("99700").unwrap(), "1.0·10⁵");
        assert!(Format::Commas.text("1.5").is_err());
        assert_eq!("fixed3".parse::<Format>().unwrap(), Format::Fixed(3));
        assert!("thousands".parse::<Format>().is_err());
    }
}
