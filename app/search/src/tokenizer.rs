//! Words as search finds them, in Korean and English. Korean has no spaces inside words and
//! attaches particles to nouns (`모델을`, `모델의`), and no dictionary segmenter builds here; so
//! each run of Hangul becomes its overlapping two-syllable pieces (`모델을` → `모델`, `델을`),
//! which a two-syllable query matches wherever it stands, and a longer query matches as the
//! phrase of its pieces. A lone syllable stays a token of its own. Any other run of letters and
//! digits is one lower-cased word; `_`, `-` and `.` split words (`set_epoch` is `set`, `epoch`,
//! found as that phrase). Text is NFC-normalized before it gets here (see [`normalized`]), so
//! offsets are the text's own.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};
use unicode_normalization::UnicodeNormalization;

/// The name the tokenizer is registered under.
pub const NAME: &str = "lockstep";

pub fn normalized(text: &str) -> String {
    text.nfc().collect()
}

fn is_hangul(c: char) -> bool {
    ('\u{AC00}'..='\u{D7A3}').contains(&c)
}

#[derive(Clone, Default)]
pub struct Words;

impl Tokenizer for Words {
    type TokenStream<'a> = WordStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> WordStream {
        WordStream { tokens: tokens(text), next: 0, token: Token::default() }
    }
}

pub struct WordStream {
    tokens: Vec<Token>,
    next: usize,
    token: Token,
}

impl TokenStream for WordStream {
    fn advance(&mut self) -> bool {
        match self.tokens.get(self.next) {
            Some(t) => {
                self.token = t.clone();
                self.next += 1;
                true
            }
            None => false,
        }
    }

    fn token(&self) -> &Token {
        &self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.token
    }
}

/// The tokens of `text`, positions counted from 0.
pub fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let end_of = |i: usize| chars.get(i + 1).map_or(text.len(), |(o, _)| *o);
    let mut push = |from: usize, to: usize, word: String| {
        let position = out.len();
        out.push(Token {
            offset_from: from,
            offset_to: to,
            position,
            text: word,
            position_length: 1,
        });
    };
    let mut i = 0;
    while i < chars.len() {
        let (start, c) = chars[i];
        if is_hangul(c) {
            let mut j = i;
            while j < chars.len() && is_hangul(chars[j].1) {
                j += 1;
            }
            if j - i == 1 {
                push(start, end_of(i), c.to_string());
            }
            for k in i..j.saturating_sub(1) {
                let word: String = [chars[k].1, chars[k + 1].1].iter().collect();
                push(chars[k].0, end_of(k + 1), word);
            }
            i = j;
        } else if c.is_alphanumeric() {
            let mut j = i;
            while j < chars.len() && chars[j].1.is_alphanumeric() && !is_hangul(chars[j].1) {
                j += 1;
            }
            let word: String = text[start..end_of(j - 1)].to_lowercase();
            push(start, end_of(j - 1), word);
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        tokens(text).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn hangul_in_overlapping_pairs_latin_in_words() {
        assert_eq!(words("모델을 학습"), ["모델", "델을", "학습"]);
        assert_eq!(words("set_epoch()"), ["set", "epoch"]);
        assert_eq!(words("All-Reduce 3번"), ["all", "reduce", "3", "번"]);
        assert_eq!(words("DDP로"), ["ddp", "로"]);
        assert_eq!(words("<script>\"'*:("), ["script"]);
        assert!(words("").is_empty());
        // Offsets are the text's: what a snippet highlights.
        let text = "큰 모델을";
        let t = &tokens(text)[1];
        assert_eq!(&text[t.offset_from..t.offset_to], "모델");
        let positions: Vec<usize> = tokens(text).iter().map(|t| t.position).collect();
        assert_eq!(positions, [0, 1, 2]);
    }

    #[test]
    fn decomposed_hangul_is_composed_first() {
        let decomposed: String = "모델".nfd().collect();
        assert_ne!(decomposed, "모델");
        assert_eq!(words(&normalized(&decomposed)), ["모델"]);
    }
}
