//! A quiz in a lesson: a plain form (question N's options are the field `qN`, valued by the
//! position shown; the attempt's number travels with them) that posts to the server, which
//! reads the answers back through the order it showed, marks them, records them and sends the
//! learner back to the quiz, where the review of their attempt now says what was wrong and
//! why. The same with or without JavaScript; the page never holds an answer the learner has
//! not earned: the right options appear only once the quiz is passed.

use leptos::prelude::*;

use crate::model::{QuizBlock, QuizLearner, QuizQuestion, QuizReview};

/// `learner`: the attempt they are on, its order, and the review of the one before.
#[component]
pub fn QuizView(quiz: QuizBlock, learner: QuizLearner) -> impl IntoView {
    let QuizBlock { index, action, questions, pass_mark } = quiz;
    let QuizLearner { attempt, own_order, order, review } = learner;
    let total = questions.len();
    let w = &crate::page::use_t().quiz;
    let reviewed = review.map(|r| view! { <Review review=r questions=questions.clone()/> });
    let again = reviewed.is_some();
    view! {
        <section class="quiz" id=format!("quiz-{index}") aria-labelledby=format!("quiz-{index}-title")>
            <h3 id=format!("quiz-{index}-title")>{(w.title)(total)}</h3>
            {reviewed}
            <form method="post" action=action class="quiz-form">
                <input type="hidden" name="attempt" value=attempt.to_string()/>
                <input type="hidden" name="order" value=if own_order { "learner" } else { "visitor" }/>
                <p class="muted">{(w.rules)(again, pass_mark as usize, total)}</p>
                {questions
                    .into_iter()
                    .zip(order.into_iter().chain(std::iter::repeat(Vec::new())))
                    .enumerate()
                    .map(|(q, (question, order))| view! { <Question quiz=index q question order/> })
                    .collect_view()}
                <button type="submit" class="primary">{w.check}</button>
            </form>
        </section>
    }
}

/// `order`: the option at each position shown.
#[component]
fn Question(quiz: u32, q: usize, question: QuizQuestion, order: Vec<usize>) -> impl IntoView {
    let kind = if question.multiple { "checkbox" } else { "radio" };
    let t = crate::page::use_t();
    let w = &t.quiz;
    view! {
        <fieldset class="quiz-question">
            <legend>
                <span class="quiz-number">{format!("{}. ", q + 1)}</span>
                <span class="course-text" inner_html=question.prompt_html></span>
                {question.multiple.then(|| view! { <span class="muted">{w.choose_all}</span> })}
            </legend>
            {order
                .into_iter()
                .enumerate()
                .filter_map(|(position, o)| Some((position, question.options_html.get(o)?.clone())))
                .map(|(position, html)| {
                    view! {
                        <label class="quiz-option">
                            // One name per question: radio buttons of one name are one group.
                            <input type=kind name=format!("q{q}") value=position.to_string()/>
                            " "
                            <span class="course-text" inner_html=html></span>
                        </label>
                    }
                })
                .collect_view()}
            <a href="#report" class="report-link" data-question=format!("{quiz}.{q}") on:click=crate::talk_live::report_here>{t.report.link}</a>
        </fieldset>
    }
}

#[component]
fn Review(review: QuizReview, questions: Vec<QuizQuestion>) -> impl IntoView {
    let total = questions.len();
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).quiz;
    view! {
        <div class="quiz-review" data-role="quiz-review" data-passed=review.passed.to_string()>
            <p class="quiz-score" role="status">{(w.score)(review.passed, review.right as usize, total)}</p>
            {(!review.passed).then(|| view! {
                <p class="muted" data-role="quiz-hidden">
                    {w.hidden_until_passed}
                    <a href=lang.path(lockstep_routes::XP_QUIZZES)>{w.why}</a>
                </p>
            })}
            <ol>
                {review
                    .questions
                    .into_iter()
                    .zip(questions)
                    .map(|((right, options), question)| {
                        view! {
                            <li class=if right { "right" } else { "wrong" }>
                                <p>
                                    <span class="course-text" inner_html=question.prompt_html></span>
                                    <strong>{if right { w.right } else { w.not_right }}</strong>
                                </p>
                                <ul>
                                    {options
                                        .into_iter()
                                        .map(|o| {
                                            let text = question.options_html.get(o.option).cloned().unwrap_or_default();
                                            let marks = match (o.chosen, o.correct) {
                                                (true, Some(true)) => w.yours_correct,
                                                (true, Some(false)) => w.yours_not_correct,
                                                (false, Some(true)) => w.correct_not_chosen,
                                                (true, None) => w.yours,
                                                (false, _) => "",
                                            };
                                            let class = match o.correct {
                                                Some(true) => "correct",
                                                _ if o.chosen => "chosen",
                                                _ => "",
                                            };
                                            view! {
                                                <li class=class>
                                                    <span class="course-text" inner_html=text></span>
                                                    {(!marks.is_empty()).then(|| view! { <em>{format!(" ({marks})")}</em> })}
                                                    {o.explain_html.map(|e| view! { <p class="explain course-text" inner_html=e></p> })}
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
