//! A data set: named features (nominal with named values, or numeric),
//! named classes, and rows of values with their class.

use crate::LearnError;

/// What values a feature takes.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// One of a few named values; a row holds the value's index. Split
    /// many ways, one branch per value.
    Nominal(Vec<String>),
    /// A number; split in two by a threshold (`x <= t`, `x > t`).
    Numeric,
}

/// One feature (attribute) of the rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Feature {
    /// Its name, as the trees print it.
    pub name: String,
    /// Its values.
    pub kind: Kind,
}

impl Feature {
    /// A nominal feature with these value names.
    pub fn nominal(name: &str, values: &[&str]) -> Feature {
        Feature {
            name: name.to_string(),
            kind: Kind::Nominal(values.iter().map(|v| v.to_string()).collect()),
        }
    }
    /// A numeric feature.
    pub fn numeric(name: &str) -> Feature {
        Feature {
            name: name.to_string(),
            kind: Kind::Numeric,
        }
    }
    /// How a value of this feature is written.
    pub fn show(&self, v: f64) -> String {
        match &self.kind {
            Kind::Nominal(names) => names
                .get(v as usize)
                .cloned()
                .unwrap_or_else(|| format!("#{v}")),
            Kind::Numeric => format_number(v),
        }
    }
}

/// Whole numbers without a decimal point, others as Rust prints them.
pub(crate) fn format_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// What the rows describe: their features and the names of the classes.
#[derive(Clone, Debug, PartialEq)]
pub struct Schema {
    /// The features, in the order of each row's values.
    pub features: Vec<Feature>,
    /// The class names; a row's label is an index into them.
    pub classes: Vec<String>,
}

/// Rows of feature values, each with its class. Values are `f64`: a
/// nominal value is its index in the feature's names.
#[derive(Clone, Debug)]
pub struct Dataset {
    schema: Schema,
    values: Vec<f64>,
    labels: Vec<usize>,
}

impl Dataset {
    /// No rows yet.
    pub fn new(schema: Schema) -> Dataset {
        Dataset {
            schema,
            values: Vec::new(),
            labels: Vec::new(),
        }
    }

    /// The features and classes.
    pub fn schema(&self) -> &Schema {
        &self.schema
    }

    /// Adds a row, checked: one value per feature, each one its feature
    /// can take, and a class in range.
    pub fn push(&mut self, row: &[f64], label: usize) -> Result<(), LearnError> {
        let at = self.labels.len();
        let want = self.schema.features.len();
        if row.len() != want {
            return Err(LearnError::Arity {
                row: at,
                got: row.len(),
                want,
            });
        }
        for (f, &v) in self.schema.features.iter().zip(row) {
            let ok = match &f.kind {
                Kind::Nominal(names) => v >= 0.0 && v.fract() == 0.0 && (v as usize) < names.len(),
                Kind::Numeric => v.is_finite(),
            };
            if !ok {
                return Err(LearnError::Value {
                    row: at,
                    feature: f.name.clone(),
                    value: v,
                });
            }
        }
        if label >= self.schema.classes.len() {
            return Err(LearnError::Label {
                row: at,
                label,
                classes: self.schema.classes.len(),
            });
        }
        self.values.extend_from_slice(row);
        self.labels.push(label);
        Ok(())
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The values of row `i`.
    pub fn row(&self, i: usize) -> &[f64] {
        let n = self.schema.features.len();
        &self.values[i * n..(i + 1) * n]
    }

    /// The class of row `i`.
    pub fn label(&self, i: usize) -> usize {
        self.labels[i]
    }

    /// Value of feature `f` in row `i`.
    pub(crate) fn value(&self, i: usize, f: usize) -> f64 {
        self.values[i * self.schema.features.len() + f]
    }

    /// Parses the text form the tests' data files use: a header line of
    /// comma-separated feature names, the class column last; a name
    /// ending in `:numeric` is a numeric feature, others are nominal and
    /// take their values in the order they first appear (as do the
    /// classes). Blank lines and lines starting with `#` are skipped.
    ///
    /// ```
    /// let d = zoo_learn::Dataset::parse("size:numeric,colour,class\n1,red,small\n9,blue,big\n")?;
    /// assert_eq!((d.len(), d.schema().classes.len()), (2, 2));
    /// # Ok::<(), zoo_learn::LearnError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Dataset, LearnError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let (_, header) = lines.next().ok_or(LearnError::Empty)?;
        let cols: Vec<&str> = header.split(',').map(str::trim).collect();
        if cols.len() < 2 {
            return Err(LearnError::Parse {
                line: 1,
                why: "the header needs a feature and the class".into(),
            });
        }
        let nf = cols.len() - 1;
        let numeric: Vec<bool> = cols[..nf].iter().map(|c| c.ends_with(":numeric")).collect();
        let mut names: Vec<Vec<String>> = vec![Vec::new(); nf];
        let mut classes: Vec<String> = Vec::new();
        let index_of = |list: &mut Vec<String>, s: &str| match list.iter().position(|x| x == s) {
            Some(i) => i,
            None => {
                list.push(s.to_string());
                list.len() - 1
            }
        };
        let mut rows = Vec::new();
        for (line, l) in lines {
            let cells: Vec<&str> = l.split(',').map(str::trim).collect();
            if cells.len() != cols.len() {
                return Err(LearnError::Parse {
                    line,
                    why: format!("{} cells, the header has {}", cells.len(), cols.len()),
                });
            }
            let mut row = Vec::with_capacity(nf);
            for f in 0..nf {
                row.push(if numeric[f] {
                    cells[f].parse::<f64>().map_err(|_| LearnError::Parse {
                        line,
                        why: format!("{:?} is not a number", cells[f]),
                    })?
                } else {
                    index_of(&mut names[f], cells[f]) as f64
                });
            }
            rows.push((row, index_of(&mut classes, cells[nf])));
        }
        let features = (0..nf)
            .map(|f| {
                let name = cols[f].trim_end_matches(":numeric").to_string();
                Feature {
                    name,
                    kind: if numeric[f] {
                        Kind::Numeric
                    } else {
                        Kind::Nominal(std::mem::take(&mut names[f]))
                    },
                }
            })
            .collect();
        let mut d = Dataset::new(Schema { features, classes });
        for (row, label) in rows {
            d.push(&row, label)?;
        }
        Ok(d)
    }
}
