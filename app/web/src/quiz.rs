//! A quiz in a lesson: a plain form (question N's options are the field `qN`, valued by option
//! number) that posts to the server, which marks it, records it and
//! sends the learner back to the quiz, where the review of their attempt now shows each
//! option's explanation. The same with or without JavaScript; the page never holds an answer
//! before the learner has given theirs.

use leptos::prelude::*;

use crate::model::{QuizBlock, QuizQuestion, QuizReview};

/// `review`: of the learner's last attempt, if they made one.
#[component]
pub fn QuizView(quiz: QuizBlock, review: Option<QuizReview>) -> impl IntoView {
    let QuizBlock { index, action, questions, pass_mark } = quiz;
    let total = questions.len();
    let reviewed = review.map(|r| view! { <Review review=r questions=questions.clone()/> });
    let again = if reviewed.is_some() { "Try again: " } else { "" };
    view! {
        <section class="quiz" id=format!("quiz-{index}") aria-labelledby=format!("quiz-{index}-title")>
            <h3 id=format!("quiz-{index}-title")>{format!("Quiz: {total} question{}", if total == 1 { "" } else { "s" })}</h3>
            {reviewed}
            <form method="post" action=action class="quiz-form">
                <p class="muted">{format!("{again}{pass_mark} of {total} right passes; you can answer as often as you like.")}</p>
                {questions
                    .into_iter()
                    .enumerate()
                    .map(|(q, question)| view! { <Question q question/> })
                    .collect_view()}
                <button type="submit" class="primary">"Check answers"</button>
            </form>
        </section>
    }
}

#[component]
fn Question(q: usize, question: QuizQuestion) -> impl IntoView {
    let kind = if question.multiple { "checkbox" } else { "radio" };
    view! {
        <fieldset class="quiz-question">
            <legend>
                <span class="quiz-number">{format!("{}. ", q + 1)}</span>
                <span inner_html=question.prompt_html></span>
                {question.multiple.then(|| view! { <span class="muted">" (choose every option that applies)"</span> })}
            </legend>
            {question
                .options_html
                .into_iter()
                .enumerate()
                .map(|(o, html)| {
                    view! {
                        <label class="quiz-option">
                            // One name per question: radio buttons of one name are one group.
                            <input type=kind name=format!("q{q}") value=o.to_string()/>
                            " "
                            <span inner_html=html></span>
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}

#[component]
fn Review(review: QuizReview, questions: Vec<QuizQuestion>) -> impl IntoView {
    let total = questions.len();
    let verdict = if review.passed { "Passed" } else { "Not passed yet" };
    view! {
        <div class="quiz-review" data-role="quiz-review" data-passed=review.passed.to_string()>
            <p class="quiz-score" role="status">{format!("{verdict}: {} of {total} right.", review.right)}</p>
            <ol>
                {review
                    .questions
                    .into_iter()
                    .zip(questions)
                    .map(|((right, options), question)| {
                        view! {
                            <li class=if right { "right" } else { "wrong" }>
                                <p>
                                    <span inner_html=question.prompt_html></span>
                                    <strong>{if right { " ✓ right" } else { " ✗ not right" }}</strong>
                                </p>
                                <ul>
                                    {options
                                        .into_iter()
                                        .zip(question.options_html)
                                        .map(|(o, text)| {
                                            let marks = match (o.chosen, o.correct) {
                                                (true, true) => "your answer, correct",
                                                (true, false) => "your answer, not correct",
                                                (false, true) => "correct, not chosen",
                                                (false, false) => "",
                                            };
                                            view! {
                                                <li class=if o.correct { "correct" } else { "" }>
                                                    <span inner_html=text></span>
                                                    {(!marks.is_empty()).then(|| view! { <em>{format!(" ({marks})")}</em> })}
                                                    <p class="explain" inner_html=o.explain_html></p>
                                                </li>
                                            }
                                        })
                                        .collect_view()}
                                </ul>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </div>
    }
}
