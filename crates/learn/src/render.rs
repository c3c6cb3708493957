//! A tree as text (indented, in the manner of C4.5's output) and as
//! Graphviz dot.

use crate::data::format_number;
use crate::tree::{Node, Test, Tree};

impl Tree {
    /// The label of branch `i` of a node's split: `= value`, `<= t`, `> t`.
    pub(crate) fn branch_label(&self, n: &Node, i: usize) -> String {
        let s = n.split.as_ref().expect("an inner node");
        let f = &self.schema.features[s.feature];
        match &s.test {
            Test::Nominal(values) => format!("= {}", f.show(values[i] as f64)),
            Test::Threshold(t) if i == 0 => format!("<= {}", format_number(*t)),
            Test::Threshold(t) => format!("> {}", format_number(*t)),
        }
    }

    /// A leaf's answer with its rows and errors: `win (120)`, `loss (40/3)`.
    pub(crate) fn leaf_label(&self, n: &Node) -> String {
        let class = &self.schema.classes[n.class()];
        let mut s = match n.leaf_errors() {
            0 => format!("{class} ({})", n.rows()),
            e => format!("{class} ({}/{e})", n.rows()),
        };
        if n.conflict {
            s.push_str(" conflict");
        }
        s
    }

    /// The tree as indented text, one line per branch, in the manner of
    /// C4.5: `feature = value:` or `feature <= t:`, a leaf's class after
    /// the colon with its rows (and errors, after a slash).
    ///
    /// ```
    /// let d = zoo_learn::Dataset::parse("x:numeric,class\n1,a\n2,a\n3,b\n")?;
    /// let t = zoo_learn::Tree::grow(&d, zoo_learn::GrowOptions::perfect())?;
    /// assert_eq!(t.to_text(), "x <= 2: a (2)\nx > 2: b (1)\n");
    /// # Ok::<(), zoo_learn::LearnError>(())
    /// ```
    pub fn to_text(&self) -> String {
        fn go(t: &Tree, n: &Node, indent: usize, out: &mut String) {
            let Some(s) = &n.split else {
                out.push_str(&t.leaf_label(n));
                out.push('\n');
                return;
            };
            let name = &t.schema.features[s.feature].name;
            for (i, c) in s.children.iter().enumerate() {
                out.push_str(&"|   ".repeat(indent));
                out.push_str(&format!("{name} {}:", t.branch_label(n, i)));
                if c.is_leaf() {
                    out.push(' ');
                    go(t, c, indent + 1, out);
                } else {
                    out.push('\n');
                    go(t, c, indent + 1, out);
                }
            }
        }
        let mut out = String::new();
        go(self, &self.root, 0, &mut out);
        out
    }

    /// The tree as a Graphviz digraph: boxes for the questions, ellipses
    /// for the leaves, branches labelled with their test.
    pub fn to_dot(&self, title: &str) -> String {
        fn go(t: &Tree, n: &Node, next: &mut usize, out: &mut String) -> usize {
            let me = *next;
            *next += 1;
            match &n.split {
                None => out.push_str(&format!(
                    "  n{me} [shape=ellipse, label=\"{}\"];\n",
                    escape(&t.leaf_label(n))
                )),
                Some(s) => {
                    out.push_str(&format!(
                        "  n{me} [shape=box, label=\"{}\"];\n",
                        escape(&t.schema.features[s.feature].name)
                    ));
                    for (i, c) in s.children.iter().enumerate() {
                        let id = go(t, c, next, out);
                        out.push_str(&format!(
                            "  n{me} -> n{id} [label=\"{}\"];\n",
                            escape(&t.branch_label(n, i))
                        ));
                    }
                }
            }
            me
        }
        let mut out = format!("digraph \"{}\" {{\n  node [fontname=\"sans-serif\"];\n  edge [fontname=\"sans-serif\"];\n", escape(title));
        go(self, &self.root, &mut 0, &mut out);
        out.push_str("}\n");
        out
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
