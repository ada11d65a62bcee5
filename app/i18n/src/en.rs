use crate::*;

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub static EN: Catalogue = Catalogue {
    site: Site {
        language_name: "English",
        skip_to_content: "Skip to content",
        nav_label: "Site",
        nav_course: "Course",
        nav_xp: "XP & levels",
        nav_account: "Account",
        language: "Language",
        footer: "Lockstep: learn distributed training by running it.",
        search: "Search",
        search_placeholder: "Search the course",
    },
    markdown: Markdown {
        link_to_section: "Link to this section",
        note: "Note",
        tip: "Tip",
        important: "Important",
        warning: "Warning",
        caution: "Caution",
        copy_code: "Copy code",
        copy: "Copy",
        copied: "Copied",
        copy_failed: "Copy failed",
        exercise_link: "Start from this script and submit it for grading",
    },
    progress: Progress {
        panel_label: "Your progress",
        level: |n| format!("Level {n}"),
        xp: |n| format!("{n} XP"),
        lessons: |done, total, percent| format!("{done}/{total} lessons · {percent}%"),
        achievements: |done, total| format!("{done}/{total} achievements"),
        bar_label: "XP to the next level",
        to_next_level: |into, span, next, to_go, percent| {
            format!("{into}/{span} XP to level {next} · {to_go} XP to go · {percent}%")
        },
        top_level: "Top level reached",
        local_only_before: "Progress is local-only — ",
        sign_in: "sign in",
        local_only_after: " to sync across devices.",
        signed_in_before: "Signed in as ",
        signed_in_after: " — progress syncs across devices.",
        how_xp_works: "How XP works",
        achievement: |name| format!("Achievement: {name}"),
    },
    course: CourseWords {
        loading: "Loading the course…",
        load_failed: "The course could not be loaded: ",
        hero: |lessons, minutes| format!("Course · {lessons} lessons · ~{minutes} min"),
        progress_label: "Course progress",
        lessons_completed: " lessons completed",
        lesson_meta: |position, total, minutes, xp| {
            format!("Lesson {position} of {total} · ~{minutes} min · {xp} XP")
        },
        completed: "✓ completed",
        unavailable: "unavailable: the lesson file has errors",
        tags: "Tags",
    },
    lesson: LessonWords {
        loading: "Loading the lesson…",
        load_failed: "The lesson could not be loaded: ",
        position: |position, total| format!("Lesson {position:02} of {total:02}"),
        minutes: |m| format!("~{m} min"),
        on_this_page: "On this page",
        hide: "Hide",
        show: "Show",
        prev_next: "Lessons",
        progress_label: "Progress",
        completed: |xp| format!("✓ You completed this lesson ({xp} XP)."),
        mark_complete: |xp| format!("Mark lesson complete · +{xp} XP"),
        reset_summary: "Reset this lesson's progress…",
        reset_explain: "A reset takes back this lesson's XP: its completion, its simulations and \
                        its quiz. You can earn it all again; a quiz you have seen answered no \
                        longer counts as a first attempt.",
        reset_confirm: "Yes, reset this lesson",
        broken: "This lesson cannot be shown right now: its file has errors. The rest of the \
                 course is available.",
        broken_for_instructor_before: "For the instructor (",
        broken_for_instructor_after: " prints the same):",
        back_to_course: "Back to the course",
        not_translated: "",
    },
    quiz: Quiz {
        title: |n| format!("Quiz: {}", plural(n, "question", "questions")),
        rules: |again, pass_mark, total| {
            format!(
                "{}{pass_mark} of {total} right passes; you can answer as often as you like, \
                 the options shuffled each time.",
                if again { "Try again: " } else { "" }
            )
        },
        choose_all: " (choose every option that applies)",
        check: "Check answers",
        score: |passed, right, total| {
            format!(
                "{}: {right} of {total} right.",
                if passed { "Passed" } else { "Not passed yet" }
            )
        },
        hidden_until_passed: "The right answers show once you pass; until then, each option you \
                              chose says why it is right or wrong. ",
        why: "Why",
        right: " ✓ right",
        not_right: " ✗ not right",
        yours_correct: "your answer, correct",
        yours_not_correct: "your answer, not correct",
        correct_not_chosen: "correct, not chosen",
        yours: "your answer",
    },
    errors: Errors {
        not_found_title: "Page not found",
        not_found: "There is nothing at this address. The lesson may have been renamed.",
    },
};
