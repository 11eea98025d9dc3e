//! JSON laid out for people and for tools alike: objects one key per line
//! (as serde_json's pretty printer), arrays of numbers and of boards on as
//! few lines as they fit: an array holding no object is written on one
//! line when it fits [`WIDTH`] columns, else one element per line, each
//! element on one line. A board of 36 cells is one line, not 108.

use serde::Serialize;

/// The widest line an array is kept on whole.
const WIDTH: usize = 100;

/// `value` as JSON text laid out as above (no final newline): serialized
/// compactly by serde_json (fields in their declared order), then laid
/// out in one pass over that text.
pub(crate) fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    let compact = serde_json::to_string(value).expect("a report serializes");
    Layout::new(&compact).text()
}

/// The compact text, where each bracket closes, and how many `{` come
/// before each position (outside strings).
struct Layout<'a> {
    text: &'a [u8],
    close: Vec<usize>,
    objects_before: Vec<u32>,
    out: Vec<u8>,
}

impl<'a> Layout<'a> {
    fn new(compact: &'a str) -> Layout<'a> {
        let text = compact.as_bytes();
        let mut close = vec![0; text.len()];
        let mut objects_before = Vec::with_capacity(text.len() + 1);
        let (mut open, mut objects, mut in_string, mut escaped) = (Vec::new(), 0u32, false, false);
        for (k, &b) in text.iter().enumerate() {
            objects_before.push(objects);
            if in_string {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => {
                    objects += u32::from(b == b'{');
                    open.push(k);
                }
                b'}' | b']' => {
                    let o = open.pop().expect("serde_json's brackets balance");
                    close[o] = k;
                }
                _ => {}
            }
        }
        objects_before.push(objects);
        Layout {
            text,
            close,
            objects_before,
            out: Vec::with_capacity(text.len() + text.len() / 4),
        }
    }

    fn text(mut self) -> String {
        self.value(0, 0);
        String::from_utf8(self.out).expect("serde_json writes UTF-8")
    }

    fn indent(&mut self, level: usize) {
        self.out.push(b'\n');
        self.out.extend(std::iter::repeat_n(b' ', 2 * level));
    }

    /// Where the value starting at `k` ends (exclusive).
    fn end(&self, k: usize) -> usize {
        match self.text[k] {
            b'{' | b'[' => self.close[k] + 1,
            b'"' => {
                let mut j = k + 1;
                while self.text[j] != b'"' {
                    j += if self.text[j] == b'\\' { 2 } else { 1 };
                }
                j + 1
            }
            _ => {
                let mut j = k;
                while j < self.text.len() && !matches!(self.text[j], b',' | b']' | b'}') {
                    j += 1;
                }
                j
            }
        }
    }

    /// Write the value starting at `k`, at depth `level`; returns its end.
    fn value(&mut self, k: usize, level: usize) -> usize {
        let end = self.end(k);
        let bracket = self.text[k];
        if !matches!(bracket, b'{' | b'[') || end == k + 2 {
            self.out.extend_from_slice(&self.text[k..end]);
            return end;
        }
        let flat = bracket == b'[' && self.objects_before[end] == self.objects_before[k];
        if flat && end - k + 2 * level <= WIDTH {
            self.out.extend_from_slice(&self.text[k..end]);
            return end;
        }
        self.out.push(bracket);
        let mut j = k + 1;
        loop {
            self.indent(level + 1);
            if bracket == b'{' {
                let key_end = self.end(j);
                self.out.extend_from_slice(&self.text[j..key_end]);
                self.out.extend_from_slice(b": ");
                j = key_end + 1;
            }
            j = if flat {
                let e = self.end(j);
                self.out.extend_from_slice(&self.text[j..e]);
                e
            } else {
                self.value(j, level + 1)
            };
            if self.text[j] == b',' {
                self.out.push(b',');
                j += 1;
            } else {
                break;
            }
        }
        self.indent(level);
        self.out.push(self.text[j]);
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// A 3x3 board, its tiles numbered from `first`.
    fn board(first: u32) -> Value {
        json!((0..9).map(|k| [first + k, k % 4]).collect::<Vec<_>>())
    }

    #[test]
    fn strings_with_brackets_and_quotes_are_copied_as_they_are() {
        let v = json!({"a": "x[{\\\"]}", "b": [{"c": "]"}, {}], "d": {}});
        let text = to_string(&v);
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
        assert_eq!(to_string(&json!(3)), "3");
        assert_eq!(to_string(&json!([])), "[]");
    }

    #[test]
    fn boards_take_a_line_each_and_objects_a_key_per_line() {
        let v = json!({
            "raw_count": 4,
            "nodes_per_depth": [9, 54, 120],
            "solutions": [board(1), board(2), board(3)],
            "empty": [],
            "race": [{"engine": "sat", "ended": "won"}],
            "long": (0..60).collect::<Vec<u32>>(),
        });
        let text = to_string(&v);
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
        assert!(text.contains("\"nodes_per_depth\": [9,54,120],"), "{text}");
        assert!(
            text.contains("\n    [[1,0],[2,1],[3,2],[4,3],[5,0],[6,1],[7,2],[8,3],[9,0]],\n"),
            "{text}"
        );
        assert!(text.contains("\"empty\": [],"), "{text}");
        assert!(text.contains("\n      \"engine\": \"sat\"\n"), "{text}");
        // Too wide for one line: one number per line, no deeper.
        assert!(text.contains("\n    59\n"), "{text}");
    }
}
