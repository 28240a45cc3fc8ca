//! Evaluation weights kept as data: a game's weight table is a text file in
//! its folder, compiled in, so that a tuning run ends in a reviewable diff of
//! numbers. A game whose evaluation is a weighted sum of features says so
//! with `LinearEval`, which is all the Texel tuner needs of it.

use super::game::Game;

/// Named integer weights in a fixed order. The text form is one weight a
/// line, `name value`, with `#` comments and blank lines kept as they are
/// when the values are rewritten.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightTable {
    text: String,
    names: Vec<String>,
    values: Vec<i32>,
}

impl WeightTable {
    pub fn parse(text: &str) -> Result<WeightTable, String> {
        let mut names: Vec<String> = Vec::new();
        let mut values = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let Some((name, value)) = weight_line(line) else {
                continue;
            };
            let value: i32 = value
                .parse()
                .map_err(|_| format!("line {}: '{value}' is not an integer", index + 1))?;
            if names.iter().any(|known| known == name) {
                return Err(format!("line {}: '{name}' appears twice", index + 1));
            }
            names.push(name.to_owned());
            values.push(value);
        }
        Ok(WeightTable {
            text: text.to_owned(),
            names,
            values,
        })
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// Whether the table lists exactly `expected`, in that order: an
    /// evaluation reads its weights by position.
    pub fn require_names<S: AsRef<str>>(&self, expected: &[S]) -> Result<(), String> {
        let same = self.names.len() == expected.len()
            && self
                .names
                .iter()
                .zip(expected)
                .all(|(a, b)| a == b.as_ref());
        if same {
            return Ok(());
        }
        let list: Vec<&str> = expected.iter().map(AsRef::as_ref).collect();
        Err(format!("the weights must be, in order: {}", list.join(" ")))
    }

    /// The value of `name`, or an error that names it.
    pub fn get(&self, name: &str) -> Result<i32, String> {
        self.names
            .iter()
            .position(|known| known == name)
            .map(|index| self.values[index])
            .ok_or_else(|| format!("no weight named '{name}'"))
    }

    /// The same table with new values, in the table's order; the text keeps
    /// its comments and layout, only the numbers change.
    pub fn with_values(&self, values: &[i32]) -> Result<WeightTable, String> {
        if values.len() != self.values.len() {
            return Err(format!(
                "{} values for {} weights",
                values.len(),
                self.values.len()
            ));
        }
        let mut values = values.iter();
        let mut text = String::with_capacity(self.text.len());
        for line in self.text.lines() {
            match (weight_line(line), line.find(|c: char| !c.is_whitespace())) {
                (Some((name, old)), Some(start)) => {
                    // Every weight line gets the next value: there are as
                    // many values as weight lines.
                    let value = values.next().copied().unwrap_or_default();
                    let (head, tail) = line.split_at(start + name.len());
                    text.push_str(head);
                    text.push_str(&tail.replacen(old, &value.to_string(), 1));
                }
                _ => text.push_str(line),
            }
            text.push('\n');
        }
        WeightTable::parse(&text)
    }

    pub fn text(&self) -> &str {
        &self.text
    }
}

/// The name and value words of a weight line; `None` for blank lines and
/// comments.
fn weight_line(line: &str) -> Option<(&str, &str)> {
    let content = line.split('#').next().unwrap_or("").trim();
    let mut words = content.split_whitespace();
    let name = words.next()?;
    let value = words.next().unwrap_or("");
    Some((name, value))
}

/// An evaluation that is a weighted sum of features: for every position,
/// `evaluate == sum(weights[i] * features[i])`, from the side to move's
/// view. The Texel tuner fits the weights from the features alone, without
/// a rebuild.
pub trait LinearEval<G: Game> {
    /// The weights compiled in.
    fn weights() -> WeightTable;
    /// The features of `position`, one per weight in the table's order.
    fn features(position: &G, features: &mut Vec<i32>);
    /// Whether the evaluation would load `table` (some weights have bounds,
    /// such as a clamp that must not be negative).
    fn check(table: &WeightTable) -> Result<(), String>;
    /// The features' unit is 1/`feature_scale()` of the evaluation's, for
    /// an evaluation that divides its weighted sum (the tuner scales the
    /// search scores it compares with to match).
    fn feature_scale() -> i32 {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "# material\npiece 100   # a man\n\nadvance_2 6\nadvance_3 -14\n";

    #[test]
    fn a_table_reads_names_and_values_in_order() {
        let table = WeightTable::parse(SAMPLE).unwrap();
        assert_eq!(table.names(), ["piece", "advance_2", "advance_3"]);
        assert_eq!(table.values(), [100, 6, -14]);
        assert_eq!(table.get("advance_3"), Ok(-14));
        assert!(table.get("tempo").is_err());
    }

    #[test]
    fn new_values_keep_the_comments_and_layout() {
        let table = WeightTable::parse(SAMPLE).unwrap();
        let tuned = table.with_values(&[96, 16, 6]).unwrap();
        assert_eq!(
            tuned.text(),
            "# material\npiece 96   # a man\n\nadvance_2 16\nadvance_3 6\n"
        );
        assert_eq!(tuned.values(), [96, 16, 6]);
        assert!(table.with_values(&[1, 2]).is_err());
    }

    #[test]
    fn bad_tables_are_refused_with_the_line() {
        let error = WeightTable::parse("piece 100\ntempo x\n").unwrap_err();
        assert!(error.starts_with("line 2:"), "{error}");
        let error = WeightTable::parse("piece 1\npiece 2\n").unwrap_err();
        assert!(error.contains("twice"), "{error}");
        assert!(WeightTable::parse("piece\n").is_err());
    }
}
