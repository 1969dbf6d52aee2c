//! Shared by the fits (`fit_cells`, `train_net`): the rule option, the logistic link and
//! the scale K that best fits an evaluation to the targets.

use anyhow::Result;
use rensa::rules::Rule;

/// `--rule`: a name or a Gomocup number, as everywhere else ([`Rule::parse`]).
pub fn parse_rule(s: &str) -> Result<Rule> {
    Rule::parse(s).map_err(|e| anyhow::anyhow!("--rule {s}: {e}"))
}

pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The K in 1..100,000 that minimises `loss(K)` (golden section on ln K).
pub fn fit_scale(loss: impl Fn(f64) -> f64) -> f64 {
    let f = |lk: f64| loss(lk.exp());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (1f64.ln(), 100_000f64.ln());
    while b - a > 1e-4 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}
