//! A tree drawn as SVG, laid out in layers by hand (no Graphviz needed):
//! leaves side by side in the order of a walk of the tree, each inner
//! node centred over its first and last child, one layer per depth.

use crate::tree::{Node, Tree};

/// Pixels per character of the 12 px sans-serif labels, roughly.
const CHAR: f64 = 7.0;
const LAYER: f64 = 90.0;
const BOX_H: f64 = 26.0;
const MARGIN: f64 = 20.0;

struct Placed {
    x: f64,
    depth: usize,
    label: String,
    leaf: bool,
    /// (child index in `placed`, branch label)
    edges: Vec<(usize, String)>,
}

impl Tree {
    /// The tree as an SVG document.
    pub fn to_svg(&self, title: &str) -> String {
        // Every label decides the width of a leaf's slot, so that no two
        // labels of a layer overlap.
        let mut placed: Vec<Placed> = Vec::new();
        let widest = self.widest_label(&self.root).max(title.len() / 4);
        let slot = (widest as f64 * CHAR + 16.0).max(70.0);
        let mut next_leaf = 0usize;
        self.place(&self.root, 0, slot, &mut next_leaf, &mut placed);
        let width = next_leaf as f64 * slot + 2.0 * MARGIN;
        let height = (self.depth() + 1) as f64 * LAYER + 2.0 * MARGIN + 20.0;
        let top = MARGIN + 30.0;
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{MARGIN}\" y=\"{:.0}\" font-size=\"16\">{}</text>\n",
            MARGIN + 12.0,
            xml(title)
        );
        let y_of = |d: usize| top + d as f64 * LAYER;
        for p in &placed {
            for (c, label) in &p.edges {
                let q = &placed[*c];
                let (x1, y1) = (MARGIN + p.x, y_of(p.depth) + BOX_H);
                let (x2, y2) = (MARGIN + q.x, y_of(q.depth));
                out.push_str(&format!(
                    "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"#888\"/>\n<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#333\">{}</text>\n",
                    (x1 + x2) / 2.0,
                    (y1 + y2) / 2.0 + 4.0,
                    xml(label)
                ));
            }
        }
        for p in &placed {
            let w = p.label.len() as f64 * CHAR + 12.0;
            let (x, y) = (MARGIN + p.x, y_of(p.depth));
            let (fill, rx) = if p.leaf {
                ("#eef6ee", 13)
            } else {
                ("#eef0fa", 3)
            };
            out.push_str(&format!(
                "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{BOX_H}\" rx=\"{rx}\" fill=\"{fill}\" stroke=\"#444\"/>\n<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n",
                x - w / 2.0,
                y + 17.0,
                xml(&p.label)
            ));
        }
        out.push_str("</svg>\n");
        out
    }

    fn widest_label(&self, n: &Node) -> usize {
        match &n.split {
            None => self.leaf_label(n).len(),
            Some(s) => {
                let own = self.schema.features[s.feature].name.len();
                let branches = (0..s.children.len())
                    .map(|i| self.branch_label(n, i).len())
                    .max()
                    .unwrap_or(0);
                s.children
                    .iter()
                    .map(|c| self.widest_label(c))
                    .fold(own.max(branches), usize::max)
            }
        }
    }

    /// Places `n`'s subtree; gives its index in `placed`.
    fn place(
        &self,
        n: &Node,
        depth: usize,
        slot: f64,
        next_leaf: &mut usize,
        placed: &mut Vec<Placed>,
    ) -> usize {
        let me = placed.len();
        placed.push(Placed {
            x: 0.0,
            depth,
            label: String::new(),
            leaf: n.is_leaf(),
            edges: Vec::new(),
        });
        match &n.split {
            None => {
                placed[me].x = (*next_leaf as f64 + 0.5) * slot;
                placed[me].label = self.leaf_label(n);
                *next_leaf += 1;
            }
            Some(s) => {
                let mut xs = Vec::new();
                for (i, c) in s.children.iter().enumerate() {
                    let id = self.place(c, depth + 1, slot, next_leaf, placed);
                    xs.push(placed[id].x);
                    placed[me].edges.push((id, self.branch_label(n, i)));
                }
                placed[me].x = (xs[0] + xs[xs.len() - 1]) / 2.0;
                placed[me].label = self.schema.features[s.feature].name.clone();
            }
        }
        me
    }
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
