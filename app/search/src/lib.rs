//! Search across the course, in every language it is read in. Each section of each lesson of
//! each edition is a document of an in-memory tantivy index: its language, its lesson, its
//! heading and its text. The index is made from a loaded course ([`SearchIndex::build`]) and
//! made again when the course changes; nothing is kept on disk.
//!
//! A query never meets a query language: it is cut into words by the same tokenizer as the
//! text ([`tokenizer`]), and every word must match, a word of several tokens as a phrase. So
//! `<script>"'*:(` is the word `script`, and a query of nothing but punctuation is answered as
//! having no words.
//!
//! A word (or run of words) that is one of the course's terms (`terms.toml`) matches any word
//! of that term, in any language: 체크포인트 finds the sections that write `checkpoint`. When
//! nothing matches, [`SearchIndex::suggest`] says what to try: the term a misspelt word is
//! closest to, and how many sections the other editions have.
//!
//! # What is where
//!
//! Search across the course: each section of each lesson of every edition (`sections.rs`: the
//! rendered lesson cut at its headings, in plain text, quizzes with their questions and options but
//! never their explanations) is a document of an in-memory tantivy index, made from a loaded course
//! and again when it changes (`LiveSearch`). Its tokenizer (`tokenizer.rs`) cuts runs of Hangul
//! into overlapping syllable pairs, so `모델` is found in `모델을`, and other text into lower-cased
//! words; a query is cut the same way and every word must match, a word of several tokens as a
//! phrase, so input never meets a query language. A run of words that is a word of one of the
//! course's terms (`lessons/<course>/terms.toml`, loaded by `lockstep-course`'s `terms.rs` and held
//! against the lessons by `lessons check`) matches any word of that term, in any language (체크포인트
//! finds `checkpoint`); a search that finds nothing is answered with the term a slip is closest to
//! and the other editions' counts (`suggest`). Server only. `cargo bench -p lockstep-search` prints
//! build time and query latency beside a substring scan.

pub mod sections;
pub mod tokenizer;

use lockstep_course::Edition;
use lockstep_routes::Lang;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, PhraseQuery, Query, TermQuery};
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, Value, STORED, STRING,
};
use tantivy::snippet::{collapse_overlapped_ranges, SnippetGenerator};
use tantivy::{doc, Index, IndexReader, ReloadPolicy, TantivyDocument, Term};

/// The longest query answered, in characters: a search box needs a few words, and the work a
/// query costs grows with its length.
pub const MAX_QUERY_CHARS: usize = 100;
/// The most words a query may have.
pub const MAX_QUERY_WORDS: usize = 10;
/// A snippet's length, in bytes of UTF-8 (tantivy counts bytes: about 3 per Hangul syllable).
const SNIPPET_BYTES: usize = 240;

#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error("the search index: {0}")]
    Index(#[from] tantivy::TantivyError),
}

/// Why a query was not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    TooLong { max_chars: usize },
    TooManyWords { max_words: usize },
    NoWords,
}

/// One matching section.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub slug: String,
    pub lesson_title: String,
    /// The section's heading, or the lesson's title for the text before its first heading.
    pub heading: String,
    /// The section's address in the language searched in.
    pub href: String,
    /// The snippet as pieces of text, each marked when it matched the query.
    pub snippet: Vec<(String, bool)>,
}

struct Fields {
    lang: Field,
    slug: Field,
    lesson_title: Field,
    heading_id: Field,
    heading: Field,
    text: Field,
}

pub struct SearchIndex {
    index: Index,
    reader: IndexReader,
    fields: Fields,
    /// The courses' terms, each its words normalized and lower-cased.
    terms: Vec<Vec<String>>,
    /// Sections indexed, for the benchmark and the logs.
    pub sections: usize,
}

impl SearchIndex {
    /// An index of every section of every edition given.
    pub fn build<'a>(
        editions: impl IntoIterator<Item = &'a Edition>,
    ) -> Result<SearchIndex, SearchError> {
        let editions: Vec<&Edition> = editions.into_iter().collect();
        // Every edition carries its source's terms: one's are all of them.
        let terms = editions.first().map_or_else(Vec::new, |e| {
            e.course.terms.iter().map(|t| t.all_words().map(String::from).collect()).collect()
        });
        let docs = editions.into_iter().flat_map(|e| {
            e.course.lessons.iter().filter_map(|l| l.ready()).flat_map(move |lesson| {
                sections::of(lesson).into_iter().map(move |s| Doc {
                    lang: e.lang,
                    slug: lesson.slug.clone(),
                    lesson_title: lesson.front.title.clone(),
                    section: s,
                })
            })
        });
        Ok(Self::from_docs(docs)?.with_terms(terms))
    }

    /// The same index, with these terms: each a list of words that stand for one another.
    pub fn with_terms(mut self, terms: Vec<Vec<String>>) -> SearchIndex {
        self.terms = terms
            .into_iter()
            .map(|t| t.iter().map(|w| tokenizer::normalized(w).to_lowercase()).collect())
            .collect();
        self
    }

    /// An index of these sections (the benchmark makes its own).
    pub fn from_docs(docs: impl IntoIterator<Item = Doc>) -> Result<SearchIndex, SearchError> {
        let mut schema = Schema::builder();
        let text = TextOptions::default().set_stored().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(tokenizer::NAME)
                .set_index_option(IndexRecordOption::WithFreqsAndPositions),
        );
        let fields = Fields {
            lang: schema.add_text_field("lang", STRING),
            slug: schema.add_text_field("slug", STORED),
            lesson_title: schema.add_text_field("lesson_title", STORED),
            heading_id: schema.add_text_field("heading_id", STORED),
            heading: schema.add_text_field("heading", text.clone()),
            text: schema.add_text_field("text", text),
        };
        let index = Index::create_in_ram(schema.build());
        index.tokenizers().register(tokenizer::NAME, tokenizer::Words);
        let mut writer = index.writer_with_num_threads(1, 32_000_000)?;
        let mut sections = 0;
        for d in docs {
            let mut doc = doc!(
                fields.lang => d.lang.code(),
                fields.slug => d.slug,
                fields.lesson_title => d.lesson_title,
                fields.heading => tokenizer::normalized(&d.section.heading),
                fields.text => tokenizer::normalized(&d.section.text),
            );
            if let Some(id) = d.section.heading_id {
                doc.add_text(fields.heading_id, id);
            }
            writer.add_document(doc)?;
            sections += 1;
        }
        writer.commit()?;
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        Ok(SearchIndex { index, reader, fields, sections, terms: Vec::new() })
    }

    /// The sections of `lang`'s edition that match every word of `query`, best first.
    pub fn search(
        &self,
        lang: Lang,
        query: &str,
        limit: usize,
    ) -> Result<Result<Vec<Hit>, Refused>, SearchError> {
        if query.chars().count() > MAX_QUERY_CHARS {
            return Ok(Err(Refused::TooLong { max_chars: MAX_QUERY_CHARS }));
        }
        let query = tokenizer::normalized(query);
        let words: Vec<&str> =
            query.split_whitespace().filter(|w| !tokens_of(w).is_empty()).collect();
        if words.is_empty() {
            return Ok(Err(Refused::NoWords));
        }
        if words.len() > MAX_QUERY_WORDS {
            return Ok(Err(Refused::TooManyWords { max_words: MAX_QUERY_WORDS }));
        }
        let units = self.units(&words);
        let f = &self.fields;
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(
            Occur::Must,
            Box::new(TermQuery::new(
                Term::from_field_text(f.lang, lang.code()),
                IndexRecordOption::Basic,
            )),
        )];
        for unit in &units {
            // Any of the unit's words, in the heading or in the text.
            let either: Vec<(Occur, Box<dyn Query>)> = unit
                .iter()
                .map(|w| tokens_of(w))
                .filter(|tokens| !tokens.is_empty())
                .flat_map(|tokens| {
                    [f.heading, f.text]
                        .into_iter()
                        .map(move |field| (Occur::Should, word_query(field, &tokens)))
                        .collect::<Vec<_>>()
                })
                .collect();
            clauses.push((Occur::Must, Box::new(BooleanQuery::new(either))));
        }
        let query = BooleanQuery::new(clauses);
        let searcher = self.reader.searcher();
        let top = searcher.search(&query, &TopDocs::with_limit(limit).order_by_score())?;
        let mut snippets = SnippetGenerator::create(&searcher, &query, f.text)?;
        snippets.set_max_num_chars(SNIPPET_BYTES);
        let mut hits = Vec::with_capacity(top.len());
        for (_, address) in top {
            let doc: TantivyDocument = searcher.doc(address)?;
            let get =
                |field: Field| doc.get_first(field).and_then(|v| v.as_str().map(str::to_string));
            let slug = get(f.slug).unwrap_or_default();
            let heading_id = get(f.heading_id);
            let href = lang.path(&lockstep_routes::lesson_section(&slug, heading_id.as_deref()));
            let snippet = snippets.snippet_from_doc(&doc);
            hits.push(Hit {
                lesson_title: get(f.lesson_title).unwrap_or_default(),
                heading: get(f.heading).unwrap_or_default(),
                href,
                slug,
                snippet: pieces(snippet.fragment(), snippet.highlighted()),
            });
        }
        Ok(Ok(hits))
    }

    /// The query's words as units that must each match: a run of words that is a word of a
    /// term (the longest first) stands for every word of that term; any other word for itself.
    fn units(&self, words: &[&str]) -> Vec<Vec<String>> {
        let mut units = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let longest = (1..=words.len() - i).rev().find_map(|n| {
                let run = words[i..i + n].join(" ").to_lowercase();
                let term = self.terms.iter().find(|t| t.contains(&run))?;
                Some((n, term))
            });
            match longest {
                Some((n, term)) => {
                    let typed = words[i..i + n].join(" ");
                    let mut unit = vec![typed];
                    unit.extend(term.iter().cloned());
                    units.push(unit);
                    i += n;
                }
                None => {
                    units.push(vec![words[i].to_string()]);
                    i += 1;
                }
            }
        }
        units
    }

    /// What to try when `query` finds nothing in `lang`'s edition: the words of the course's
    /// terms that a word of it is a slip away from ("did you mean"), and how many sections
    /// each other edition has for it, so a reader on the wrong one learns where they are.
    pub fn suggest(&self, lang: Lang, query: &str) -> Result<Suggestions, SearchError> {
        let query = tokenizer::normalized(query).to_lowercase();
        let mut try_words = Vec::new();
        for word in query.split_whitespace() {
            if self.terms.iter().any(|t| t.iter().any(|w| w == word)) {
                continue;
            }
            let close = self
                .terms
                .iter()
                .flatten()
                .filter(|w| !w.contains(' ') && is_slip(word, w))
                .min_by_key(|w| edit_distance(word, w));
            if let Some(close) = close {
                if !try_words.contains(close) {
                    try_words.push(close.clone());
                }
            }
        }
        let mut elsewhere = Vec::new();
        for other in Lang::ALL.into_iter().filter(|l| *l != lang) {
            if let Ok(hits) = self.search(other, &query, 30)? {
                if !hits.is_empty() {
                    elsewhere.push((other, hits.len()));
                }
            }
        }
        Ok(Suggestions { try_words, elsewhere })
    }

    /// The index's size, for the benchmark.
    pub fn documents(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    #[doc(hidden)]
    pub fn index(&self) -> &Index {
        &self.index
    }
}

/// The index of the course as it is now: made again, once, when the course has changed.
#[derive(Default)]
pub struct LiveSearch {
    current: std::sync::RwLock<Option<Current>>,
    languages: lockstep_routes::Languages,
}

type Current = (std::sync::Arc<lockstep_course::live::Loaded>, std::sync::Arc<SearchIndex>);

impl LiveSearch {
    /// Indexing the editions of the languages a site serves.
    pub fn serving(languages: lockstep_routes::Languages) -> LiveSearch {
        LiveSearch { current: Default::default(), languages }
    }

    /// The index of `loaded` (each served edition of it).
    pub fn of(
        &self,
        loaded: &std::sync::Arc<lockstep_course::live::Loaded>,
    ) -> Result<std::sync::Arc<SearchIndex>, SearchError> {
        let same = |c: &Option<Current>| {
            c.as_ref().filter(|(l, _)| std::sync::Arc::ptr_eq(l, loaded)).map(|(_, i)| i.clone())
        };
        if let Some(index) = same(&self.current.read().unwrap_or_else(|e| e.into_inner())) {
            return Ok(index);
        }
        let mut current = self.current.write().unwrap_or_else(|e| e.into_inner());
        // Another request may have made it while this one waited.
        if let Some(index) = same(&current) {
            return Ok(index);
        }
        let editions: Vec<_> = self.languages.iter().map(|l| loaded.edition(l)).collect();
        let index = std::sync::Arc::new(SearchIndex::build(editions.iter().map(|e| e.as_ref()))?);
        *current = Some((loaded.clone(), index.clone()));
        Ok(index)
    }
}

/// What a search that found nothing suggests ([`SearchIndex::suggest`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Suggestions {
    /// Terms' words close to a word of the query.
    pub try_words: Vec<String>,
    /// Other editions with sections for the query, and how many (up to the search's limit).
    pub elsewhere: Vec<(Lang, usize)>,
}

/// The tokens of one word of a query.
fn tokens_of(word: &str) -> Vec<String> {
    tokenizer::tokens(word).into_iter().map(|t| t.text).collect()
}

/// Whether `typed` is a slip of `word`: one edit in a short word, two in a long one.
fn is_slip(typed: &str, word: &str) -> bool {
    let len = word.chars().count();
    let most = match len {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    };
    most > 0 && edit_distance(typed, word) <= most
}

/// Levenshtein's distance, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// A document to index.
pub struct Doc {
    pub lang: Lang,
    pub slug: String,
    pub lesson_title: String,
    pub section: sections::Section,
}

/// One word of a query in one field: a term, or the phrase of its tokens.
fn word_query(field: Field, tokens: &[String]) -> Box<dyn Query> {
    match tokens {
        [one] => Box::new(TermQuery::new(
            Term::from_field_text(field, one),
            IndexRecordOption::WithFreqs,
        )),
        many => Box::new(PhraseQuery::new_with_offset(
            many.iter().enumerate().map(|(i, t)| (i, Term::from_field_text(field, t))).collect(),
        )),
    }
}

/// `text` cut into plain and matched pieces. Matches joined only by `_`, `-` or `.` are one
/// (`set_epoch`, found as `set` then `epoch`).
fn pieces(text: &str, highlighted: &[std::ops::Range<usize>]) -> Vec<(String, bool)> {
    let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
    for r in collapse_overlapped_ranges(highlighted) {
        match ranges.last_mut() {
            Some(last)
                if last.end <= r.start
                    && text.get(last.end..r.start).is_some_and(|gap| {
                        !gap.is_empty() && gap.chars().all(|c| matches!(c, '_' | '-' | '.'))
                    }) =>
            {
                last.end = r.end
            }
            _ => ranges.push(r),
        }
    }
    let mut out = Vec::new();
    let mut at = 0;
    for r in ranges {
        if r.start < at || r.end > text.len() {
            continue;
        }
        if r.start > at {
            out.push((text[at..r.start].to_string(), false));
        }
        out.push((text[r.start..r.end].to_string(), true));
        at = r.end;
    }
    if at < text.len() {
        out.push((text[at..].to_string(), false));
    }
    out
}
