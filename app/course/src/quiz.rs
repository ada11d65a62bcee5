//! Quizzes: a ```` ```quiz ```` fence whose body is TOML, checked like the rest of the lesson
//! and graded on the server. The answers never leave the server: the page gets
//! [`Quiz::questions`]'s prompts and options only, and [`Quiz::grade`] marks what a learner sent.
//!
//! ````markdown
//! ```quiz
//! [[question]]
//! prompt = "A batch of 6 on 4 GPUs: how many GPUs does DataParallel use?"
//!
//! [[question.option]]
//! text = "4"
//! explain = "`torch.chunk` makes chunks of ⌈6/4⌉ = 2, so only three chunks exist."
//!
//! [[question.option]]
//! text = "3"
//! correct = true
//! explain = "Three chunks of 2; DataParallel uses `device_ids[:3]`."
//! ```
//! ````
//!
//! A question with `multiple = true` takes any number of options, and is right when exactly the
//! correct ones are chosen. Prompts, options and explanations are inline markdown.

use serde::Deserialize;

/// The language of a code fence that holds a quiz.
pub const FENCE_LANGUAGE: &str = "quiz";

/// The share of questions to answer right to pass, rounded up: 3 of 4, 4 of 5.
pub const PASS_SHARE: f64 = 0.75;

#[derive(Debug, Clone, PartialEq)]
pub struct Quiz {
    pub questions: Vec<Question>,
    /// The fence's line in its lesson file (1-based; 0 for a quiz parsed on its own).
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// As written (for the instructor's statistics), and rendered to HTML (for the page).
    pub prompt: String,
    pub prompt_html: String,
    /// Any number of options may be chosen; otherwise exactly one.
    pub multiple: bool,
    pub options: Vec<Choice>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub text: String,
    pub text_html: String,
    pub correct: bool,
    /// Why this option is right or wrong, shown in the review after answering.
    pub explain_html: String,
}

/// What a learner's answers earned, question by question.
#[derive(Debug, Clone, PartialEq)]
pub struct Marked {
    /// Per question: the options chosen, and whether that is right.
    pub answers: Vec<(Vec<usize>, bool)>,
    pub right: usize,
    pub passed: bool,
    pub perfect: bool,
}

/// Answers that no honest form sends: an option that does not exist, several options for a
/// one-answer question, answers for questions that do not exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("question {question} has no option {option}")]
    NoSuchOption { question: usize, option: usize },
    #[error("question {question} takes one answer, not {chosen}")]
    OneAnswerOnly { question: usize, chosen: usize },
    #[error("the quiz has {questions} questions, not {answers}")]
    TooManyAnswers { questions: usize, answers: usize },
}

impl Quiz {
    /// The order a learner's attempt shows the options in: per question, the option (as the
    /// lesson lists them) at each position. Fixed by `key` (the learner and the quiz) and the
    /// attempt, so the server that showed an order can read the answers back through it, and
    /// each attempt is shuffled anew: no position, no memorised pattern gives an answer away.
    pub fn order(&self, key: &str, attempt: u32) -> Vec<Vec<usize>> {
        self.questions
            .iter()
            .enumerate()
            .map(|(q, question)| {
                let mut rng = SplitMix64(fnv1a(&[
                    key.as_bytes(),
                    &attempt.to_le_bytes(),
                    &(q as u64).to_le_bytes(),
                ]));
                let mut order: Vec<usize> = (0..question.options.len()).collect();
                // Fisher–Yates.
                for i in (1..order.len()).rev() {
                    let j = (rng.next() % (i as u64 + 1)) as usize;
                    order.swap(i, j);
                }
                order
            })
            .collect()
    }

    /// Why `lessons check` warns about this quiz, if it does: every one-answer question (of at
    /// least three) has its correct option at the same place in the lesson file. Learners see
    /// the options shuffled, but a pattern in the source is one a reader of the lesson files
    /// (or a page without shuffling) could learn.
    pub fn same_position_warning(&self) -> Option<String> {
        let positions: Vec<usize> = self
            .questions
            .iter()
            .filter(|q| !q.multiple)
            .filter_map(|q| q.options.iter().position(|o| o.correct))
            .collect();
        let first = *positions.first()?;
        (positions.len() >= 3 && positions.iter().all(|&p| p == first)).then(|| {
            format!(
                "every one-answer question has its correct option in position {} of {}: vary where the correct options sit",
                first + 1,
                positions.len()
            )
        })
    }

    /// How many right answers pass.
    pub fn pass_mark(&self) -> usize {
        (self.questions.len() as f64 * PASS_SHARE).ceil() as usize
    }

    /// Marks `answers`: for each question, the indices of the options chosen. A question left
    /// unanswered (missing at the end, or empty) is wrong.
    pub fn grade(&self, answers: &[Vec<usize>]) -> Result<Marked, AnswerError> {
        if answers.len() > self.questions.len() {
            return Err(AnswerError::TooManyAnswers {
                questions: self.questions.len(),
                answers: answers.len(),
            });
        }
        let mut marked = Vec::new();
        for (q, question) in self.questions.iter().enumerate() {
            let mut chosen: Vec<usize> = answers.get(q).cloned().unwrap_or_default();
            chosen.sort_unstable();
            chosen.dedup();
            if let Some(&option) = chosen.iter().find(|&&o| o >= question.options.len()) {
                return Err(AnswerError::NoSuchOption { question: q, option });
            }
            if !question.multiple && chosen.len() > 1 {
                return Err(AnswerError::OneAnswerOnly { question: q, chosen: chosen.len() });
            }
            let correct: Vec<usize> =
                (0..question.options.len()).filter(|&o| question.options[o].correct).collect();
            let right = chosen == correct;
            marked.push((chosen, right));
        }
        let right = marked.iter().filter(|(_, r)| *r).count();
        Ok(Marked {
            right,
            passed: right >= self.pass_mark(),
            perfect: right == self.questions.len(),
            answers: marked,
        })
    }
}

/// FNV-1a over the parts: a stable hash, the same on every machine and version (std's hasher
/// is neither).
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        // A separator, so that ("ab", "c") and ("a", "bc") differ.
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// SplitMix64: small, and well mixed from any seed.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuizToml {
    #[serde(default)]
    question: Vec<QuestionToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuestionToml {
    prompt: String,
    #[serde(default)]
    multiple: bool,
    #[serde(default)]
    option: Vec<OptionToml>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionToml {
    text: String,
    #[serde(default)]
    correct: bool,
    explain: String,
}

/// One problem in a quiz's body: the line within the body (0-based) and what is wrong.
pub type Problem = (usize, String);

/// Parses and checks a quiz fence's body. Every problem found is returned, each at its line.
pub fn parse(body: &str) -> Result<Quiz, Vec<Problem>> {
    let raw: QuizToml = toml::from_str(body).map_err(|e| {
        let line = e.span().map_or(0, |s| body[..s.start.min(body.len())].matches('\n').count());
        vec![(line, e.message().trim().to_string())]
    })?;
    // Lines of each `[[question]]` and `[[question.option]]` header, in order, so problems with
    // one question or option can point at it.
    let headers = |name: &str| -> Vec<usize> {
        body.lines().enumerate().filter(|(_, l)| l.trim() == name).map(|(i, _)| i).collect()
    };
    let (question_lines, option_lines) = (headers("[[question]]"), headers("[[question.option]]"));
    let mut problems = Vec::new();
    if raw.question.is_empty() {
        problems.push((0, "a quiz needs at least one [[question]]".to_string()));
    }
    let mut questions = Vec::new();
    let mut option_at = 0;
    for (q, question) in raw.question.into_iter().enumerate() {
        let line = question_lines.get(q).copied().unwrap_or(0);
        let n = q + 1;
        let prompt_html = inline_html(&question.prompt).unwrap_or_else(|e| {
            problems.push((line, format!("question {n}: prompt: {e}")));
            String::new()
        });
        if question.prompt.trim().is_empty() {
            problems.push((line, format!("question {n} has an empty prompt")));
        }
        let mut options = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for option in question.option {
            let oline = option_lines.get(option_at).copied().unwrap_or(line);
            option_at += 1;
            if !seen.insert(option.text.trim().to_string()) {
                problems.push((
                    oline,
                    format!("question {n}: option `{}` is listed twice", option.text.trim()),
                ));
            }
            if option.explain.trim().is_empty() {
                problems.push((
                    oline,
                    format!(
                        "question {n}: option `{}` needs an explanation (`explain`)",
                        option.text.trim()
                    ),
                ));
            }
            let mut html = |what: &str, text: &str| {
                inline_html(text).unwrap_or_else(|e| {
                    problems.push((oline, format!("question {n}: {what}: {e}")));
                    String::new()
                })
            };
            let text_html = html("option", &option.text);
            let explain_html = html("explain", &option.explain);
            options.push(Choice {
                text: option.text,
                text_html,
                correct: option.correct,
                explain_html,
            });
        }
        let correct = options.iter().filter(|o| o.correct).count();
        if options.len() < 2 {
            problems.push((line, format!("question {n} needs at least two [[question.option]]s")));
        } else if correct == 0 {
            problems.push((
                line,
                format!("question {n} has no correct option: mark one with `correct = true`"),
            ));
        } else if correct > 1 && !question.multiple {
            problems.push((
                line,
                format!("question {n} has {correct} correct options: add `multiple = true`, or keep one"),
            ));
        }
        questions.push(Question {
            prompt: question.prompt,
            prompt_html,
            multiple: question.multiple,
            options,
        });
    }
    if problems.is_empty() {
        Ok(Quiz { questions, line: 0 })
    } else {
        Err(problems)
    }
}

/// Inline markdown (code, emphasis, links, math left as text) as HTML without the paragraph
/// around it. Raw HTML is refused, as everywhere in lessons.
fn inline_html(text: &str) -> Result<String, String> {
    use pulldown_cmark::{html, Event, Parser, Tag, TagEnd};
    let mut events = Vec::new();
    for event in Parser::new(text.trim()) {
        match event {
            Event::Html(_) | Event::InlineHtml(_) => {
                return Err("raw HTML is not allowed in lessons".into())
            }
            Event::Start(Tag::Paragraph) | Event::End(TagEnd::Paragraph) => {}
            Event::Start(
                Tag::Heading { .. }
                | Tag::List(_)
                | Tag::CodeBlock(_)
                | Tag::BlockQuote(_)
                | Tag::Table(_),
            ) => return Err("only inline markdown (code, emphasis, links) fits here".into()),
            other => events.push(other),
        }
    }
    let mut out = String::new();
    html::push_html(&mut out, events.into_iter());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"[[question]]
prompt = "A batch of 6 on 4 GPUs: how many get a chunk?"

[[question.option]]
text = "4"
explain = "`torch.chunk` makes chunks of 2."

[[question.option]]
text = "3"
correct = true
explain = "Three chunks of 2."

[[question]]
prompt = "Which calls are collectives?"
multiple = true

[[question.option]]
text = "`dist.barrier()`"
correct = true
explain = "Every rank must call it."

[[question.option]]
text = "`dist.all_reduce(t)`"
correct = true
explain = "Every rank must call it."

[[question.option]]
text = "`print(loss)`"
explain = "Local output."
"#;

    fn problems(body: &str) -> Vec<String> {
        parse(body).unwrap_err().into_iter().map(|(l, m)| format!("{l}: {m}")).collect()
    }

    #[test]
    fn a_good_quiz_parses_with_inline_markdown() {
        let q = parse(GOOD).unwrap();
        assert_eq!(q.questions.len(), 2);
        assert!(q.questions[1].multiple);
        assert_eq!(q.questions[1].options[0].text_html, "<code>dist.barrier()</code>");
        assert_eq!(
            q.questions[0].options[0].explain_html,
            "<code>torch.chunk</code> makes chunks of 2."
        );
        assert_eq!(q.pass_mark(), 2);
    }

    #[test]
    fn grading_marks_each_question_and_refuses_forged_answers() {
        let q = parse(GOOD).unwrap();
        let m = q.grade(&[vec![1], vec![1, 0]]).unwrap();
        assert_eq!((m.right, m.passed, m.perfect), (2, true, true));
        assert_eq!(m.answers[1].0, vec![0, 1], "sorted");
        let m = q.grade(&[vec![1], vec![0]]).unwrap();
        assert_eq!(
            (m.right, m.passed, m.perfect),
            (1, false, false),
            "a partly right multiple choice is wrong"
        );
        let m = q.grade(&[vec![1]]).unwrap();
        assert_eq!(m.right, 1, "an unanswered question is wrong");
        assert_eq!(q.grade(&[vec![7]]), Err(AnswerError::NoSuchOption { question: 0, option: 7 }));
        assert_eq!(
            q.grade(&[vec![0, 1]]),
            Err(AnswerError::OneAnswerOnly { question: 0, chosen: 2 })
        );
        assert!(matches!(
            q.grade(&[vec![], vec![], vec![]]),
            Err(AnswerError::TooManyAnswers { .. })
        ));
    }

    #[test]
    fn problems_name_their_line() {
        assert_eq!(problems(""), ["0: a quiz needs at least one [[question]]"]);
        assert_eq!(
            problems("[[question]]\nprompt = \"p\"\nanswer = 3\n")[0],
            "2: unknown field `answer`, expected one of `prompt`, `multiple`, `option`"
        );
        let no_correct = "[[question]]\nprompt = \"p\"\n[[question.option]]\ntext = \"a\"\nexplain = \"x\"\n[[question.option]]\ntext = \"b\"\nexplain = \"y\"\n";
        assert_eq!(
            problems(no_correct),
            ["0: question 1 has no correct option: mark one with `correct = true`"]
        );
        let twice = no_correct.replace("text = \"b\"", "text = \"a\"\ncorrect = true");
        assert_eq!(problems(&twice), ["5: question 1: option `a` is listed twice"]);
        let two_right = no_correct
            .replace("explain = \"x\"", "explain = \"x\"\ncorrect = true")
            .replace("explain = \"y\"", "explain = \"y\"\ncorrect = true");
        assert_eq!(
            problems(&two_right),
            ["0: question 1 has 2 correct options: add `multiple = true`, or keep one"]
        );
        let lonely = "[[question]]\nprompt = \"p\"\n[[question.option]]\ntext = \"a\"\ncorrect = true\nexplain = \"x\"\n";
        assert_eq!(problems(lonely), ["0: question 1 needs at least two [[question.option]]s"]);
        let unexplained = no_correct.replace("explain = \"y\"", "explain = \" \"\ncorrect = true");
        assert_eq!(
            problems(&unexplained),
            ["5: question 1: option `b` needs an explanation (`explain`)"]
        );
        let html = no_correct.replace("text = \"a\"", "text = \"<b>a</b>\"\ncorrect = true");
        assert_eq!(problems(&html), ["2: question 1: option: raw HTML is not allowed in lessons"]);
    }

    /// A quiz of `n` one-answer questions of four options, the correct one at `at(q)`.
    fn quiz_of(n: usize, at: impl Fn(usize) -> usize) -> Quiz {
        let questions = (0..n)
            .map(|q| Question {
                prompt: format!("q{q}"),
                prompt_html: String::new(),
                multiple: false,
                options: (0..4)
                    .map(|o| Choice {
                        text: format!("{o}"),
                        text_html: String::new(),
                        correct: o == at(q),
                        explain_html: String::new(),
                    })
                    .collect(),
            })
            .collect();
        Quiz { questions, line: 7 }
    }

    #[test]
    fn each_attempt_shows_its_own_order_and_the_server_can_read_it_back() {
        let quiz = quiz_of(8, |_| 0);
        let first = quiz.order("learner-a/lesson#0", 0);
        assert_eq!(first, quiz.order("learner-a/lesson#0", 0), "the same order when asked again");
        for order in &first {
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3], "a permutation");
        }
        assert_ne!(first, quiz.order("learner-a/lesson#0", 1), "a new attempt, a new order");
        assert_ne!(first, quiz.order("learner-b/lesson#0", 0), "another learner, another order");
        // Over many learners the correct option (first in the file) lands everywhere, about
        // evenly: where it sits says nothing.
        let mut at = [0usize; 4];
        for learner in 0..1000 {
            for order in quiz.order(&format!("l{learner}"), 0) {
                at[order.iter().position(|&o| o == 0).unwrap()] += 1;
            }
        }
        assert!(at.iter().all(|&n| (1700..2300).contains(&n)), "{at:?}");
    }

    #[test]
    fn correct_options_in_one_position_are_warned_about() {
        let warning = quiz_of(4, |_| 0).same_position_warning().unwrap();
        assert!(
            warning
                .starts_with("every one-answer question has its correct option in position 1 of 4"),
            "{warning}"
        );
        assert_eq!(quiz_of(4, |q| q % 2).same_position_warning(), None);
        assert_eq!(quiz_of(2, |_| 0).same_position_warning(), None, "two are not a pattern");
    }
}
